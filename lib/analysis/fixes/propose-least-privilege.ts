import { describeRef, describeSubject, refKey } from '@/lib/k8s/refs';
import type { ClusterRole, ClusterRoleBinding, RoleBinding, SubjectRef } from '@/lib/k8s/types';
import { nodeLocalDriver } from '@/lib/personas/node-local-driver';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { usernameOf } from '@/lib/analysis/context/identities';
import { pinningFor } from '@/lib/analysis/context/slice-pinning';
import type { Finding, FixChange, FixProbe } from '@/lib/analysis/types';
import { list, slug } from '@/lib/analysis/checks/check-helpers';
import { res, type Holder } from './holder';
import { bindingObject, holdersOfIssue, isStockBinding, refusedProbes, sameSubject } from './propose-remove-access';
import { RbacEdits } from './role-edits';
import { servedDrivers } from './served-drivers';
import { pinSlices, unpinned } from './propose-slice-pinning';
import type { Proposed } from './verify-fix';

// DRA001: a DRA kubelet plugin's service account holds cluster-admin-equivalent access. The fix takes
// the account out of the bindings that give it (not the roles: cluster-admin's other holders keep it),
// binds it to a new ClusterRole with the node-local-driver persona's rules for the drivers its pods
// serve, and, when no policy pins its slice writes to its node yet, adds the pinning policy the
// persona comes with (otherwise the new role would be reported by DRA012). Checked: admin-level
// requests are refused, the persona's requests still allowed, slices of other nodes refused.
// Controllers and other components: what they need is not in the cluster state (build-role asks).

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** Requests only an admin-equivalent makes, to be refused after the fix (those allowed today). */
const ADMIN_REQUESTS = [
  res('*', '*', '*'),
  res('get', '', 'secrets', { namespace: 'kube-system', name: 'any-secret' }),
  res('create', RBAC_GROUP, 'clusterrolebindings'),
  res('delete', '', 'nodes', { name: 'any-node' }),
];

export function proposeLeastPrivilege(ctx: AnalysisContext, findings: readonly Finding[]): Proposed {
  const holders = holdersOfIssue(ctx, findings);
  const edits = new RbacEdits();
  const kept = new Map<string, { object: RoleBinding | ClusterRoleBinding; subjects: NonNullable<RoleBinding['subjects']>; removed: SubjectRef[] }>();
  const otherChanges: FixChange[] = [];
  const probes: FixProbe[] = [];
  const stateLists = {
    validatingAdmissionPolicies: [...ctx.state.validatingAdmissionPolicies],
    validatingAdmissionPolicyBindings: [...ctx.state.validatingAdmissionPolicyBindings],
  };
  const pinnedHolders: Holder[] = [];
  for (const h of holders) {
    const sa = h.subject;
    const who = describeSubject(sa);
    if (sa.kind !== 'ServiceAccount') return { none: `${who} is not a service account` };
    if (ctx.componentReasons(sa).driverWorkloads.length === 0 || h.node === undefined)
      return {
        none: `${who} runs no kubelet-plugin pods, and what another DRA component needs instead of admin access is not in the cluster state: build its role with dra-posture build-role, bind it, then remove the admin grant`,
      };
    const drivers = servedDrivers(ctx, sa);
    if (drivers.length === 0) return { none: `the driver ${who} serves is not known from its pods, so its resourceclaims/driver grant cannot be scoped` };
    for (const f of findings) {
      if (!f.subjects.some((s) => refKey(s) === refKey(sa))) continue;
      for (const e of f.evidence) {
        if (e.type !== 'grant') continue;
        const object = bindingObject(ctx, e.binding);
        if (!object) return { none: `${describeRef(e.binding)} is not in the snapshot` };
        if (isStockBinding(object))
          return { none: `${describeRef(e.binding)} is a bootstrap binding the API server reconciles at every start (a removed subject comes back)` };
        if (!(object.subjects ?? []).some((s) => sameSubject(s, sa)))
          return {
            none: `${who} holds it through a group of ${describeRef(e.binding)}, which other identities share: taking the group out would take their access too`,
          };
        const key = refKey(e.binding);
        const entry = kept.get(key) ?? { object, subjects: [...(object.subjects ?? [])], removed: [] };
        entry.subjects = entry.subjects.filter((s) => !sameSubject(s, sa));
        entry.removed.push(sa);
        kept.set(key, entry);
      }
    }
    const name = `${slug(sa)}-dra-kubelet-plugin`;
    if (ctx.state.clusterRoles.some((r) => r.metadata.name === name) || ctx.state.clusterRoleBindings.some((b) => b.metadata.name === name))
      return { none: `a ClusterRole or ClusterRoleBinding named ${name} already exists` };
    const identity = { kind: 'ServiceAccount' as const, namespace: sa.namespace ?? '', name: sa.name, create: false };
    const role: ClusterRole = {
      apiVersion: `${RBAC_GROUP}/v1`,
      kind: 'ClusterRole',
      metadata: { name },
      rules: nodeLocalDriver.rules({ persona: 'node-local-driver', identity, drivers }).cluster.map(({ rule }) => rule),
    };
    const binding: ClusterRoleBinding = {
      apiVersion: `${RBAC_GROUP}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name },
      subjects: [{ kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace ?? '' }],
    };
    edits.create(role, `what a node-local kubelet plugin of ${list(drivers)} needs (the node-local-driver persona)`);
    edits.create(binding, `binds it to ${who}`);
    if (pinningFor(ctx.slicePinning, usernameOf(sa)).pinnedBy.length === 0) {
      const pinned = pinSlices(ctx, { ...h, node: h.node });
      otherChanges.push(...pinned.changes);
      probes.push(...pinned.probes);
      stateLists.validatingAdmissionPolicies.push(pinned.policy);
      stateLists.validatingAdmissionPolicyBindings.push(pinned.binding);
      pinnedHolders.push(h);
    }
  }
  const emptied = [...kept.values()]
    .filter((k) => k.subjects.length === 0)
    .map((k) => describeRef({ kind: k.object.kind, name: k.object.metadata.name, namespace: k.object.metadata.namespace }));
  for (const { object, subjects, removed } of kept.values())
    edits.setSubjects(
      object,
      subjects,
      `remove ${list([...new Set(removed.map(describeSubject))])}: it grants ${describeRef({ kind: 'ClusterRole', name: object.roleRef.name })}, admin-equivalent`,
    );
  return {
    holders,
    edits,
    otherChanges,
    probes: [...refusedProbes(ctx, holders, () => ADMIN_REQUESTS), ...probes],
    stateLists,
    after: () => unpinned(ctx, pinnedHolders, stateLists),
    checks: [
      'the new role and the bindings are valid for the API server',
      'no holder can then make the requests only an admin-equivalent makes (* on *, Secrets in kube-system, new ClusterRoleBindings, deleting Nodes)',
      ...(pinnedHolders.length > 0 ? ['the added policy refuses its ResourceSlices of other nodes and accepts those of its own node'] : []),
    ],
    summary:
      `Take ${list(holders.map((h) => describeSubject(h.subject)))} out of ${list([...kept.values()].map((k) => describeRef({ kind: k.object.kind, name: k.object.metadata.name, namespace: k.object.metadata.namespace })))} ` +
      `and bind ${holders.length === 1 ? 'it' : 'each'} to a kubelet-plugin ClusterRole for the drivers its pods serve${pinnedHolders.length > 0 ? ', with a policy pinning its ResourceSlice writes to its own node' : ''}`,
    ...(emptied.length > 0
      ? { leftover: `${list(emptied)} then ${emptied.length === 1 ? 'has' : 'have'} no subjects: delete ${emptied.length === 1 ? 'it' : 'them'}` }
      : {}),
  };
}
