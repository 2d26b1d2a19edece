import type { ResourceAttributes, UserInfo } from '@/lib/authz/types';
import { serviceAccountUser } from '@/lib/authz/user-info';
import type { SubjectRef } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { FixProbe, ReviewSpec } from '@/lib/analysis/types';
import { describeSubject } from '@/lib/k8s/refs';

// The identity a fix is checked for, as the API server sees its requests: a service account with the
// token of one of its pods (bound to that pod's node), a user, or a member of a group.

export interface Holder {
  subject: SubjectRef;
  user: UserInfo;
  /** The node its token is bound to (the first of its pods' nodes), when it runs pods. */
  node?: string;
  /** Every node its pods run on. */
  nodes: readonly string[];
}

/** A member that carries the group and nothing else (the attack paths' stand-in for "any member"). */
export const GROUP_MEMBER = 'dra-posture-fix-check-member';

export function holderOf(ctx: AnalysisContext, subject: SubjectRef): Holder {
  if (subject.kind === 'ServiceAccount') {
    const ns = subject.namespace ?? '';
    const nodes = ctx.podIndex.nodesOfServiceAccount(ns, subject.name);
    const node = nodes[0];
    return { subject, user: serviceAccountUser(ns, subject.name, node), ...(node !== undefined ? { node } : {}), nodes };
  }
  if (subject.kind === 'User') return { subject, user: { name: subject.name, groups: ['system:authenticated'] }, nodes: [] };
  return { subject, user: { name: GROUP_MEMBER, groups: [subject.name, 'system:authenticated'] }, nodes: [] };
}

/** A node other than the holder's own, for requests that must be refused (a made-up name when the cluster has one node). */
export function otherNodeOf(ctx: AnalysisContext, holder: Holder): string {
  return ctx.engine.nodeNames.find((n) => !holder.nodes.includes(n)) ?? 'dra-posture-other-node';
}

export function reviewOf(user: UserInfo, attrs: ResourceAttributes): ReviewSpec {
  const { verb, group, resource, subresource, namespace, name } = attrs;
  return {
    user: user.name,
    groups: [...user.groups],
    extra: { ...(user.extra ?? {}) },
    resourceAttributes: { verb, group, resource, subresource, namespace, name },
  };
}

/** The identity a review asks about, sharing the review's lists (to be read, not changed: a fix checks ~46,000 reviews). */
export function userOf(review: ReviewSpec): UserInfo {
  return { name: review.user, groups: review.groups, extra: review.extra };
}

export function res(verb: string, group: string, resource: string, extra: Partial<ResourceAttributes> = {}): ResourceAttributes {
  return { verb, group, resource, subresource: '', namespace: '', name: '', ...extra };
}

/**
 * What a driver-scoped fix keeps and removes for one holder: `kept` on resourceclaims/driver for each
 * of its own drivers stays allowed, `removed` for another driver is refused.
 */
export function ownDriverProbes(h: Holder, kept: string, removed: string, drivers: readonly string[], other: string, namespace: string): FixProbe[] {
  const who = describeSubject(h.subject);
  const driverWrite = (verb: string, name: string) =>
    reviewOf(h.user, res(verb, 'resource.k8s.io', 'resourceclaims', { subresource: 'driver', namespace, name }));
  return [
    ...drivers.map((d) => ({
      expect: 'allowed' as const,
      text: `${who}: ${kept} resourceclaims/driver for its own driver ${d}`,
      review: driverWrite(kept, d),
    })),
    { expect: 'denied' as const, text: `${who}: ${removed} resourceclaims/driver for another driver (${other})`, review: driverWrite(removed, other) },
  ];
}
