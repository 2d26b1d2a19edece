import type { AuthzEngine } from '@/lib/authz/authz-engine';
import { simulateWrite } from '@/lib/authz/simulate-write';
import type { UserInfo } from '@/lib/authz/types';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { findKind } from '@/lib/k8s/kinds';
import type { FixProbe } from '@/lib/analysis/types';
import { reviewOf, res } from './holder';

// Requests a fix decides by admission rather than by authorization alone (a ResourceSlice for another
// node refused by a pinning policy the fix adds, an adminAccess claim refused once the namespace label
// is gone): a write of one object, decided on the cluster after the fix by the whole chain a write goes
// through (lib/authz/simulate-write: authorization, the API server's checks on the object, the
// ValidatingAdmissionPolicies).

type Operation = NonNullable<FixProbe['write']>['operation'];

/** A write of `object` by `user` that the fix must refuse (`denied`) or keep (`allowed`). */
export function writeProbe(expect: FixProbe['expect'], text: string, user: UserInfo, operation: Operation, object: Record<string, unknown>): FixProbe {
  const kind = findKind(String(object.kind ?? ''));
  if (!kind) throw new Error(`writeProbe: unknown kind ${String(object.kind)}`);
  const meta = (object.metadata ?? {}) as { name?: string; namespace?: string };
  const attrs = res(operation === 'CREATE' ? 'create' : 'delete', kind.group, kind.resource, {
    namespace: kind.namespaced ? (meta.namespace ?? '') : '',
    name: operation === 'CREATE' ? '' : (meta.name ?? ''),
  });
  return { expect, text, review: reviewOf(user, attrs), write: { operation, object } };
}

/** The lists of the cluster state that a fix's non-RBAC changes replace (namespaces relabelled, policies added...). */
export type StateLists = Partial<Pick<ClusterState, 'namespaces' | 'validatingAdmissionPolicies' | 'validatingAdmissionPolicyBindings' | 'resourceQuotas'>>;

/** The engine answering with `lists` in place of its state's (its authorization unchanged). */
export function withStateLists(engine: AuthzEngine, lists: StateLists | undefined): AuthzEngine {
  if (!lists || Object.keys(lists).length === 0) return engine;
  return Object.create(engine, { state: { value: { ...engine.state, ...lists } } }) as AuthzEngine;
}

/** Whether the write is accepted on `engine`'s cluster, or why it cannot be decided. */
export function decideWrite(engine: AuthzEngine, probe: FixProbe): { allowed: boolean } | { unknown: string } {
  const write = probe.write!;
  const review = probe.review;
  const user: UserInfo = { name: review.user, groups: [...review.groups], extra: review.extra };
  const r = simulateWrite(engine, {
    user,
    attributes: { ...review.resourceAttributes },
    ...(write.operation === 'CREATE' ? { object: write.object } : { oldObject: write.object }),
  });
  if (!r.allowed && !r.refusedBy && r.undecidedBy) return { unknown: `${r.undecidedBy} could not be decided` };
  return { allowed: r.allowed };
}
