import type { NonResourceAttributes, ResourceAttributes } from '@/lib/authz/types';
import type { KubeObject, PolicyRule } from '@/lib/k8s/types';

export const PERSONA_IDS = [
  'scheduler',
  'node-local-driver',
  'multi-node-controller',
  'driver-controller',
  'tenant',
  'node-readiness-reporter',
  'auditor',
  'custom',
] as const;
export type PersonaId = (typeof PERSONA_IDS)[number];

/** Who gets the role: a service account (created by the bundle when new), a user or a group. */
export type BuilderIdentity =
  { kind: 'ServiceAccount'; namespace: string; name: string; create: boolean } | { kind: 'User'; name: string } | { kind: 'Group'; name: string };

export interface BuildInput {
  persona: PersonaId;
  identity: BuilderIdentity;
  /** Driver names (e.g. gpu.example.com): the resourceNames of resourceclaims/driver rules. */
  drivers: string[];
  /** Namespace of the namespaced part (tenant claims, leader-election leases). Defaults to the service account's. */
  namespace?: string;
  /** Only for the custom persona. */
  customRules?: ReasonedRule[];
}

/** A rule and the one line that says why the identity needs it. */
export interface ReasonedRule {
  rule: PolicyRule;
  reason: string;
  /** Set for rules that do nothing before this Kubernetes version (unknown subresources/verbs are inert). */
  since?: '1.35' | '1.36';
}

/** Where a rule lands: a ClusterRole bound cluster-wide, or a Role in one namespace. */
export interface ScopedRules {
  cluster: ReasonedRule[];
  namespaced: ReasonedRule[];
}

/**
 * An operation the validation asks the engine (and the integration test asks the real API server):
 * a plain request, or a request sent with Impersonate-User by the identity.
 * `nodeName` = the identity presents a service-account token bound to a pod on that node.
 */
export type Operation =
  | { kind: 'request'; label: string; resource: ResourceAttributes; nodeName?: string }
  | { kind: 'non-resource'; label: string; nonResource: NonResourceAttributes }
  | { kind: 'impersonate'; label: string; nodeName: string; impersonateUser: string; resource: ResourceAttributes };

/** Example values the persona's operations refer to (taken from the cluster when it has them). */
export interface OperationContext {
  namespace: string;
  drivers: string[];
  /** A driver name the identity does not serve. */
  otherDriver: string;
  node: string;
  otherNode: string;
  /** A namespace other than `namespace`. */
  otherNamespace: string;
}

export interface Persona {
  id: PersonaId;
  title: string;
  summary: string;
  /** Driver names are required (they scope resourceclaims/driver or name the driver's objects). */
  needsDrivers: boolean;
  /** Node-bound tokens only exist for service accounts. */
  serviceAccountOnly: boolean;
  /** The persona has a namespaced part and therefore needs a namespace. */
  namespaced: boolean;
  rules(input: BuildInput): ScopedRules;
  intended(ctx: OperationContext, input: BuildInput): Operation[];
  dangerous(ctx: OperationContext, input: BuildInput): Operation[];
  /** Persona-specific notes shown with the YAML. */
  notes?: string[];
}

export interface BundleObject {
  object: KubeObject & Record<string, unknown>;
  /** One line: why this object is in the bundle. */
  reason: string;
  /** For Role/ClusterRole: the reasoned rules, index-aligned with object.rules. */
  rules?: ReasonedRule[];
}

export interface RoleBundle {
  input: BuildInput;
  persona: { id: PersonaId; title: string; summary: string };
  objects: BundleObject[];
  versionNotes: string[];
  notes: string[];
}
