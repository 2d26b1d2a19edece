import type { AuthzEngine } from '@/lib/authz/authz-engine';
import type { Decision, RbacGrant, UserInfo } from '@/lib/authz/types';
import { parseServiceAccountUsername, serviceAccountUser, serviceAccountUsername } from '@/lib/authz/user-info';
import type { WhoCanGrant } from '@/lib/authz/who-can';
import type { PolicyRule, Pod, SubjectRef } from '@/lib/k8s/types';
import type { Evidence } from '@/lib/report/types';
import { compareStrings } from '@/lib/k8s/compare-strings';

// Shared helpers of the node-writer and claim-writer analyses: subjects ↔ identities, grants →
// evidence, and a deterministic order.

/** A name no real node, user or object can have: only grants without resourceNames match it. */
export const PROBE_NAME = '\u0000dra-posture-probe';

/**
 * The identity to ask the engine about for an RBAC binding subject: a service account with its
 * groups, a user (authenticated), or a synthetic member of a group (so only the group's grants count).
 */
export function userForSubject(subject: SubjectRef): UserInfo {
  if (subject.kind === 'ServiceAccount') return serviceAccountUser(subject.namespace ?? '', subject.name);
  if (subject.kind === 'User') {
    const sa = parseServiceAccountUsername(subject.name);
    if (sa) return serviceAccountUser(sa.namespace, sa.name);
    return { name: subject.name, groups: ['system:authenticated'] };
  }
  return { name: `${PROBE_NAME}:member-of:${subject.name}`, groups: [subject.name] };
}

/** Whether a binding-style subject (User, Group, ServiceAccount) applies to an identity. */
export function subjectAppliesTo(subject: SubjectRef, user: UserInfo): boolean {
  if (subject.kind === 'Group') return user.groups.includes(subject.name);
  if (subject.kind === 'ServiceAccount') return user.name === serviceAccountUsername(subject.namespace ?? '', subject.name);
  return user.name === subject.name;
}

/** The service account a pod runs as (the API server defaults it to "default"). */
export function podServiceAccount(pod: Pod): string {
  return pod.spec?.serviceAccountName || pod.spec?.serviceAccount || 'default';
}

function copyRule(rule: PolicyRule): Extract<Evidence, { type: 'grant' }>['rule'] {
  const out: Extract<Evidence, { type: 'grant' }>['rule'] = { verbs: [...(rule.verbs ?? [])] };
  if (rule.apiGroups) out.apiGroups = [...rule.apiGroups];
  if (rule.resources) out.resources = [...rule.resources];
  if (rule.resourceNames && rule.resourceNames.length > 0) out.resourceNames = [...rule.resourceNames];
  if (rule.nonResourceURLs && rule.nonResourceURLs.length > 0) out.nonResourceURLs = [...rule.nonResourceURLs];
  return out;
}

/** binding → role → rule, for a who-can grant (the rule is looked up in the engine's index). */
export function evidenceFromWhoCanGrant(engine: AuthzEngine, grant: WhoCanGrant): Evidence {
  const role =
    grant.role.kind === 'ClusterRole' ? engine.rbac.clusterRoles.get(grant.role.name) : engine.rbac.roles.get(grant.role.namespace ?? '')?.get(grant.role.name);
  const rule = role?.rules[grant.ruleIndex]?.rule ?? { verbs: [] };
  return grantEvidence(grant.binding, grant.role, grant.ruleIndex, rule, grant.aggregatedFrom);
}

export function evidenceFromRbacGrant(grant: RbacGrant): Evidence {
  return grantEvidence(grant.binding, grant.role, grant.ruleIndex, grant.rule, grant.aggregatedFrom);
}

function grantEvidence(
  binding: { kind: string; name: string; namespace?: string },
  role: { kind: string; name: string; namespace?: string },
  ruleIndex: number,
  rule: PolicyRule,
  aggregatedFrom: string | undefined,
): Evidence {
  const ev: Evidence = {
    type: 'grant',
    binding: objectRef(binding.kind, binding.name, binding.namespace),
    role: objectRef(role.kind, role.name, role.namespace),
    ruleIndex,
    rule: copyRule(rule),
  };
  if (aggregatedFrom) ev.aggregatedFrom = aggregatedFrom;
  return ev;
}

function objectRef(kind: string, name: string, namespace: string | undefined) {
  return namespace ? { kind, name, namespace } : { kind, name };
}

/** Why a decision allowed: its RBAC grant, or a note for the Node authorizer and system:masters. */
export function evidenceFromDecision(decision: Decision): Evidence[] {
  if (!decision.allowed) return [];
  if (decision.grant) return [evidenceFromRbacGrant(decision.grant)];
  return [{ type: 'note', text: decision.reason }];
}

/** Evidence list without duplicates, in a stable order (grants by binding, role, rule; then fields; then notes). */
export function normaliseEvidence(list: Evidence[]): Evidence[] {
  const seen = new Map<string, Evidence>();
  for (const e of list) {
    const key = JSON.stringify(e);
    if (!seen.has(key)) seen.set(key, e);
  }
  return [...seen.entries()].sort((a, b) => compareEvidence(a[1], b[1]) || cmp(a[0], b[0])).map(([, e]) => e);
}

const EVIDENCE_ORDER: Record<Evidence['type'], number> = { grant: 0, field: 1, note: 2 };

function compareEvidence(a: Evidence, b: Evidence): number {
  if (a.type !== b.type) return EVIDENCE_ORDER[a.type] - EVIDENCE_ORDER[b.type];
  if (a.type === 'grant' && b.type === 'grant') {
    return (
      cmp(a.binding.kind, b.binding.kind) ||
      cmp(a.binding.namespace ?? '', b.binding.namespace ?? '') ||
      cmp(a.binding.name, b.binding.name) ||
      cmp(a.role.kind, b.role.kind) ||
      cmp(a.role.name, b.role.name) ||
      a.ruleIndex - b.ruleIndex
    );
  }
  return 0;
}

const KIND_ORDER: Record<SubjectRef['kind'], number> = { Group: 0, User: 1, ServiceAccount: 2 };

export function compareSubjects(a: SubjectRef, b: SubjectRef): number {
  return (KIND_ORDER[a.kind] ?? 9) - (KIND_ORDER[b.kind] ?? 9) || cmp(a.namespace ?? '', b.namespace ?? '') || cmp(a.name, b.name);
}

export function subjectRef(kind: SubjectRef['kind'], name: string, namespace?: string): SubjectRef {
  return namespace !== undefined ? { kind, name, namespace } : { kind, name };
}

export function keyOfSubject(s: SubjectRef): string {
  return `${s.kind}/${s.namespace ?? ''}/${s.name}`;
}

export const cmp = compareStrings;
