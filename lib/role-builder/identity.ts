import { serviceAccountUser } from '@/lib/authz/user-info';
import type { UserInfo } from '@/lib/authz/types';
import type { Subject, SubjectRef } from '@/lib/k8s/types';
import type { BuilderIdentity } from './types';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** A lower-case name fragment that is valid in RBAC, ServiceAccount and admission-policy names. */
export function slugName(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9.-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '') || 'x'
  );
}

/** The stem every object name of a bundle starts with. */
export function identityStem(identity: BuilderIdentity): string {
  if (identity.kind === 'ServiceAccount') {
    return slugName(
      identity.name.startsWith(`${identity.namespace}-`) || identity.name === identity.namespace ? identity.name : `${identity.namespace}-${identity.name}`,
    );
  }
  return `${identity.kind === 'User' ? 'user' : 'group'}-${slugName(identity.name)}`;
}

export function bindingSubject(identity: BuilderIdentity): Subject {
  if (identity.kind === 'ServiceAccount') return { kind: 'ServiceAccount', name: identity.name, namespace: identity.namespace };
  return { kind: identity.kind, apiGroup: RBAC_GROUP, name: identity.name };
}

export function subjectRef(identity: BuilderIdentity): SubjectRef {
  return identity.kind === 'ServiceAccount'
    ? { kind: 'ServiceAccount', namespace: identity.namespace, name: identity.name }
    : { kind: identity.kind, name: identity.name };
}

/**
 * The identity as the authenticator would present it. A group is represented by a member that has
 * no other grants; a user is shown with system:authenticated only (its real groups are unknown).
 */
export function identityUser(identity: BuilderIdentity, nodeName?: string): UserInfo {
  if (identity.kind === 'ServiceAccount') return serviceAccountUser(identity.namespace, identity.name, nodeName);
  if (identity.kind === 'User') return { name: identity.name, groups: ['system:authenticated'] };
  return { name: `dra-posture:member-of:${identity.name}`, groups: [identity.name, 'system:authenticated'] };
}

export function describeIdentity(identity: BuilderIdentity): string {
  return identity.kind === 'ServiceAccount' ? `ServiceAccount ${identity.namespace}/${identity.name}` : `${identity.kind} ${identity.name}`;
}
