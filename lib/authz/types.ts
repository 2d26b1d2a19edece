import type { PolicyRule, SubjectRef } from '@/lib/k8s/types';

export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** One parsed field-selector requirement, as kube-apiserver hands it to authorizers. */
export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

export interface ResourceAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  fieldSelector?: FieldRequirement[];
}

export interface NonResourceAttributes {
  verb: string;
  path: string;
}

export interface AuthzRequest {
  user: UserInfo;
  resource?: ResourceAttributes;
  nonResource?: NonResourceAttributes;
}

/** The kube-apiserver authorization modes the engine decides with (Webhook and ABAC are not visible). */
export type AuthorizerName = 'Node' | 'RBAC' | 'AlwaysAllow' | 'AlwaysDeny';

export interface BindingRef {
  kind: 'ClusterRoleBinding' | 'RoleBinding';
  name: string;
  namespace?: string;
}

export interface RoleRefResolved {
  kind: 'ClusterRole' | 'Role';
  name: string;
  namespace?: string;
}

/** Which binding, role and rule granted a request. */
export interface RbacGrant {
  binding: BindingRef;
  role: RoleRefResolved;
  ruleIndex: number;
  rule: PolicyRule;
  /** For an aggregated ClusterRole: the ClusterRole the rule was aggregated from. */
  aggregatedFrom?: string;
  /** The binding subject that matched the user. */
  subject: SubjectRef;
}

export type DecidedBy = 'privileged-group' | 'node' | 'rbac' | 'always-allow';

export interface Decision {
  allowed: boolean;
  decidedBy?: DecidedBy;
  reason: string;
  grant?: RbacGrant;
}
