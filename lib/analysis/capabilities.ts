import type { AccessQuestion } from './context/access';
import type { CheckId } from './catalog';

// The capability model (DESIGN §4, "capabilities first"): the permissions that matter for DRA and
// node security, each an exact question (or a few) for the engine, the scope that counts, who is
// expected to hold it, and the check its unexpected holders are reported under. Holders come from
// the engine by every path it models; the checks read their questions from here, so a question and
// the ID that reports it are written once. `dra-posture checks` prints, per ID, what it covers.

export type CapabilityId =
  | 'write-other-node-status'
  | 'write-node-objects'
  | 'legacy-impersonation'
  | 'node-identity-extra-rbac'
  | 'forge-device-status'
  | 'claim-status-without-granular'
  | 'allocate-claims'
  | 'write-resourceslices'
  | 'write-resourceslices-unpinned'
  | 'write-deviceclasses'
  | 'write-devicetaintrules'
  | 'write-pods'
  | 'exec-pods'
  | 'kubelet-api'
  | 'write-workload-controllers'
  | 'mint-serviceaccount-tokens'
  | 'read-secrets-cluster-wide'
  | 'write-configmaps-cluster-wide'
  | 'write-namespaces'
  | 'write-crds'
  | 'escalate-or-bind'
  | 'impersonate';

/**
 * Where a namespaced grant counts: `cluster-wide` only in every namespace; `privileged-namespaces`
 * in every namespace or in a namespace whose Pod Security admission lets privileged pods in;
 * `other-namespaces` in every namespace or in a namespace other than the holder's own.
 */
export type CapabilityScope = 'cluster' | 'cluster-wide' | 'privileged-namespaces' | 'other-namespaces' | 'any';

export interface Capability {
  id: CapabilityId;
  /** What the holder can do, as a phrase after "can". */
  label: string;
  questions: readonly AccessQuestion[];
  scope: CapabilityScope;
  /** Who is expected to hold it (personas), in words for the catalogue. */
  expected: string;
  /** The check its unexpected holders are reported under. */
  check: CheckId;
  /** Escalation-grade for a DRA workload identity (DRA008 asks these of every DRA component and driver-namespace account). */
  escalation?: boolean;
}

const DRA = 'resource.k8s.io';
const RBAC = 'rbac.authorization.k8s.io';
const AUTHN = 'authentication.k8s.io';
const WRITE = ['create', 'update', 'patch', 'delete'];
const MODIFY = ['update', 'patch'];

const q = (
  group: string,
  resource: string,
  verbs: readonly string[],
  scope: AccessQuestion['scope'],
  names: AccessQuestion['names'] = 'any',
  subresource?: string,
): AccessQuestion => (subresource ? { verbs, group, resource, subresource, scope, names } : { verbs, group, resource, scope, names });

/** The workload controllers whose pod templates become pods (create and change them). */
const CONTROLLERS: readonly [string, string][] = [
  ['apps', 'daemonsets'],
  ['apps', 'deployments'],
  ['apps', 'statefulsets'],
  ['apps', 'replicasets'],
  ['batch', 'jobs'],
  ['batch', 'cronjobs'],
  ['', 'replicationcontrollers'],
];

/** The legacy impersonate verb on users, groups and service accounts. */
const LEGACY_IMPERSONATE: readonly AccessQuestion[] = [
  q('', 'users', ['impersonate'], 'cluster'),
  q('', 'groups', ['impersonate'], 'cluster'),
  q('', 'serviceaccounts', ['impersonate'], 'namespaced'),
];

export const CAPABILITIES: readonly Capability[] = [
  {
    id: 'write-other-node-status',
    label: 'write the status of nodes other than its own (mark them Ready or NotReady, rewrite conditions)',
    questions: [q('', 'nodes', MODIFY, 'cluster', 'unscoped', 'status')],
    scope: 'cluster',
    expected:
      'each kubelet for its own node (Node authorizer with NodeRestriction), node agents through associated-node impersonation, the node lifecycle controller, admin-equivalents',
    check: 'NODE001',
  },
  {
    id: 'write-node-objects',
    label: 'update or patch Node objects (labels, taints, spec) of every node',
    questions: [q('', 'nodes', MODIFY, 'cluster', 'unscoped')],
    scope: 'cluster',
    expected: 'kubelets (limited to their own Node by NodeRestriction), node controllers, admin-equivalents',
    check: 'NODE003',
  },
  {
    id: 'legacy-impersonation',
    label: 'impersonate users, groups or service accounts without constraint (legacy impersonate)',
    questions: LEGACY_IMPERSONATE,
    scope: 'any',
    expected: 'admin-equivalents only',
    check: 'NODE002',
  },
  {
    id: 'node-identity-extra-rbac',
    label: 'grant node identities (Group system:nodes, User system:node:<name>) more than the Node authorizer gives them',
    questions: [],
    scope: 'any',
    expected: "nobody: kubelets are authorized by the Node authorizer, which limits them to their own node's objects",
    check: 'NODE006',
  },
  {
    id: 'forge-device-status',
    label: 'write device status (status.devices) of claims for any node (arbitrary-node verbs on resourceclaims/driver)',
    questions: [q(DRA, 'resourceclaims', ['arbitrary-node:update', 'arbitrary-node:patch'], 'namespaced', 'any', 'driver')],
    scope: 'any',
    expected: 'a multi-node driver controller for its own driver name, from a platform namespace; kubelet plugins use associated-node verbs',
    check: 'DRA005',
  },
  {
    id: 'claim-status-without-granular',
    label: 'write claim status (resourceclaims/status) where granular status authorization is off, so every status field',
    questions: [q(DRA, 'resourceclaims', MODIFY, 'namespaced', 'any', 'status')],
    scope: 'any',
    expected: 'the scheduler, the resource-claim controller and DRA drivers, from platform namespaces',
    check: 'DRA005',
  },
  {
    id: 'allocate-claims',
    label: 'write status.allocation and reservedFor of any claim (resourceclaims/binding)',
    questions: [q(DRA, 'resourceclaims', MODIFY, 'cluster', [''], 'binding')],
    scope: 'cluster',
    expected: 'the scheduler and the resource-claim controller (settings.allocatorIdentities)',
    check: 'DRA007',
  },
  {
    id: 'write-resourceslices',
    label: 'publish, change or delete ResourceSlices',
    questions: [q(DRA, 'resourceslices', ['create'], 'cluster', ['']), q(DRA, 'resourceslices', ['update', 'patch', 'delete'], 'cluster')],
    scope: 'cluster',
    expected: 'DRA drivers and system identities (kubelets through the Node authorizer)',
    check: 'DRA003',
  },
  {
    id: 'write-resourceslices-unpinned',
    label: 'write ResourceSlices of any node, with no admission policy pinning its writes to its own node',
    questions: [q(DRA, 'resourceslices', ['create'], 'cluster', ['']), q(DRA, 'resourceslices', ['update', 'patch', 'delete'], 'cluster')],
    scope: 'cluster',
    expected: 'node-local drivers only under a ValidatingAdmissionPolicy that ties spec.nodeName to the node named in their token',
    check: 'DRA012',
  },
  {
    id: 'write-deviceclasses',
    label: 'create or change DeviceClasses',
    questions: [q(DRA, 'deviceclasses', ['create'], 'cluster', ['']), q(DRA, 'deviceclasses', ['update', 'patch', 'delete'], 'cluster')],
    scope: 'cluster',
    expected: 'cluster administrators (the chart installs classes); not tenants, not driver runtime identities',
    check: 'DRA003',
    escalation: true,
  },
  {
    id: 'write-devicetaintrules',
    label: 'create or change DeviceTaintRules (taint any device; NoExecute evicts every pod using it)',
    questions: [q(DRA, 'devicetaintrules', ['create'], 'cluster', ['']), q(DRA, 'devicetaintrules', ['update', 'patch'], 'cluster')],
    scope: 'cluster',
    expected: 'cluster administrators and device health controllers that an administrator chose',
    check: 'DRA011',
  },
  {
    id: 'write-pods',
    label: 'create or change pods (image, command, ephemeral containers)',
    questions: [
      q('', 'pods', ['create', 'update', 'patch'], 'namespaced', 'any'),
      q('', 'pods', ['update', 'patch'], 'namespaced', 'any', 'ephemeralcontainers'),
    ],
    scope: 'privileged-namespaces',
    expected: 'workload controllers of the control plane; not DRA components',
    check: 'DRA008',
    escalation: true,
  },
  {
    id: 'exec-pods',
    label: 'exec or attach into pods',
    questions: [q('', 'pods', ['create', 'get'], 'namespaced', 'any', 'exec'), q('', 'pods', ['create', 'get'], 'namespaced', 'any', 'attach')],
    scope: 'any',
    expected: 'operators (namespace admins); not DRA components',
    check: 'DRA008',
    escalation: true,
  },
  {
    id: 'kubelet-api',
    label: "reach every kubelet's API through nodes/proxy (exec in any pod on any node)",
    questions: [q('', 'nodes', ['get', 'create'], 'cluster', 'any', 'proxy')],
    scope: 'cluster',
    expected: 'the API server and monitoring that an administrator chose; not DRA components',
    check: 'DRA008',
    escalation: true,
  },
  {
    id: 'write-workload-controllers',
    label: 'create or change workload controllers (DaemonSets, Deployments, StatefulSets, ReplicaSets, Jobs, CronJobs, ReplicationControllers)',
    questions: CONTROLLERS.map(([group, resource]) => q(group, resource, ['create', 'update', 'patch'], 'namespaced', 'any')),
    scope: 'privileged-namespaces',
    expected: 'controllers in namespaces whose Pod Security admission refuses privileged pods; not DRA components cluster-wide',
    check: 'DRA008',
    escalation: true,
  },
  {
    id: 'mint-serviceaccount-tokens',
    label: 'create service-account tokens (serviceaccounts/token) for accounts of other namespaces',
    questions: [q('', 'serviceaccounts', ['create'], 'namespaced', 'any', 'token')],
    scope: 'other-namespaces',
    expected: 'kubelets for the pods on their node (Node authorizer), token-issuing controllers',
    check: 'DRA008',
    escalation: true,
  },
  {
    id: 'read-secrets-cluster-wide',
    label: 'read Secrets cluster-wide',
    questions: [q('', 'secrets', ['get', 'list', 'watch'], 'cluster', 'unscoped')],
    scope: 'cluster',
    expected: 'admin-equivalents',
    check: 'DRA008',
    escalation: true,
  },
  {
    id: 'write-configmaps-cluster-wide',
    label: 'write ConfigMaps in every namespace',
    questions: [q('', 'configmaps', WRITE, 'cluster', 'unscoped')],
    scope: 'cluster',
    expected: 'admin-equivalents',
    check: 'DRA008',
    escalation: true,
  },
  {
    id: 'write-namespaces',
    label: 'write Namespaces (labels such as resource.kubernetes.io/admin-access and Pod Security levels)',
    questions: [q('', 'namespaces', WRITE, 'cluster')],
    scope: 'cluster',
    expected: 'cluster administrators; a tenant writing its own Namespace is CLAIM003',
    check: 'DRA008',
    escalation: true,
  },
  {
    id: 'write-crds',
    label: 'write CustomResourceDefinitions',
    questions: [q('apiextensions.k8s.io', 'customresourcedefinitions', WRITE, 'cluster')],
    scope: 'cluster',
    expected: 'cluster administrators (charts install CRDs); not runtime identities',
    check: 'DRA008',
    escalation: true,
  },
  {
    id: 'escalate-or-bind',
    label: 'escalate or bind roles',
    questions: [q(RBAC, 'clusterroles', ['escalate', 'bind'], 'cluster'), q(RBAC, 'roles', ['escalate', 'bind'], 'namespaced')],
    scope: 'any',
    expected: 'cluster administrators',
    check: 'DRA008',
    escalation: true,
  },
  {
    id: 'impersonate',
    label: 'impersonate users, groups, service accounts or any node',
    questions: [
      ...LEGACY_IMPERSONATE,
      q(AUTHN, 'users', ['impersonate:user-info'], 'cluster'),
      q(AUTHN, 'serviceaccounts', ['impersonate:serviceaccount'], 'namespaced'),
      q(AUTHN, 'nodes', ['impersonate:arbitrary-node'], 'cluster'),
    ],
    scope: 'any',
    expected: 'admin-equivalents; node agents impersonate their own node through associated-node',
    check: 'DRA008',
    escalation: true,
  },
];

const BY_ID = new Map(CAPABILITIES.map((c) => [c.id, c]));

export function capability(id: CapabilityId): Capability {
  return BY_ID.get(id)!;
}

/** The capabilities a check reports unexpected holders of, in table order. */
export function capabilitiesOf(check: CheckId): Capability[] {
  return CAPABILITIES.filter((c) => c.check === check || (check === 'DRA008' && c.escalation));
}
