import type { Severity } from './severity';

// The check catalogue (DESIGN §4): every stable check ID with its family, severity, title, what it
// means and the fix in general terms. Checks, the CheckId type, family labels, the finding detail,
// the Markdown/HTML report and `dra-posture checks` all read it; IDs are never renumbered.

export interface CatalogEntry {
  family: CheckFamilyId;
  severity: Severity;
  title: string;
  /** What the check looks for, in a sentence or two. */
  description: string;
  /** The fix in general terms (each finding's own remediation is specific to its objects). */
  remediation: string;
  /**
   * What a person changes to fix the findings, so findings with the same root cause form one issue:
   * the roles that grant it, the workload whose pod template it is, the DeviceClass, the object
   * itself, or (for namespace-level gaps) one missing policy for the whole check.
   */
  rootCause: RootCauseKind;
}

export type RootCauseKind = 'role' | 'workload' | 'device-class' | 'object' | 'check';

/** Check families in catalogue order, with their labels. */
export const CHECK_FAMILIES = {
  DRA: 'DRA RBAC',
  NODE: 'Nodes & impersonation',
  CLAIM: 'Claims & admin access',
  QUOTA: 'Quota',
  ZERO: 'Device zeroing',
  POD: 'Driver pods',
  AUDIT: 'Audit log',
} as const;

export type CheckFamilyId = keyof typeof CHECK_FAMILIES;

export const CATALOG = {
  DRA001: {
    family: 'DRA',
    severity: 'critical',
    title: 'DRA component identity is cluster-admin equivalent',
    description:
      'A DRA component identity (a service account that writes ResourceSlices or ResourceClaim status/binding/driver, or runs DRA driver pods; where granular status authorization is on, 1.36+, a tenant-namespace account holding resourceclaims/status alone is not one: none of its status writes goes through) holds * verbs on * resources in * groups cluster-wide.',
    remediation:
      "Bind the component's service account to a least-privilege role for its persona (dra-posture build-role) and remove the cluster-admin-equivalent binding.",
    rootCause: 'role',
  },
  DRA002: {
    family: 'DRA',
    severity: 'high',
    title: 'Bound role grants wildcard verbs or resources in resource.k8s.io',
    description:
      'A bound role other than cluster-admin and the bootstrap system:* roles grants * verbs or * resources in resource.k8s.io (or in * groups); a wildcard also matches the synthetic resourceclaims/binding and resourceclaims/driver subresources.',
    remediation:
      'Replace the wildcards with the verbs and resources the subjects need in resource.k8s.io (resourceclaims, resourceclaims/status, resourceslices, deviceclasses…).',
    rootCause: 'role',
  },
  DRA003: {
    family: 'DRA',
    severity: 'high',
    title: 'Tenant or non-DRA identity can write DeviceClasses or ResourceSlices',
    description:
      'An identity of a tenant namespace, or a subject that is neither a DRA component nor a system identity, can create/update/patch/delete DeviceClasses (cluster-wide device selection and config) or ResourceSlices (advertise fake devices).',
    remediation:
      "Remove write access to DeviceClasses and ResourceSlices from tenants and non-DRA identities; keep it for the driver's kubelet plugin (its own node's slices) and the platform admins.",
    rootCause: 'role',
  },
  DRA004: {
    family: 'DRA',
    severity: 'medium',
    title: 'resourceclaims/driver rule not scoped to a driver',
    description:
      'A bound rule on resourceclaims/driver (or */driver) has no resourceNames, so its holders may write status.devices for every driver. A plain * resource is reported by DRA002.',
    remediation: "Add resourceNames with the driver's name to every rule on resourceclaims/driver.",
    rootCause: 'role',
  },
  DRA005: {
    family: 'DRA',
    severity: 'high',
    title: 'Identity other than a driver can write device status of claims on any node',
    description:
      "An identity other than a driver acting for its own driver on its own node holds arbitrary-node:update/patch (or *) on resourceclaims/driver: a node-local identity (a compromised node rewrites device status of claims on every other node), a group, a user, a tenant's service account, or a platform service account not scoped to its driver name. Before granular status authorization (before 1.36 or with the gate off), resourceclaims/status held by a group, a user or a tenant's service account. A multi-node controller of a platform namespace scoped to its driver names is expected.",
    remediation:
      "Grant node-local identities associated-node:update/patch on resourceclaims/driver, scoped to the driver's name, instead of arbitrary-node verbs; never grant device status writes to groups, users or tenants.",
    rootCause: 'role',
  },
  DRA006: {
    family: 'DRA',
    severity: 'medium',
    title: 'resourceclaims/status writer lacks binding and driver grants (breaks on 1.36)',
    description:
      'An identity can update/patch resourceclaims/status but holds neither resourceclaims/binding nor resourceclaims/driver: with granular status authorization (1.36+) its writes to allocation, reservedFor or status.devices are refused.',
    remediation:
      "Grant resourceclaims/binding (allocators) or resourceclaims/driver with the driver's name (drivers) beside resourceclaims/status before enabling granular status authorization.",
    rootCause: 'role',
  },
  DRA007: {
    family: 'DRA',
    severity: 'high',
    title: 'Identity other than the allocators can write resourceclaims/binding',
    description:
      'An identity other than the scheduler and the resource-claim controller (settings.allocatorIdentities) can update/patch resourceclaims/binding: it can forge allocations. Admin-equivalents are left to DRA001.',
    remediation: 'Keep update/patch of resourceclaims/binding for the scheduler and the resource-claim controller only.',
    rootCause: 'role',
  },
  DRA008: {
    family: 'DRA',
    severity: 'high',
    title: 'DRA component identity holds escalation-grade permissions',
    description:
      'A DRA component identity can read Secrets cluster-wide, exec into pods, write Namespaces, or escalate/bind/impersonate (impersonate:associated-node, tied to the own node, is not counted). Admin-equivalents are left to DRA001.',
    remediation: "Remove Secret reads, pods/exec, Namespace writes and escalate/bind/impersonate from the DRA component's roles.",
    rootCause: 'role',
  },
  DRA009: {
    family: 'DRA',
    severity: 'low',
    title: 'One role shared by unrelated DRA components',
    description:
      'A role (other than cluster-admin and bootstrap system:* roles) is bound to DRA component service accounts of two or more namespaces: unrelated drivers share one permission set, so narrowing it for one breaks or over-grants another.',
    remediation: "Give each DRA component its own role with only what its persona needs, so one compromised identity does not carry the others' permissions.",
    rootCause: 'role',
  },
  DRA010: {
    family: 'DRA',
    severity: 'high',
    title: 'Identity can grant itself DRA write permissions through bind or escalate',
    description:
      "An identity (not an admin-equivalent or a system identity) holds bind on a ClusterRole that grants DRA writes (claim status, allocations, device status, ResourceSlices, DeviceClasses, nodes/status), or escalate with write access to roles, together with create on bindings: the API server's escalation check then accepts a grant of permissions it does not hold.",
    remediation: 'Remove bind and escalate, or limit bind with resourceNames to roles without DRA writes; test proposed grants with dra-posture simulate.',
    rootCause: 'role',
  },
  DRA011: {
    family: 'DRA',
    severity: 'high',
    title: 'Identity can write DeviceTaintRules',
    description:
      'An identity other than admin-equivalents and system identities can create, update or patch DeviceTaintRules (resource.k8s.io): a rule taints every device it selects, across drivers and nodes; a NoExecute taint evicts every pod using them (DRADeviceTaintRules; beta and off by default in 1.36).',
    remediation:
      'Keep DeviceTaintRule writes with cluster administrators; a device health controller should taint the devices in its own ResourceSlices instead.',
    rootCause: 'role',
  },
  DRA012: {
    family: 'DRA',
    severity: 'high',
    title: 'Node-local driver writes ResourceSlices not pinned to its own node',
    description:
      "A node-local identity (DaemonSet or DRA driver pods) can create, update or delete ResourceSlices and no bound ValidatingAdmissionPolicy (validationActions Deny) that applies to it ties the slice's spec.nodeName to the node named in its token (authentication.kubernetes.io/node-name): one compromised node can publish, replace or delete the devices of every node. The policy is recognised by its form (matchConditions naming its username, a validation comparing the node name); expressions of other forms count as not pinning.",
    remediation:
      "Add a ValidatingAdmissionPolicy and binding (Deny) for the driver's service account that refuses slice writes whose spec.nodeName is not request.userInfo.extra['authentication.kubernetes.io/node-name'][0].",
    rootCause: 'role',
  },
  NODE001: {
    family: 'NODE',
    severity: 'high',
    title: 'Write on nodes/status of other nodes',
    description:
      "An identity other than system:node:*, system identities and admin-equivalents can update/patch nodes/status of nodes other than its own, by any path: plain RBAC (every node or named nodes), constrained impersonation (arbitrary-node, or impersonating another writer), or legacy impersonation of a writer (when NODE002 does not already report it). When NodeRestriction is off, every kubelet can write every node's status: one finding for Group system:nodes.",
    remediation:
      'Replace plain nodes/status update/patch and arbitrary-node impersonation with associated-node impersonation (impersonate:associated-node and impersonate-on:associated-node:update on nodes/status), and run kube-apiserver with NodeRestriction.',
    rootCause: 'role',
  },
  NODE002: {
    family: 'NODE',
    severity: 'critical',
    title: 'Legacy unconstrained impersonation',
    description:
      'A non-admin identity holds the legacy impersonate verb on users or groups (any name or system:* names such as system:node:<name>, system:masters) or on service accounts cluster-wide: it can act as any node or any user. Namespaced service-account impersonation (stock edit/admin) is not counted.',
    remediation:
      'Replace the legacy impersonate verb with constrained impersonation modes scoped to what is needed (associated-node, serviceaccount, user-info).',
    rootCause: 'role',
  },
  NODE003: {
    family: 'NODE',
    severity: 'medium',
    title: 'Write on nodes (labels, taints) of every node',
    description:
      'An identity other than system:node:* and admin-equivalents can update/patch nodes of all nodes: it can relabel and untaint any node (steer workloads, defeat readiness taints).',
    remediation: 'Remove update/patch on nodes from the identity, or limit it to named nodes and rely on NodeRestriction for kubelets.',
    rootCause: 'role',
  },
  NODE004: {
    family: 'NODE',
    severity: 'medium',
    title: 'Token audience grant not narrowed',
    description:
      'request-serviceaccounts-token-audience is granted for * audiences or without resourceNames: the node can mint tokens for any audience or any service account, defeating ServiceAccountNodeAudienceRestriction.',
    remediation: "List the allowed audiences in resourceNames of request-serviceaccounts-token-audience; never grant '*'.",
    rootCause: 'role',
  },
  NODE005: {
    family: 'NODE',
    severity: 'high',
    title: 'API server without the Node authorizer or NodeRestriction',
    description:
      'The kube-apiserver flags are visible (a kube-system kube-apiserver-* pod) and --authorization-mode lacks Node or --enable-admission-plugins lacks NodeRestriction. With --authorization-config the authorizer chain is unknown and only NodeRestriction is judged.',
    remediation: 'Run kube-apiserver with --authorization-mode including Node and --enable-admission-plugins including NodeRestriction.',
    rootCause: 'object',
  },
  NODE006: {
    family: 'NODE',
    severity: 'high',
    title: 'RBAC grants node identities more than the Node authorizer',
    description:
      "A binding grants Group system:nodes or User system:node:<name> rules beyond what the Node authorizer (with NodeRestriction) already gives every kubelet: e.g. reading every Secret or ConfigMap instead of those of its own pods, or writing other nodes' ResourceSlices. Every kubelet then holds it, so one compromised node does. Token audience grants are NODE004's; kubeadm's own grants (its kubelet-config ConfigMaps, node client certificate renewal) are expected.",
    remediation: 'Remove the rules (or the node subjects) from the binding; kubelets get what they need from the Node authorizer.',
    rootCause: 'role',
  },
  CLAIM001: {
    family: 'CLAIM',
    severity: 'high',
    title: 'Tenant namespace allows DRA admin access',
    description:
      'A tenant namespace carries resource.kubernetes.io/admin-access: "true": every claim creator in it may request adminAccess and reach devices already in use by other namespaces.',
    remediation: 'Remove the resource.kubernetes.io/admin-access label from tenant namespaces and restrict who may label namespaces.',
    rootCause: 'check',
  },
  CLAIM002: {
    family: 'CLAIM',
    severity: 'high',
    title: 'Tenant claim or template requests adminAccess',
    description:
      'A ResourceClaim or ResourceClaimTemplate in a tenant namespace requests adminAccess (exactly.adminAccess: true). A claim generated from a template is reported too: it is the live allocation.',
    remediation: 'Remove adminAccess from tenant claims and templates, and keep the admin-access label off tenant namespaces.',
    rootCause: 'check',
  },
  CLAIM003: {
    family: 'CLAIM',
    severity: 'high',
    title: 'Tenant identity can label its own namespace',
    description:
      'An identity of a tenant namespace (its service accounts, or a subject of one of its RoleBindings) can update/patch its own Namespace object, including through a resourceNames-scoped Role: it can set resource.kubernetes.io/admin-access=true and grant itself adminAccess to devices.',
    remediation: "Remove update/patch on the tenant's own Namespace object from tenant roles (namespaces are managed by the platform).",
    rootCause: 'role',
  },
  CLAIM004: {
    family: 'CLAIM',
    severity: 'medium',
    title: 'No admission policy guards ResourceClaim creation',
    description:
      'DRA is in use but no ValidatingAdmissionPolicy, bound with validationActions Deny, covers CREATE of resourceclaims and resourceclaimtemplates in resource.k8s.io: nothing allow-lists DeviceClasses per tenant or guards adminAccess.',
    remediation:
      'Bind a ValidatingAdmissionPolicy on create of resourceclaims and resourceclaimtemplates that allow-lists DeviceClasses and refuses adminAccess in tenant namespaces.',
    rootCause: 'check',
  },
  CLAIM005: {
    family: 'CLAIM',
    severity: 'info',
    title: 'Legacy admin-access label present',
    description:
      'A namespace carries the 1.33-only label resource.k8s.io/admin-access, inert since 1.34 (the active key is resource.kubernetes.io/admin-access).',
    remediation:
      'Remove the legacy resource.k8s.io/admin-access label (inert since 1.34) and use resource.kubernetes.io/admin-access where admin access is intended.',
    rootCause: 'check',
  },
  QUOTA001: {
    family: 'QUOTA',
    severity: 'medium',
    title: 'Tenant namespace without a ResourceClaim count quota',
    description:
      'A tenant namespace has ResourceClaims or ResourceClaimTemplates, or identities bound in it that can create them, but no (unscoped) ResourceQuota on count/resourceclaims.resource.k8s.io.',
    remediation: 'Add a ResourceQuota with count/resourceclaims.resource.k8s.io to every tenant namespace.',
    rootCause: 'check',
  },
  QUOTA002: {
    family: 'QUOTA',
    severity: 'low',
    title: 'DeviceClass used without a per-class device quota',
    description:
      'A tenant namespace requests devices of a DeviceClass (in claims or templates, firstAvailable included) and no unscoped ResourceQuota there limits <class>.deviceclass.resource.k8s.io/devices (or its requests.deviceclass.resource.kubernetes.io/<class> mirror).',
    remediation: "Add <class>.deviceclass.resource.k8s.io/devices to the tenant namespace's ResourceQuota for every DeviceClass it uses.",
    rootCause: 'check',
  },
  QUOTA003: {
    family: 'QUOTA',
    severity: 'low',
    title: 'DRA quota nearly exhausted',
    description:
      'A DRA ResourceQuota key (claim count or devices per DeviceClass) is at or above the high watermark (settings.quotaHighWatermark, default 90%) of its hard limit, by the reported usage (status.used) or by the usage computed from the claims. A disagreement between the two is reported.',
    remediation: 'Raise the quota or reduce usage before tenants are refused new claims.',
    rootCause: 'object',
  },
  QUOTA004: {
    family: 'QUOTA',
    severity: 'info',
    title: 'allocationMode All charges 32 devices of quota',
    description:
      'A ResourceClaim or ResourceClaimTemplate request (or firstAvailable subrequest) uses allocationMode: All; quota charges each such claim the worst case of 32 devices of its DeviceClass (claims generated from a template are charged too, so they are reported beside the template).',
    remediation: 'Prefer ExactCount requests; allocationMode: All charges 32 devices of quota per request.',
    rootCause: 'check',
  },
  ZERO001: {
    family: 'ZERO',
    severity: 'high',
    title: 'DeviceClass shared by tenants without zeroing',
    description:
      'A DeviceClass is requested by claims or claim templates in two or more tenant namespaces and has no zeroing indicator: device memory can leak from one tenant to the next.',
    remediation:
      'Configure device zeroing for the DeviceClass (driver config or the dra-posture.io/zero-on-release annotation once the driver zeroes memory), or give each tenant its own class.',
    rootCause: 'device-class',
  },
  ZERO002: {
    family: 'ZERO',
    severity: 'medium',
    title: 'Accelerator DeviceClass without zeroing',
    description:
      'An accelerator DeviceClass has no zeroing indicator. Accelerator: listed in settings.acceleratorClasses; else not one when its driver hands out CPUs, host memory, network interfaces, crypto offload or NVIDIA ComputeDomain channels (dra.cpu, dra.memory, dra.net, SR-IOV, qat.intel.com, compute-domain.nvidia.com); else one when its driver is a known accelerator driver (gpu.nvidia.com, gpu.amd.com, gpu.intel.com, gaudi.intel.com, npu.intel.com, tpu.google.com, neuron.aws.com) or its ResourceSlices publish devices with a memory capacity; else when its name or driver matches settings.acceleratorPattern (gpu, tpu, npu, fpga, accel).',
    remediation: 'Configure device zeroing for the accelerator DeviceClass, or record with the annotation that the driver zeroes devices on release.',
    rootCause: 'device-class',
  },
  POD001: {
    family: 'POD',
    severity: 'high',
    title: 'DRA component runs privileged or with host-level capabilities',
    description:
      'A container (including init and ephemeral containers) of a DRA component pod (a kubelet plugin, a pod running as a DRA component identity, any pod of the namespace of a DRA driver such as its controller and the daemons it creates there, or a workload a DRA component identity may create in its platform namespace; kube-system, kube-public and kube-node-lease count only their kubelet plugins and component identities) runs with securityContext.privileged: true (all host devices and capabilities, no seccomp/AppArmor confinement) or adds a host-level capability the Pod Security baseline level refuses: ALL, SYS_ADMIN, SYS_MODULE, SYS_RAWIO, SYS_PTRACE, SYS_BOOT, SYS_TIME, DAC_READ_SEARCH, NET_ADMIN, BPF, PERFMON, MAC_ADMIN, MAC_OVERRIDE, SYSLOG or AUDIT_CONTROL.',
    remediation: 'Run the DRA component containers unprivileged, without host-level capabilities, with only the capabilities and host paths they need.',
    rootCause: 'workload',
  },
  POD002: {
    family: 'POD',
    severity: 'medium',
    title: 'DRA component pod shares host namespaces or mounts host-wide paths',
    description:
      'A DRA component pod uses hostPID, hostNetwork or hostIPC, mounts exactly /, /proc or /sys from the host, or mounts a container runtime socket (containerd, CRI-O, Docker, cri-dockerd) or the NRI socket, or a directory holding one (/run, /var/run, /var, /run/containerd, /var/run/nri...): either socket is control of every container on the node.',
    remediation:
      'Drop hostPID/hostNetwork/hostIPC and mount only the kubelet plugin directories, not /, /proc or /sys; mount a runtime or NRI socket only where the component must use it, as the socket file itself.',
    rootCause: 'workload',
  },
  POD003: {
    family: 'POD',
    severity: 'low',
    title: 'DRA component container lacks baseline hardening',
    description:
      'A DRA component container (or init container) lacks capabilities drop ALL, readOnlyRootFilesystem, runAsNonRoot (pod or container; a non-zero runAsUser counts as non-root), seccomp RuntimeDefault (pod or container) or allowPrivilegeEscalation=false. A privileged container is not asked for seccomp, capabilities drop ALL or allowPrivilegeEscalation=false, nor one adding SYS_ADMIN for allowPrivilegeEscalation=false: they cannot apply (POD001 reports the privilege). One finding per container.',
    remediation:
      'Set drop ALL capabilities, readOnlyRootFilesystem, runAsNonRoot (with a non-zero runAsUser), seccompProfile RuntimeDefault and allowPrivilegeEscalation=false on the DRA component containers; on a privileged container only readOnlyRootFilesystem and runAsNonRoot take effect (the others need privileged removed first, POD001).',
    rootCause: 'workload',
  },
  POD004: {
    family: 'POD',
    severity: 'critical',
    title: 'Tenant pod mounts the kubelet plugin directories',
    description:
      'A pod in a tenant namespace that is not a DRA driver pod mounts /var/lib/kubelet/plugins or /var/lib/kubelet/plugins_registry (or a parent or a sub-directory of them): it can talk to every driver socket on the node.',
    remediation: 'Remove the kubelet plugin directory mounts from tenant pods and forbid hostPath in tenant namespaces (Pod Security Admission restricted).',
    rootCause: 'workload',
  },
  AUDIT001: {
    family: 'AUDIT',
    rootCause: 'object',
    severity: 'high',
    title: 'ResourceClaim with adminAccess created',
    description:
      'From an audit log (--audit): a ResourceClaim or ResourceClaimTemplate create whose request asks for adminAccess: true (seen only when the audit policy logs request bodies: Request or RequestResponse).',
    remediation:
      'Confirm the namespace is meant to carry resource.kubernetes.io/admin-access=true and that the creator should have device admin access; otherwise remove the label and the claim.',
  },
  AUDIT002: {
    family: 'AUDIT',
    rootCause: 'object',
    severity: 'high',
    title: 'Opaque device parameters over 16 KiB',
    description:
      "From an audit log: a claim, claim template or DeviceClass write carrying opaque parameters larger than 16,384 characters of JSON. The API server refuses more than 10 KiB, so such a request is a probe of the drivers' parsers or of validation (needs request bodies in the log).",
    remediation: 'Find out why the identity sends oversized driver parameters; restrict who can create claims in that namespace.',
  },
  AUDIT003: {
    family: 'AUDIT',
    rootCause: 'object',
    severity: 'medium',
    title: 'DeviceClass or ResourceSlice mutated by a non-driver',
    description:
      'From an audit log: any DeviceClass create/update/patch/delete, and ResourceSlice writes by an identity that is not a node, not a DRA driver (a service account the report lists as a claim status writer) and not the garbage collector deleting slices.',
    remediation: 'DeviceClasses should change only through reviewed deployments; slices only through their driver. Remove the write grant from the identity.',
  },
  AUDIT004: {
    family: 'AUDIT',
    rootCause: 'object',
    severity: 'high',
    title: 'Denied resourceclaims/driver or resourceclaims/binding writes',
    description:
      'From an audit log: claim status writes refused by the v1.36 granular checks on resourceclaims/driver or resourceclaims/binding (a 422 or 403 on resourceclaims/status naming them): a driver that lost (or never had) its grant after a least-privilege rollout, or an identity probing claim status.',
    remediation:
      'If the identity is a driver, grant associated-node:update/patch on resourceclaims/driver for its driver name (resourceNames); otherwise investigate the source node.',
  },
  AUDIT005: {
    family: 'AUDIT',
    rootCause: 'object',
    severity: 'critical',
    title: 'nodes/status written by impersonating another node',
    description:
      "From an audit log: nodes/status update/patch made (or attempted) while impersonating system:node:X by a requester whose token is not bound to X: legacy or arbitrary-node impersonation used to rewrite another node's status.",
    remediation:
      'Replace legacy/arbitrary-node impersonation grants with constrained impersonation (impersonate:associated-node + impersonate-on:associated-node:update on nodes/status).',
  },
  AUDIT006: {
    family: 'AUDIT',
    rootCause: 'object',
    severity: 'medium',
    title: 'API server audit log misses claim mutations',
    description:
      'The kube-apiserver flags are visible (a kube-system kube-apiserver-* pod) and there is no --audit-policy-file (nothing is audited), or no backend (--audit-log-path or --audit-webhook-config-file) to write events to: denied driver writes, adminAccess claims and DeviceClass edits leave no trace.',
    remediation:
      'Write the policy printed by `dra-posture audit-policy` (merged above your own rules) and start kube-apiserver with --audit-policy-file and --audit-log-path (or --audit-webhook-config-file); then read the log with `dra-posture report --audit PATH`.',
  },
} as const satisfies Record<string, CatalogEntry>;

export type CheckId = keyof typeof CATALOG;

/** Every check ID in catalogue order. */
export const CHECK_IDS = Object.keys(CATALOG) as CheckId[];

/** The catalogue entry of a check ID, or undefined for an ID this version does not know. */
export function catalogEntry(id: string): CatalogEntry | undefined {
  return Object.hasOwn(CATALOG, id) ? CATALOG[id as CheckId] : undefined;
}

/** The catalogue as a list in catalogue order: what `dra-posture checks` prints and the SARIF and JUnit outputs describe. */
export function catalogList(): (CatalogEntry & { id: CheckId; familyLabel: string })[] {
  return CHECK_IDS.map((id) => ({ id, ...CATALOG[id], familyLabel: CHECK_FAMILIES[CATALOG[id].family] }));
}
