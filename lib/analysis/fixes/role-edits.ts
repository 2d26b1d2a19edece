import { describeRef, objectRef } from '@/lib/k8s/refs';
import type { ClusterRole, ClusterRoleBinding, ObjectRef, PolicyRule, Role, RoleBinding } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { FixChange } from '@/lib/analysis/types';
import { ruleYaml } from '@/lib/analysis/checks/check-helpers';
import { pushTo } from '@/lib/k8s/push-to';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { membersToday, noRbacChanges, type RbacChanges } from './holder-engine';
import { clusterRolesNamed, inStateOrder, roleNamed } from './state-objects';
import { ruleProblem } from './validate-objects';

// Rule edits as a fix writes them. A rule of an aggregated ClusterRole is not edited there: the
// clusterrole-aggregation controller rewrites that role from the roles its selectors pick within
// seconds. The edit goes to each source ClusterRole that holds the rule (the role named in the
// rule's aggregatedFrom, and any other picked role with the same rule, which the controller would
// copy back).

const RBAC_API = 'rbac.authorization.k8s.io/v1';
// Kept per rule object: ruleSources compares one rule with every rule of the roles an aggregated role picks.
const ruleKeys = new WeakMap<PolicyRule, string>();
const ruleKey = (r: PolicyRule) => {
  let key = ruleKeys.get(r);
  if (key === undefined)
    ruleKeys.set(r, (key = JSON.stringify([r.apiGroups ?? [], r.resources ?? [], r.resourceNames ?? [], r.nonResourceURLs ?? [], r.verbs ?? []])));
  return key;
};

/** Where a rule of a role (by the engine's effective rules) is written: the objects and their rule indexes. */
export interface RuleSource {
  object: Role | ClusterRole;
  index: number;
  /** The aggregated ClusterRole the rule reaches holders through, when it is copied. */
  aggregatedInto?: string;
}

export function ruleSources(ctx: AnalysisContext, role: ObjectRef, ruleIndex: number): RuleSource[] {
  const compiled = role.kind === 'ClusterRole' ? ctx.engine.rbac.clusterRoles.get(role.name) : ctx.engine.rbac.roles.get(role.namespace ?? '')?.get(role.name);
  const effective = compiled?.rules[ruleIndex];
  if (!effective) return [];
  if (role.kind === 'Role') {
    const object = roleNamed(ctx.state, role.namespace ?? '', role.name);
    return object ? [{ object, index: ruleIndex }] : [];
  }
  const object = clusterRolesNamed(ctx.state, role.name)[0];
  if (!object) return [];
  if (!effective.from) return [{ object, index: ruleIndex }];
  const key = ruleKey(effective.rule);
  const copies = copiesIn(ctx.state, object);
  // The role the rule came from is one its selectors pick (the aggregation controller copied it from there).
  if (clusterRolesNamed(ctx.state, effective.from).every((cr) => copies.members.has(cr) || cr.aggregationRule || cr.metadata.name === role.name))
    return (copies.byRule.get(key) ?? []).map((c) => ({ ...c, aggregatedInto: role.name }));
  // The roles its selectors pick today and the one the rule came from, in the state's order.
  const picked = inStateOrder(ctx.state, [...membersToday(ctx.state, object), ...clusterRolesNamed(ctx.state, effective.from)]);
  const out: RuleSource[] = [];
  for (const cr of picked) {
    if (cr.aggregationRule || cr.metadata.name === role.name) continue;
    (cr.rules ?? []).forEach((r, index) => {
      if (ruleKey(r) === key) out.push({ object: cr, index, aggregatedInto: role.name });
    });
  }
  return out;
}

interface Copies {
  /** The roles the aggregating role's selectors pick today. */
  members: Set<ClusterRole>;
  /** Each rule of the plain ones among them (not aggregating, not the role itself) by its key, in the state's order. */
  byRule: Map<string, { object: ClusterRole; index: number }[]>;
}

// Kept per state and aggregating role: an issue's sites are often many rules of one aggregated role
// (admin, edit, view pick hundreds of roles on a large cluster), each compared with every picked rule.
const copiesByState = new WeakMap<ClusterState, Map<ClusterRole, Copies>>();

function copiesIn(state: ClusterState, aggregating: ClusterRole): Copies {
  let byRole = copiesByState.get(state);
  if (!byRole) copiesByState.set(state, (byRole = new Map()));
  let copies = byRole.get(aggregating);
  if (!copies) {
    const members = membersToday(state, aggregating);
    copies = { members: new Set(members), byRule: new Map() };
    for (const cr of members) {
      if (cr.aggregationRule || cr.metadata.name === aggregating.metadata.name) continue;
      (cr.rules ?? []).forEach((r, index) => pushTo(copies!.byRule, ruleKey(r), { object: cr, index }));
    }
    byRole.set(aggregating, copies);
  }
  return copies;
}

const refOf = (o: Role | ClusterRole | RoleBinding | ClusterRoleBinding): ObjectRef => objectRef(o.kind, o.metadata.name, o.metadata.namespace || undefined);

/** Accumulates a fix's RBAC edits: replaced rules per role, replaced subjects per binding, new objects. */
export class RbacEdits {
  private readonly roles = new Map<string, { object: Role | ClusterRole; replaced: Map<number, PolicyRule[]>; why: string[] }>();
  private readonly bindings = new Map<string, { object: RoleBinding | ClusterRoleBinding; subjects: RoleBinding['subjects']; why: string }>();
  private readonly created: { object: Role | ClusterRole | RoleBinding | ClusterRoleBinding; why: string }[] = [];

  replaceRule(source: RuleSource, rules: PolicyRule[], why: string): void {
    const key = `${source.object.kind}/${source.object.metadata.namespace ?? ''}/${source.object.metadata.name}`;
    let e = this.roles.get(key);
    if (!e) this.roles.set(key, (e = { object: source.object, replaced: new Map(), why: [] }));
    e.replaced.set(source.index, rules);
    const via = source.aggregatedInto
      ? ` (aggregated into ClusterRole ${source.aggregatedInto}, which the aggregation controller rewrites from this role)`
      : '';
    e.why.push(`rule #${source.index}: ${why}${via}`);
  }

  setSubjects(object: RoleBinding | ClusterRoleBinding, subjects: RoleBinding['subjects'], why: string): void {
    this.bindings.set(`${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`, { object, subjects, why });
  }

  create(object: Role | ClusterRole | RoleBinding | ClusterRoleBinding, why: string): void {
    this.created.push({ object, why });
  }

  get empty(): boolean {
    return this.roles.size === 0 && this.bindings.size === 0 && this.created.length === 0;
  }

  /** Rules the server would refuse, by object. */
  problems(): string[] {
    const out: string[] = [];
    for (const { object, rules } of this.editedRoles()) {
      rules.forEach((r, i) => {
        const p = ruleProblem(r, object.kind === 'Role');
        if (p) out.push(`${describeRef(refOf(object))} rule #${i}: ${p}`);
      });
    }
    return out;
  }

  private editedRoles(): { object: Role | ClusterRole; rules: PolicyRule[]; why: string[] }[] {
    const out: { object: Role | ClusterRole; rules: PolicyRule[]; why: string[] }[] = [];
    for (const { object, replaced, why } of this.roles.values()) {
      const rules = (object.rules ?? []).flatMap((r, i) => replaced.get(i) ?? [r]);
      out.push({ object, rules, why });
    }
    for (const { object, why } of this.created)
      if (object.kind === 'Role' || object.kind === 'ClusterRole') out.push({ object, rules: object.rules ?? [], why: [why] });
    return out;
  }

  /** The changes as a person applies them, and the objects as the engine applies them. */
  result(): { changes: FixChange[]; rbac: RbacChanges } {
    const changes: FixChange[] = [];
    const rbac = noRbacChanges();
    const put = (o: Role | ClusterRole | RoleBinding | ClusterRoleBinding) => {
      if (o.kind === 'ClusterRole') rbac.clusterRoles.push(o);
      else if (o.kind === 'Role') rbac.roles.push(o);
      else if (o.kind === 'ClusterRoleBinding') rbac.clusterRoleBindings.push(o);
      else rbac.roleBindings.push(o);
    };
    for (const { object, replaced, why } of this.roles.values()) {
      const rules = (object.rules ?? []).flatMap((r, i) => replaced.get(i) ?? [r]);
      changes.push({
        action: 'patch',
        target: refOf(object),
        apiVersion: RBAC_API,
        patchType: 'merge',
        patch: { rules: rules.map(ruleYaml) },
        why: why.join('; '),
      });
      put({ ...object, rules } as Role | ClusterRole);
    }
    for (const { object, subjects, why } of this.bindings.values()) {
      changes.push({ action: 'patch', target: refOf(object), apiVersion: RBAC_API, patchType: 'merge', patch: { subjects: subjects ?? [] }, why });
      put({ ...object, subjects } as RoleBinding | ClusterRoleBinding);
    }
    for (const { object, why } of this.created) {
      changes.push({ action: 'create', object: manifestOf(object), why });
      put(object);
    }
    return { changes, rbac };
  }
}

/** An RBAC object as a manifest to create (only the fields RBAC reads). */
function manifestOf(o: Role | ClusterRole | RoleBinding | ClusterRoleBinding): Record<string, unknown> {
  const metadata = o.metadata.namespace ? { name: o.metadata.name, namespace: o.metadata.namespace } : { name: o.metadata.name };
  if (o.kind === 'Role' || o.kind === 'ClusterRole') return { apiVersion: RBAC_API, kind: o.kind, metadata, rules: (o.rules ?? []).map(ruleYaml) };
  return { apiVersion: RBAC_API, kind: o.kind, metadata, roleRef: o.roleRef, subjects: o.subjects ?? [] };
}
