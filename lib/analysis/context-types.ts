import type { AuthzEngine } from '@/lib/authz/authz-engine';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { ObjectRef, Pod, SubjectRef } from '@/lib/k8s/types';
import type { AnalysisSettings } from './settings';

/**
 * Everything checks and analyses share, computed once per report (DESIGN.md §4 terms).
 * Built by buildAnalysisContext (lib/analysis/context/build-analysis-context.ts).
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

  /** Nodes where pods of this service account run (its tokens can carry these node names). */
  nodesOfServiceAccount(namespace: string, name: string): string[];
  /** The workload owning a pod (DaemonSet, Deployment via ReplicaSet, StatefulSet), or the pod itself. */
  ownerOf(pod: Pod): ObjectRef;
}

export const subjectKey = (s: SubjectRef): string => `${s.kind}/${s.namespace ?? ''}/${s.name}`;
