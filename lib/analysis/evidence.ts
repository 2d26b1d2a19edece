import type { AuthzEngine } from '@/lib/authz/authz-engine';
import type { CompiledRole } from '@/lib/authz/rbac-index';
import type { Decision, RbacGrant } from '@/lib/authz/types';
import type { WhoCanGrant } from '@/lib/authz/who-can';
import { compareStrings, describeRef, toObjectRef, type RefLike } from '@/lib/k8s/refs';
import type { PolicyRule } from '@/lib/k8s/types';
import type { Evidence } from './types';

// Why a finding or a writer exists: grants (binding → role → rule), decisions, object fields. The one
// place evidence is built, ordered and described, so a rule reads the same in a finding and in a
// node writer.

/**
 * A name no real node, user, namespace or object can have (it holds a NUL): only grants without
 * resourceNames match it, so asking with it tells "every name" from "some names".
 */
export const PROBE_NAME = 'dra-posture.probe\u0000name';

/** A namespace no object lives in: only ClusterRoleBindings apply there. */
export const PROBE_NAMESPACE = 'dra-posture.probe\u0000namespace';

export type EvidenceRule = Extract<Evidence, { type: 'grant' }>['rule'];

/** A copy of a rule with only the fields evidence carries; absent and empty lists are left out. */
export function plainRule(rule: PolicyRule): EvidenceRule {
  const out: EvidenceRule = { verbs: [...(rule.verbs ?? [])] };
  if (rule.apiGroups) out.apiGroups = [...rule.apiGroups];
  if (rule.resources) out.resources = [...rule.resources];
  if (rule.resourceNames && rule.resourceNames.length > 0) out.resourceNames = [...rule.resourceNames];
  if (rule.nonResourceURLs && rule.nonResourceURLs.length > 0) out.nonResourceURLs = [...rule.nonResourceURLs];
  return out;
}

/** "verbs [get, list], apiGroups [""], resources [nodes]": a rule in words (empty name lists left out). */
export function describeRule(rule: PolicyRule | EvidenceRule): string {
  const parts = [`verbs [${(rule.verbs ?? []).join(', ')}]`];
  if (rule.apiGroups) parts.push(`apiGroups [${rule.apiGroups.map((g) => (g === '' ? '""' : g)).join(', ')}]`);
  if (rule.resources) parts.push(`resources [${rule.resources.join(', ')}]`);
  if (rule.resourceNames && rule.resourceNames.length > 0) parts.push(`resourceNames [${rule.resourceNames.join(', ')}]`);
  if (rule.nonResourceURLs) parts.push(`nonResourceURLs [${rule.nonResourceURLs.join(', ')}]`);
  return parts.join(', ');
}

/** The effective rule a grant points at (aggregation already applied). */
export function ruleOf(engine: AuthzEngine, role: RefLike, ruleIndex: number): PolicyRule | undefined {
  const compiled = role.kind === 'ClusterRole' ? engine.rbac.clusterRoles.get(role.name) : engine.rbac.roles.get(role.namespace ?? '')?.get(role.name);
  return compiled?.rules[ruleIndex]?.rule;
}

function grantStep(binding: RefLike, role: RefLike, ruleIndex: number, rule: PolicyRule, aggregatedFrom: string | undefined): Evidence {
  const ev: Evidence = { type: 'grant', binding: toObjectRef(binding), role: toObjectRef(role), ruleIndex, rule: plainRule(rule) };
  if (aggregatedFrom) ev.aggregatedFrom = aggregatedFrom;
  return ev;
}

/** binding → role → rule for a rule of a compiled role (aggregation already applied). */
export function roleRuleEvidence(role: CompiledRole, binding: RefLike, ruleIndex: number): Evidence {
  return grantStep(binding, role.ref, ruleIndex, role.rules[ruleIndex].rule, role.rules[ruleIndex].from);
}

/** binding → role → rule of a who-can grant (the rule is looked up in the engine's index). */
export function grantEvidence(engine: AuthzEngine, grant: WhoCanGrant): Evidence {
  return grantStep(grant.binding, grant.role, grant.ruleIndex, ruleOf(engine, grant.role, grant.ruleIndex) ?? { verbs: [] }, grant.aggregatedFrom);
}

/** binding → role → rule of the RBAC authorizer's deciding grant. */
export function rbacGrantEvidence(grant: RbacGrant): Evidence {
  return grantStep(grant.binding, grant.role, grant.ruleIndex, grant.rule, grant.aggregatedFrom);
}

/** Why a decision allowed: its RBAC grant, or a note for the Node authorizer and system:masters. */
export function decisionEvidence(decision: Decision): Evidence[] {
  if (!decision.allowed) return [];
  if (decision.grant) return [rbacGrantEvidence(decision.grant)];
  return [{ type: 'note', text: decision.reason }];
}

const EVIDENCE_ORDER: Record<Evidence['type'], number> = { grant: 0, field: 1, note: 2 };

function compareEvidence(a: Evidence, b: Evidence): number {
  if (a.type !== b.type) return EVIDENCE_ORDER[a.type] - EVIDENCE_ORDER[b.type];
  if (a.type === 'grant' && b.type === 'grant') {
    return (
      compareStrings(a.binding.kind, b.binding.kind) ||
      compareStrings(a.binding.namespace ?? '', b.binding.namespace ?? '') ||
      compareStrings(a.binding.name, b.binding.name) ||
      compareStrings(a.role.kind, b.role.kind) ||
      compareStrings(a.role.name, b.role.name) ||
      a.ruleIndex - b.ruleIndex
    );
  }
  return 0;
}

/** Evidence list without duplicates, in a stable order (grants by binding, role, rule; then fields; then notes). */
export function normaliseEvidence(list: Evidence[]): Evidence[] {
  const seen = new Map<string, Evidence>();
  for (const e of list) {
    const key = JSON.stringify(e);
    if (!seen.has(key)) seen.set(key, e);
  }
  return [...seen.entries()].sort((a, b) => compareEvidence(a[1], b[1]) || compareStrings(a[0], b[0])).map(([, e]) => e);
}

/** One evidence step in words, as the Markdown, HTML and CSV outputs show it. */
export function describeEvidence(ev: Evidence): string {
  if (ev.type === 'grant') {
    const from = ev.aggregatedFrom ? ` (aggregated from ClusterRole ${ev.aggregatedFrom})` : '';
    return `${describeRef(ev.binding)} → ${describeRef(ev.role)} rule #${ev.ruleIndex}: ${describeRule(ev.rule)}${from}`;
  }
  if (ev.type === 'field') return `${describeRef(ev.object)} ${ev.path} = ${JSON.stringify(ev.value) ?? 'undefined'}`;
  return ev.text;
}

/** "RoleBinding ns/b → Role ns/r rule #0 (verbs [...], ...)" for each grant, joined with "; ". */
export function describeGrants(engine: AuthzEngine, grants: readonly WhoCanGrant[]): string {
  return grants
    .map((g) => {
      const rule = ruleOf(engine, g.role, g.ruleIndex);
      const from = g.aggregatedFrom ? `, aggregated from ClusterRole ${g.aggregatedFrom}` : '';
      return `${describeRef(g.binding)} → ${describeRef(g.role)} rule #${g.ruleIndex} (${rule ? describeRule(rule) : 'missing'}${from})`;
    })
    .join('; ');
}
