import type { ResourceAttributes } from '@/lib/authz/types';
import { describeSubject } from '@/lib/k8s/refs';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { AccessQuestion } from '@/lib/analysis/context/access';
import { capabilitiesOf, type Capability, type CapabilityId } from '@/lib/analysis/capabilities';
import { holdingOf } from '@/lib/analysis/capability-holders';
import type { Finding, FixProbe } from '@/lib/analysis/types';
import type { PolicyRule, Role, RoleBinding } from '@/lib/k8s/types';
import { list, rbacSubject, slug } from '@/lib/analysis/checks/check-helpers';
import { isTenantIdentity } from '@/lib/analysis/checks/dra-shared';
import { res, reviewOf, type Holder } from './holder';
import { holdersOfIssue, proposeRemoveAccess } from './propose-remove-access';
import type { RbacEdits } from './role-edits';
import type { AccessToRemove } from './subtract-access';
import type { Proposed } from './verify-fix';

// DRA008: a DRA component's escalation-grade grants. The capabilities its holders hold (as the check
// asks them) come out of the granting rules, each capability's questions as the access removed.
// Two kinds are not removed, and are left to a person: creating pods or workload controllers where
// privileged pods are admitted, and minting tokens of other namespaces' accounts. A driver's controller often creates its
// own workloads and tokens by design (the NVIDIA controller creates the compute-domain DaemonSets), and
// the grant that reaches other namespaces is the same one that serves its own: the fix is a Pod
// Security level on the namespace or a RoleBinding in its own namespace, which a person chooses.

const RBAC_API = 'rbac.authorization.k8s.io/v1';
const BY_DESIGN: ReadonlySet<CapabilityId> = new Set(['write-pods', 'write-workload-controllers', 'mint-serviceaccount-tokens']);

function heldBy(ctx: AnalysisContext, h: Holder): Capability[] {
  return capabilitiesOf('DRA008').filter(
    // A tenant's account writing DeviceClasses is DRA003's, as the check decides.
    (cap) => !(cap.id === 'write-deviceclasses' && isTenantIdentity(ctx, h.subject)) && holdingOf(ctx, cap, h.subject) !== undefined,
  );
}

const removalOf = (q: AccessQuestion): AccessToRemove => ({
  group: q.group,
  resources: [q.subresource ? `${q.resource}/${q.subresource}` : q.resource],
  verbs: q.verbs,
});

/** The requests the question asks about (each verb), in the holder's own namespace where it is namespaced. */
function requestsOf(q: AccessQuestion, h: Holder): ResourceAttributes[] {
  const name = Array.isArray(q.names) ? q.names[0] : q.scope === 'cluster' ? '' : 'any';
  const namespace = q.scope === 'namespaced' ? (h.subject.namespace ?? 'default') : '';
  return q.verbs.map((verb) => res(verb, q.group, q.resource, { subresource: q.subresource ?? '', namespace, name }));
}

export function proposeEscalationRemoval(ctx: AnalysisContext, findings: readonly Finding[]): Proposed {
  const holders = holdersOfIssue(ctx, findings);
  const held = new Map<CapabilityId, Capability>();
  for (const h of holders) for (const cap of heldBy(ctx, h)) held.set(cap.id, cap);
  const caps = [...held.values()].filter((c) => !BY_DESIGN.has(c.id));
  const byDesign = [...held.values()].filter((c) => BY_DESIGN.has(c.id));
  const leftover =
    byDesign.length === 0
      ? undefined
      : `${list(holders.map((h) => describeSubject(h.subject)))} can${caps.length > 0 ? ' also' : ''} ${list(byDesign.map((c) => c.label))}, which a driver's component may use by design (its own workloads, its own tokens): ` +
        `enforce Pod Security (pod-security.kubernetes.io/enforce=baseline) on the namespaces it writes, or grant it in its own namespace with a RoleBinding`;
  if (caps.length === 0) return { none: leftover ?? 'its holders hold none of the escalation-grade capabilities any more' };
  const removal = proposeRemoveAccess(ctx, findings, {
    remove: caps.flatMap((c) => c.questions.map(removalOf)),
    what: `the access to ${list(caps.map((c) => c.label))}`,
    capabilities: caps,
    refused: (h) => caps.flatMap((c) => c.questions.flatMap((q) => requestsOf(q, h))),
  });
  if ('none' in removal) return removal;
  const probes: FixProbe[] = [];
  const kept = keepInOwnNamespace(ctx, holders, caps, removal.edits!, probes);
  return {
    ...removal,
    probes: [...removal.probes, ...probes],
    ...(leftover ? { leftover } : {}),
    ...(kept.length > 0
      ? {
          checks: [
            ...removal.checks,
            `${list(kept)} keep${kept.length === 1 ? 's' : ''} ${ownText(caps)} in ${kept.length === 1 ? 'its' : 'their'} own namespace`,
          ],
          summary: `${removal.summary}, and keep ${ownText(caps)} in each service account's own namespace (a Role and RoleBinding)`,
        }
      : {}),
  };
}

/**
 * What a cluster-wide capability (Secret reads, ConfigMap writes in every namespace) gave a service
 * account in its own namespace, kept there by a Role and RoleBinding: a driver reads its own Secrets
 * and writes its own ConfigMaps; only the reach into every other namespace is escalation.
 */
const clusterWide = (caps: readonly Capability[]) => caps.filter((c) => c.scope === 'cluster' && c.questions.every((q) => q.names === 'unscoped'));
const ownText = (caps: readonly Capability[]) => list(clusterWide(caps).map((c) => c.label.replace(/ (cluster-wide|in every namespace)$/, '')));

function keepInOwnNamespace(ctx: AnalysisContext, holders: readonly Holder[], caps: readonly Capability[], edits: RbacEdits, probes: FixProbe[]): string[] {
  const wide = clusterWide(caps);
  const out: string[] = [];
  for (const h of holders) {
    const ns = h.subject.namespace;
    if (h.subject.kind !== 'ServiceAccount' || !ns || wide.length === 0) continue;
    const rules: PolicyRule[] = [];
    for (const cap of wide) {
      const verbs = holdingOf(ctx, cap, h.subject)?.verbs ?? [];
      for (const q of cap.questions) {
        const held = q.verbs.filter((v) => verbs.includes(v));
        if (held.length === 0) continue;
        rules.push({ apiGroups: [q.group], resources: [q.resource], verbs: held });
        for (const verb of held)
          probes.push({
            expect: 'allowed',
            text: `${describeSubject(h.subject)}: ${verb} ${q.resource} in its own namespace ${ns}`,
            review: reviewOf(h.user, res(verb, q.group, q.resource, { namespace: ns, name: verb === 'create' || verb === 'list' ? '' : 'any' })),
          });
      }
    }
    if (rules.length === 0) continue;
    const name = `${slug(h.subject)}-own-namespace`;
    const role: Role = { apiVersion: RBAC_API, kind: 'Role', metadata: { name, namespace: ns }, rules };
    const binding: RoleBinding = {
      apiVersion: RBAC_API,
      kind: 'RoleBinding',
      metadata: { name, namespace: ns },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [rbacSubject(h.subject) as never],
    };
    edits.create(role, `${describeSubject(h.subject)} keeps ${ownText(wide)} in its own namespace ${ns}`);
    edits.create(binding, `binds Role ${ns}/${name} to ${describeSubject(h.subject)}`);
    out.push(describeSubject(h.subject));
  }
  return out;
}
