import type { AuthzEngine } from '@/lib/authz/authz-engine';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { ObjectRef, Pod, SubjectRef } from '@/lib/k8s/types';
import type { AccessIndex } from './context/access';
import type { Membership } from './context/membership';
import type { PodIndex } from './context/pod-index';
import type { ComponentPod } from './context/component-pods';
import type { PinningPolicy } from './context/slice-pinning';
import type { ClaimWriterAnalysis } from './node-writers/claim-status-writers';
import type { NodeStatusWriterMap } from './node-writers/node-writer-accumulator';
import type { QuotaAnalysis } from './quota/quota-usage';
import type { AnalysisSettings } from './settings';
import type { DeviceClassAnalysis } from './zeroing/device-classes';

/** Why a service account is a DRA component identity (DESIGN §4), for messages. */
export interface ComponentReasons {
  capabilities: string[];
  driverWorkloads: ObjectRef[];
}

/**
 * Everything checks and analyses share, computed once per report (DESIGN.md §4 terms).
 * Built by buildAnalysisContext (lib/analysis/context/build-analysis-context.ts). The context owns
 * what is derived from the cluster: the members below marked lazy are computed on first use and
 * kept here, never in module-level caches or side tables.
 */
export interface AnalysisContext {
  state: ClusterState;
  engine: AuthzEngine;
  settings: AnalysisSettings;

  /**
   * kube-system, kube-public, kube-node-lease and the settings list; otherwise the label
   * dra-posture.io/role (platform|tenant) decides when present; otherwise a namespace running a DRA
   * driver pod is platform.
   */
  isPlatformNamespace(namespace: string): boolean;
  /** Every namespace that is not platform (dra-posture.io/role=tenant makes one explicitly). */
  isTenantNamespace(namespace: string): boolean;
  /** Whether Pod Security admission lets privileged pods into the namespace (no baseline/restricted enforce label). */
  admitsPrivilegedPods(namespace: string): boolean;
  /** Lazy: service accounts of DRA component identities and of DRA component pods (draComponentPods: plugins, controllers, the daemons they create). */
  readonly draWorkloadAccounts: SubjectRef[];
  /** All namespace names known (Namespace objects plus namespaces seen on objects), sorted. */
  namespaces: string[];

  /** Pods that mount /var/lib/kubelet/plugins or /var/lib/kubelet/plugins_registry (hostPath, or a parent of them) AND whose service account can create or update ResourceSlices. */
  driverPods: Pod[];
  isDriverPod(pod: Pod): boolean;
  /** Pods mounting the kubelet plugin directories, whether or not they are driver pods. */
  pluginDirPods: Pod[];

  /**
   * Service accounts that can write ResourceSlices or ResourceClaim status/binding/driver (granted to
   * the service account itself, or to a User subject with its username), or run DRA driver pods
   * (DESIGN §4). Grants to groups are reported on the group, not spread over its members.
   */
  draComponents: SubjectRef[];
  isDraComponent(subject: SubjectRef): boolean;
  /** Service accounts used by DaemonSet pods or DRA driver pods. */
  nodeLocalIdentities: SubjectRef[];
  isNodeLocalIdentity(subject: SubjectRef): boolean;
  /** Holds * verbs on * resources in * groups cluster-wide (bound to such a role, or in system:masters). */
  isAdminEquivalent(subject: SubjectRef): boolean;
  /** A bootstrap/system identity: system:* users and groups, kube-system controller SAs. */
  isSystemIdentity(subject: SubjectRef): boolean;

  /** Why a service account counts as a DRA component (empty lists for other subjects). */
  componentReasons(subject: SubjectRef): ComponentReasons;
  /** The workload owning a pod (DaemonSet, Deployment via ReplicaSet, StatefulSet), or the pod itself. */
  ownerOf(pod: Pod): ObjectRef;
  /** The cluster's pods plus stand-ins for workloads whose pods are absent (see templatePods). */
  pods: Pod[];
  /** Lazy: the pods (of `pods`) that run as a service account, in their order there. */
  podsOfServiceAccount(namespace: string, name: string): readonly Pod[];

  /** Lazy: "who can do X somewhere?" answers over the engine. */
  readonly access: AccessIndex;
  /** Lazy: service accounts per node and nodes per service account (a pod token names its node). */
  readonly podIndex: PodIndex;
  /** Lazy: who can write which nodes' nodes/status, by every path (shared by the report, NODE001 and the blast radius). */
  readonly nodeStatusWriters: NodeStatusWriterMap;
  /** Lazy: who can write status.devices of which allocated claims (shared by the report and the blast radius). */
  readonly claimWriters: ClaimWriterAnalysis;
  /** Lazy: RoleBinding subjects per namespace and namespaces per subject. */
  readonly roleBindingMembers: Membership;
  /** Lazy: driver names known in the cluster (ResourceSlices and allocation results), sorted. */
  readonly knownDrivers: string[];
  /** Lazy: DRA quota usage. */
  readonly quotas: QuotaAnalysis;
  /** Lazy: DeviceClasses with their driver, zeroing state and users. */
  readonly deviceClasses: DeviceClassAnalysis[];
  /** Lazy: DRA component pods (kubelet plugins, pods of DRA component identities, pods in a DRA driver's own namespace, workloads DRA components may create in their platform namespace), with why; POD001-POD003 judge them. */
  readonly draComponentPods: ComponentPod[];
  /**
   * Lazy: the bound ValidatingAdmissionPolicies that pin node-local ResourceSlice writes to the writer's
   * own node (context/slice-pinning.ts). DRA012 and the issues' reach and attack paths read it here, so a
   * policy evaluator that replaces the recognition of the policy's form changes them all at once.
   */
  readonly slicePinning: readonly PinningPolicy[];
}
