import type { ResourceAttributes } from '@/lib/authz/types';
import { describeRef, describeSubject, refKey } from '@/lib/k8s/refs';
import type { ClusterRoleBinding, RoleBinding, SubjectRef } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Evidence, Finding } from '@/lib/analysis/types';
import { list } from '@/lib/analysis/checks/check-helpers';
import { res } from './holder';
import { bindingObject, holdersOfIssue, isStockBinding, refusedProbes, sameSubject } from './propose-remove-access';
import { RbacEdits } from './role-edits';
import type { Proposed } from './verify-fix';

// NODE006: a binding that gives node identities (Group system:nodes, User system:node:<name>) rules
// beyond what the Node authorizer gives every kubelet. The node subjects come out of the binding; the
// role and the binding's other subjects stay (the role is often shared, and the Node authorizer already
// gives each kubelet what its own pods need). A bootstrap binding is reconciled by the API server: no
// safe automatic fix. Checked by asking, for the group's members, one request of each reported rule,
// which RBAC allows today and must refuse after.

type Grant = Extract<Evidence, { type: 'grant' }>;

/** One request per verb that the rule grants and the Node authorizer does not (a name when the rule lists names). */
function requestsOf(e: Grant): ResourceAttributes[] {
  const group = (e.rule.apiGroups ?? []).find((g) => g !== '*') ?? '';
  const path = (e.rule.resources ?? []).find((r) => r !== '*' && !r.startsWith('*/'));
  if (path === undefined) return [];
  const [resource, subresource = ''] = path.split('/');
  const name = e.rule.resourceNames?.[0] ?? 'dra-posture-probe';
  const namespace = e.binding.kind === 'RoleBinding' ? (e.binding.namespace ?? '') : 'kube-system';
  const verbs = (e.rule.verbs ?? []).filter((v) => v !== '*');
  return (verbs.length > 0 ? verbs : ['get']).map((verb) => res(verb, group, resource, { subresource, namespace, name }));
}

export function proposeNodeIdentityGrants(ctx: AnalysisContext, findings: readonly Finding[]): Proposed {
  const edits = new RbacEdits();
  const grants: Grant[] = [];
  const removed = new Map<string, { object: RoleBinding | ClusterRoleBinding; subjects: SubjectRef[] }>();
  for (const f of findings) {
    for (const e of f.evidence) {
      if (e.type !== 'grant') continue;
      const object = bindingObject(ctx, e.binding);
      if (!object) return { none: `${describeRef(e.binding)} is not in the snapshot` };
      if (isStockBinding(object))
        return { none: `${describeRef(e.binding)} is a bootstrap binding the API server reconciles at every start (a removed subject comes back)` };
      grants.push(e);
      const entry = removed.get(refKey(e.binding)) ?? { object, subjects: [] };
      for (const s of f.subjects) if (!entry.subjects.some((x) => refKey(x) === refKey(s))) entry.subjects.push(s);
      removed.set(refKey(e.binding), entry);
    }
  }
  for (const { object, subjects } of removed.values())
    edits.setSubjects(
      object,
      (object.subjects ?? []).filter((x) => !subjects.some((s) => sameSubject(x, s))),
      `remove ${list(subjects.map(describeSubject))}: the Node authorizer already gives each kubelet what its own pods need`,
    );
  if (edits.empty) return { none: 'the grants behind it are not bindings of the snapshot' };
  const holders = holdersOfIssue(ctx, findings);
  const bindings = [...removed.values()].map((r) => describeRef({ kind: r.object.kind, name: r.object.metadata.name, namespace: r.object.metadata.namespace }));
  const nodes = [...new Set([...removed.values()].flatMap((r) => r.subjects.map(describeSubject)))];
  return {
    holders,
    edits,
    probes: refusedProbes(ctx, holders, () => grants.flatMap(requestsOf)),
    checks: ['the bindings are valid for the API server', `${list(nodes)} no longer hold${nodes.length === 1 ? 's' : ''} the reported rules through RBAC`],
    summary: `Remove ${list(nodes)} from ${list(bindings)}`,
  };
}
