// Plain-data Kubernetes object types: only the fields the engine reads. Unknown fields are kept by
// the loaders (objects stay structurally open) but the engine never relies on them.

export interface OwnerReference {
  apiVersion?: string;
  kind: string;
  name: string;
  uid?: string;
  controller?: boolean;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  generateName?: string;
  creationTimestamp?: string;
  resourceVersion?: string;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
}

// ---------------------------------------------------------------- label selectors

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

// ---------------------------------------------------------------- RBAC

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

export interface RoleRef {
  apiGroup?: string;
  kind: string;
  name: string;
}

export interface Role extends KubeObject {
  kind: 'Role';
  rules?: PolicyRule[] | null;
}

export interface ClusterRole extends KubeObject {
  kind: 'ClusterRole';
  rules?: PolicyRule[] | null;
  aggregationRule?: { clusterRoleSelectors?: LabelSelector[] } | null;
}

export interface RoleBinding extends KubeObject {
  kind: 'RoleBinding';
  subjects?: Subject[] | null;
  roleRef: RoleRef;
}

export interface ClusterRoleBinding extends KubeObject {
  kind: 'ClusterRoleBinding';
  subjects?: Subject[] | null;
  roleRef: RoleRef;
}

// ---------------------------------------------------------------- core

export interface Namespace extends KubeObject {
  kind: 'Namespace';
}

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface NodeSelector {
  nodeSelectorTerms: NodeSelectorTerm[];
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
}

export interface Node extends KubeObject {
  kind: 'Node';
  spec?: { taints?: Taint[]; unschedulable?: boolean };
  status?: {
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    nodeInfo?: { kubeletVersion?: string };
  };
}

export interface ServiceAccount extends KubeObject {
  kind: 'ServiceAccount';
  secrets?: { name: string }[];
  imagePullSecrets?: { name: string }[];
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key?: string };
    configMapKeyRef?: { name: string; key?: string };
    fieldRef?: { fieldPath: string };
  };
}

export interface EnvFromSource {
  secretRef?: { name: string };
  configMapRef?: { name: string };
}

export interface SecurityContext {
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  readOnlyRootFilesystem?: boolean;
  runAsNonRoot?: boolean;
  runAsUser?: number;
  capabilities?: { add?: string[]; drop?: string[] };
  seccompProfile?: { type: string; localhostProfile?: string };
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  securityContext?: SecurityContext;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean; mountPropagation?: string }[];
  resources?: { claims?: { name: string; request?: string }[] };
}

export interface Volume {
  name: string;
  hostPath?: { path: string; type?: string };
  secret?: { secretName?: string };
  configMap?: { name?: string };
  persistentVolumeClaim?: { claimName: string };
  projected?: {
    sources?: {
      secret?: { name?: string };
      configMap?: { name?: string };
      serviceAccountToken?: { audience?: string; path?: string };
    }[];
  };
  ephemeral?: unknown;
  csi?: { driver: string; nodePublishSecretRef?: { name: string } };
  [other: string]: unknown;
}

export interface PodSpec {
  nodeName?: string;
  serviceAccountName?: string;
  serviceAccount?: string;
  hostPID?: boolean;
  hostNetwork?: boolean;
  hostIPC?: boolean;
  containers: Container[];
  initContainers?: Container[];
  ephemeralContainers?: Container[];
  volumes?: Volume[];
  imagePullSecrets?: { name: string }[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type: string } };
  resourceClaims?: { name: string; resourceClaimName?: string; resourceClaimTemplateName?: string }[];
}

export interface Pod extends KubeObject {
  kind: 'Pod';
  spec: PodSpec;
  status?: {
    phase?: string;
    resourceClaimStatuses?: { name: string; resourceClaimName?: string }[];
  };
}

export interface PodTemplateSpec {
  metadata?: Partial<ObjectMeta>;
  spec: PodSpec;
}

export interface DaemonSet extends KubeObject {
  kind: 'DaemonSet';
  spec: { selector?: LabelSelector; template: PodTemplateSpec };
}

export interface Deployment extends KubeObject {
  kind: 'Deployment';
  spec: { replicas?: number; selector?: LabelSelector; template: PodTemplateSpec };
}

export interface StatefulSet extends KubeObject {
  kind: 'StatefulSet';
  spec: { replicas?: number; selector?: LabelSelector; template: PodTemplateSpec };
}

export interface ReplicaSet extends KubeObject {
  kind: 'ReplicaSet';
  spec: { replicas?: number; selector?: LabelSelector; template?: PodTemplateSpec };
}

export interface PersistentVolumeClaim extends KubeObject {
  kind: 'PersistentVolumeClaim';
  spec?: { volumeName?: string; storageClassName?: string };
}

export interface PersistentVolume extends KubeObject {
  kind: 'PersistentVolume';
  spec?: {
    claimRef?: { namespace?: string; name?: string };
    csi?: { driver?: string; nodePublishSecretRef?: { name: string; namespace?: string }; [k: string]: unknown };
    [k: string]: unknown;
  };
}

export interface ConfigMap extends KubeObject {
  kind: 'ConfigMap';
  // Values are never kept (they may hold credentials); only the keys are.
  dataKeys?: string[];
}

export interface ResourceQuota extends KubeObject {
  kind: 'ResourceQuota';
  spec?: { hard?: Record<string, string>; scopes?: string[] };
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}

// ---------------------------------------------------------------- admissionregistration.k8s.io

/** A rule of an admission policy's matchConstraints (or a binding's matchResources). */
export interface AdmissionResourceRule {
  apiGroups?: string[];
  apiVersions?: string[];
  operations?: string[];
  resources?: string[];
  resourceNames?: string[];
  scope?: string;
}

export interface ValidatingAdmissionPolicy extends KubeObject {
  kind: 'ValidatingAdmissionPolicy';
  spec?: {
    failurePolicy?: string;
    matchConstraints?: {
      resourceRules?: AdmissionResourceRule[];
      excludeResourceRules?: AdmissionResourceRule[];
      matchPolicy?: string;
      namespaceSelector?: LabelSelector;
      objectSelector?: LabelSelector;
    };
    matchConditions?: { name: string; expression: string }[];
    validations?: { expression: string; message?: string; messageExpression?: string; reason?: string }[];
    [k: string]: unknown;
  };
}

export interface ValidatingAdmissionPolicyBinding extends KubeObject {
  kind: 'ValidatingAdmissionPolicyBinding';
  spec?: {
    policyName?: string;
    validationActions?: string[];
    matchResources?: { namespaceSelector?: LabelSelector; objectSelector?: LabelSelector; [k: string]: unknown };
    [k: string]: unknown;
  };
}

// ---------------------------------------------------------------- references

export interface ObjectRef {
  kind: string;
  name: string;
  namespace?: string;
}

export interface SubjectRef {
  kind: 'User' | 'Group' | 'ServiceAccount';
  name: string;
  namespace?: string;
}

// The resource.k8s.io (DRA) kinds live beside these types.
export * from './dra-types';
