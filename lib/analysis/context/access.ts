import type { AuthzEngine } from '@/lib/authz/authz-engine';
import { ruleAllowsResource } from '@/lib/authz/rule-matches';
import type { ResourceAttributes } from '@/lib/authz/types';
import type { CompiledRole } from '@/lib/authz/rbac-index';
import type { WhoCanGrant } from '@/lib/authz/who-can';
import type { ObjectRef, PolicyRule, SubjectRef } from '@/lib/k8s/types';
import type { Evidence } from '@/lib/report/types';
import { canonicalSubject, cmp, compareSubjects, subjectAppliesTo } from './identities';

// "Who can do X somewhere?" over the exact authorizer: whoCan asked for every namespace that can
// matter (a probe namespace for ClusterRoleBindings plus each namespace with RoleBindings or
// objects) and for every name that can matter (a name no grant lists, plus each resourceNames
// entry of a rule that otherwise matches), merged per subject. Answers are cached per engine.

/** A name and a namespace no real object has: only grants without resourceNames / ClusterRoleBindings match them. */
export const PROBE_NAME = 'dra-posture.probe\u0000name';
export const PROBE_NAMESPACE = 'dra-posture-probe\u0000ns';

export interface AccessQuestion {
  verbs: readonly string[];
  group: string;
  resource: string;
  subresource?: string;
  /** cluster: namespace "" (ClusterRoleBindings only); namespaced: any namespace (RoleBindings count in theirs). */
  scope: 'cluster' | 'namespaced';
  /**
   * any: some name (unscoped grants and every listed resourceNames entry); unscoped: every name (only
   * grants without resourceNames); or these names ('' = a request without a name, e.g. create).
   */
  names: 'any' | 'unscoped' | readonly string[];
  /** namespaced only: ask only in these namespaces (ClusterRoleBindings still count). */
  namespaces?: readonly string[];
}

export interface AccessEntry {
  /** Canonical subject (a User named system:serviceaccount:… is reported as the ServiceAccount). */
  subject: SubjectRef;
  via: 'privileged-group' | 'node' | 'rbac';
  grants: WhoCanGrant[];
  /** Verbs the subject was allowed, in question order. */
  verbs: string[];
  /** Allowed in every namespace (a ClusterRoleBinding, system:masters, or a cluster-scoped question). */
  everyNamespace: boolean;
  /** Namespaces where only RoleBindings allow it. */
  namespaces: string[];
  /** Names allowed: '*' for every name, otherwise the resourceNames that allowed it. */
  names: string[];
}

const cache = new WeakMap<AuthzEngine, Map<string, AccessEntry[]>>();

export function whoCanAnywhere(engine: AuthzEngine, _knownNamespaces: readonly string[], q: AccessQuestion): AccessEntry[] {
  let perEngine = cache.get(engine);
  if (!perEngine) cache.set(engine, (perEngine = new Map()));
  const key = JSON.stringify(q);
  const hit = perEngine.get(key);
  if (hit) return hit;
  const result = compute(engine, q);
  perEngine.set(key, result);
  return result;
}

function compute(engine: AuthzEngine, q: AccessQuestion): AccessEntry[] {
  const subresource = q.subresource ?? '';
  let namespaces: string[] = [''];
  if (q.scope === 'namespaced') {
    // A namespace only adds answers through its RoleBindings, so only namespaces with a RoleBinding
    // to a role that could match are asked; the probe namespace stands for every other one.
    const set = new Set<string>(q.namespaces ?? roleBindingNamespaces(engine, q));
    set.delete('');
    namespaces = [PROBE_NAMESPACE, ...[...set].sort()];
  }
  const names = q.names === 'any' ? [PROBE_NAME, ...listedNames(engine, q)] : q.names === 'unscoped' ? [PROBE_NAME] : [...q.names];

  const out = new Map<string, AccessEntry & { grantKeys: Set<string> }>();
  for (const namespace of namespaces) {
    for (const verb of q.verbs) {
      for (const name of names) {
        const attrs: ResourceAttributes = { verb, group: q.group, resource: q.resource, subresource, namespace, name };
        for (const e of engine.whoCan({ resource: attrs })) {
          const subject = canonicalSubject(e.subject);
          const key = `${subject.kind}/${subject.namespace ?? ''}/${subject.name}`;
          let entry = out.get(key);
          if (!entry) {
            entry = { subject, via: e.via, grants: [], verbs: [], everyNamespace: false, namespaces: [], names: [], grantKeys: new Set() };
            out.set(key, entry);
          }
          if (!entry.verbs.includes(verb)) entry.verbs.push(verb);
          const nameLabel = name === PROBE_NAME ? '*' : name;
          if (!entry.names.includes(nameLabel)) entry.names.push(nameLabel);
          const clusterWide = q.scope === 'cluster' || namespace === PROBE_NAMESPACE || e.via === 'privileged-group' || e.grants.some((g) => g.binding.kind === 'ClusterRoleBinding');
          if (clusterWide) entry.everyNamespace = true;
          else if (!entry.namespaces.includes(namespace)) entry.namespaces.push(namespace);
          for (const g of e.grants) {
            const gk = `${g.binding.kind}/${g.binding.namespace ?? ''}/${g.binding.name}/${g.role.kind}/${g.role.namespace ?? ''}/${g.role.name}/${g.ruleIndex}`;
            if (entry.grantKeys.has(gk)) continue;
            entry.grantKeys.add(gk);
            entry.grants.push(g);
          }
        }
      }
    }
  }
  return [...out.values()]
    .map(({ grantKeys: _unused, ...entry }) => {
      entry.grants.sort(compareGrants);
      entry.namespaces.sort();
      entry.names.sort();
      if (entry.everyNamespace) entry.namespaces = [];
      return entry;
    })
    .sort((a, b) => compareSubjects(a.subject, b.subject));
}

/** Whether some rule of the role matches the question for some name. */
function roleMayMatch(role: CompiledRole, q: AccessQuestion): boolean {
  const subresource = q.subresource ?? '';
  return role.rules.some(({ rule }) => {
    const open: PolicyRule = { ...rule, resourceNames: undefined };
    return q.verbs.some((verb) => ruleAllowsResource(open, { verb, group: q.group, resource: q.resource, subresource, namespace: '', name: '' }));
  });
}

/** Namespaces of RoleBindings (with subjects) whose role may match the question. */
export function roleBindingNamespaces(engine: AuthzEngine, q: AccessQuestion): string[] {
  const verdict = new Map<string, boolean>();
  const out = new Set<string>();
  for (const b of engine.rbac.bindings) {
    if (b.ref.kind !== 'RoleBinding' || !b.role || b.subjects.length === 0 || out.has(b.ref.namespace ?? '')) continue;
    let ok = verdict.get(b.role.key);
    if (ok === undefined) verdict.set(b.role.key, (ok = roleMayMatch(b.role, q)));
    if (ok) out.add(b.ref.namespace ?? '');
  }
  return [...out].sort();
}

/** resourceNames entries of rules that would match the question if they had no resourceNames. */
function listedNames(engine: AuthzEngine, q: AccessQuestion): string[] {
  const names = new Set<string>();
  const subresource = q.subresource ?? '';
  const roles = [...engine.rbac.clusterRoles.values()];
  for (const inNs of engine.rbac.roles.values()) roles.push(...inNs.values());
  for (const role of roles) {
    for (const { rule } of role.rules) {
      if (!rule.resourceNames || rule.resourceNames.length === 0) continue;
      const open: PolicyRule = { ...rule, resourceNames: undefined };
      const matches = q.verbs.some((verb) =>
        ruleAllowsResource(open, { verb, group: q.group, resource: q.resource, subresource, namespace: '', name: '' }),
      );
      if (matches) for (const n of rule.resourceNames) names.add(n);
    }
  }
  names.delete(PROBE_NAME);
  return [...names].sort();
}

/** Entries whose subject applies to `identity` (itself, or a group it carries). */
export function entriesFor(entries: readonly AccessEntry[], identity: SubjectRef): AccessEntry[] {
  return entries.filter((e) => subjectAppliesTo(e.subject, identity));
}

export function compareGrants(a: WhoCanGrant, b: WhoCanGrant): number {
  return (
    cmp(a.binding.kind, b.binding.kind) ||
    cmp(a.binding.namespace ?? '', b.binding.namespace ?? '') ||
    cmp(a.binding.name, b.binding.name) ||
    cmp(a.role.kind, b.role.kind) ||
    cmp(a.role.namespace ?? '', b.role.namespace ?? '') ||
    cmp(a.role.name, b.role.name) ||
    a.ruleIndex - b.ruleIndex
  );
}

/** The effective rule a grant points at (aggregation already applied). */
export function ruleOf(engine: AuthzEngine, role: { kind: string; name: string; namespace?: string }, ruleIndex: number): PolicyRule | undefined {
  const compiled = role.kind === 'ClusterRole' ? engine.rbac.clusterRoles.get(role.name) : engine.rbac.roles.get(role.namespace ?? '')?.get(role.name);
  return compiled?.rules[ruleIndex]?.rule;
}

/** A copy of a rule with only the fields Evidence carries, absent fields left out. */
export function plainRule(rule: PolicyRule): Extract<Evidence, { type: 'grant' }>['rule'] {
  const out: Extract<Evidence, { type: 'grant' }>['rule'] = { verbs: [...(rule.verbs ?? [])] };
  if (rule.apiGroups) out.apiGroups = [...rule.apiGroups];
  if (rule.resources) out.resources = [...rule.resources];
  if (rule.resourceNames && rule.resourceNames.length > 0) out.resourceNames = [...rule.resourceNames];
  if (rule.nonResourceURLs) out.nonResourceURLs = [...rule.nonResourceURLs];
  return out;
}

export function bindingRef(g: { kind: string; name: string; namespace?: string }): ObjectRef {
  return g.namespace !== undefined && g.namespace !== '' ? { kind: g.kind, namespace: g.namespace, name: g.name } : { kind: g.kind, name: g.name };
}

export function grantEvidence(engine: AuthzEngine, g: WhoCanGrant): Evidence {
  const rule = ruleOf(engine, g.role, g.ruleIndex);
  const ev: Evidence = {
    type: 'grant',
    binding: bindingRef(g.binding),
    role: bindingRef(g.role),
    ruleIndex: g.ruleIndex,
    rule: plainRule(rule ?? { verbs: [] }),
  };
  if (g.aggregatedFrom) ev.aggregatedFrom = g.aggregatedFrom;
  return ev;
}

/** Grants of several entries, deduplicated and sorted. */
export function mergeGrants(entries: readonly AccessEntry[]): WhoCanGrant[] {
  const seen = new Map<string, WhoCanGrant>();
  for (const e of entries) {
    for (const g of e.grants) {
      seen.set(`${g.binding.kind}/${g.binding.namespace ?? ''}/${g.binding.name}/${g.role.kind}/${g.role.namespace ?? ''}/${g.role.name}/${g.ruleIndex}`, g);
    }
  }
  return [...seen.values()].sort(compareGrants);
}
