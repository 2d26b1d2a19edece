import type { AuthzEngine } from '@/lib/authz/authz-engine';
import { serviceAccountUser } from '@/lib/authz/user-info';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { Pod, SubjectRef } from '@/lib/k8s/types';
import type { AnalysisContext, ComponentReasons } from '@/lib/analysis/context-types';
import { ClaimWriterAnalysis } from '@/lib/analysis/node-writers/claim-status-writers';
import { listNodeStatusWriters } from '@/lib/analysis/node-writers/node-status-writers';
import type { NodeStatusWriterMap } from '@/lib/analysis/node-writers/node-writer-accumulator';
import { analyseQuotas, type QuotaAnalysis } from '@/lib/analysis/quota/quota-usage';
import { analyseDeviceClasses, type DeviceClassAnalysis } from '@/lib/analysis/zeroing/device-classes';
import { compareSubjects, refKey } from '@/lib/k8s/refs';
import type { AnalysisSettings } from '@/lib/analysis/settings';
import { AccessIndex, type AccessEntry, type AccessQuestion } from './access';
import { roleBindingMembership, type Membership } from './membership';
import { podIndexOf, type PodIndex } from './pod-index';
import { podsByAccount } from './pods-by-account';
import { canonicalSubject, isBroadGroup, isMastersGroup, serviceAccountRef, usernameOf } from './identities';
import { findComponentPods, type ComponentPod } from './component-pods';
import { slicePinningPolicies, type PinningPolicy } from './slice-pinning';
import { daemonSetOwnerName, indexReplicaSets, mountsPluginDir, ownerOfPod, podServiceAccount, templatePods } from './pod-facts';
import { Q } from './questions';
import { privilegedNamespaceTest } from './pod-security';
import { PROBE_NAME } from '@/lib/analysis/evidence';

export const ROLE_LABEL = 'dra-posture.io/role';
const ALWAYS_PLATFORM = ['kube-system', 'kube-public', 'kube-node-lease'];
const CLAIM_STATUS_REASON = 'can update resourceclaims/status';

/**
 * Builds the shared analysis context once per report: namespace classes, DRA driver pods, DRA
 * component and node-local identities, admin-equivalence (DESIGN §4), all decided by the engine.
 */
export function buildAnalysisContext(state: ClusterState, engine: AuthzEngine, settings: AnalysisSettings): AnalysisContext {
  const namespaces = collectNamespaces(state);
  const pods = [...state.pods, ...templatePods(state)];
  const replicaSets = indexReplicaSets(state);

  // DRA driver pods: mount a kubelet plugin directory AND their service account can create or update ResourceSlices.
  const pluginDirPods = pods.filter(mountsPluginDir);
  const saCanWriteSlices = memo((key: string) => {
    const [ns, name] = key.split('/');
    const user = serviceAccountUser(ns, name);
    const can = (verb: string, resourceName: string) =>
      engine.authorize({ user, resource: { verb, group: 'resource.k8s.io', resource: 'resourceslices', subresource: '', namespace: '', name: resourceName } })
        .allowed;
    return can('create', '') || can('update', PROBE_NAME);
  });
  const driverPods = pluginDirPods.filter((p) => saCanWriteSlices(`${p.metadata.namespace ?? ''}/${podServiceAccount(p)}`));
  // Driver pods by namespace and name (as podKey, without building a key per pod of the cluster).
  const driverPodNames = new Map<string, Set<string>>();
  for (const p of driverPods) {
    const ns = p.metadata.namespace ?? '';
    let names = driverPodNames.get(ns);
    if (!names) driverPodNames.set(ns, (names = new Set()));
    names.add(p.metadata.name);
  }
  const isDriverPod = (pod: Pod) => driverPodNames.get(pod.metadata.namespace ?? '')?.has(pod.metadata.name) ?? false;

  // Platform / tenant namespaces.
  const fixedPlatform = new Set([...ALWAYS_PLATFORM, ...settings.platformNamespaces]);
  const labels = new Map(state.namespaces.map((n) => [n.metadata.name, n.metadata.labels ?? {}]));
  const driverNamespaces = new Set(driverPods.map((p) => p.metadata.namespace ?? ''));
  const readPlatform = (ns: string): boolean => {
    if (fixedPlatform.has(ns)) return true;
    const role = labels.get(ns)?.[ROLE_LABEL];
    if (role === 'platform') return true;
    if (role === 'tenant') return false;
    return driverNamespaces.has(ns);
  };
  // Asked for the same few thousand namespaces again and again by the checks and fixes: one lookup
  // per answer rather than three and a label read.
  const platform = new Map<string, boolean>();
  const isPlatformNamespace = (ns: string): boolean => {
    let known = platform.get(ns);
    if (known === undefined) platform.set(ns, (known = readPlatform(ns)));
    return known;
  };

  const accessIndex = new AccessIndex(engine);
  const ask = (q: AccessQuestion) => accessIndex.whoCan(q);

  // DRA component identities: service accounts that can write ResourceSlices or ResourceClaim
  // status/binding/driver (directly or as a User subject with their username), or run driver pods.
  // Grants to groups are reported on the group itself, not spread over every member.
  const componentReasons = new Map<string, ComponentReasons>();
  const reasonsOf = (sa: SubjectRef) => {
    const key = refKey(sa);
    let r = componentReasons.get(key);
    if (!r) componentReasons.set(key, (r = { capabilities: [], driverWorkloads: [] }));
    return r;
  };
  const capability = (label: string, entries: AccessEntry[]) => {
    for (const e of entries) if (e.subject.kind === 'ServiceAccount' && e.via === 'rbac') reasonsOf(e.subject).capabilities.push(label);
  };
  capability('can write ResourceSlices', [...ask(Q.sliceCreate), ...ask(Q.sliceModify)]);
  capability(CLAIM_STATUS_REASON, ask(Q.claimStatus));
  capability('can write resourceclaims/binding', ask(Q.claimBinding));
  capability('can write resourceclaims/driver', ask(Q.claimDriver));
  for (const p of driverPods) {
    const r = reasonsOf(serviceAccountRef(p.metadata.namespace ?? '', podServiceAccount(p)));
    const owner = ownerOfPod(replicaSets, p);
    if (!r.driverWorkloads.some((w) => refKey(w) === refKey(owner))) r.driverWorkloads.push(owner);
  }
  for (const r of componentReasons.values()) r.capabilities = [...new Set(r.capabilities)];
  // With granular status authorization (on by default from 1.36), update on resourceclaims/status
  // alone changes none of the status fields (allocation and reservedFor also need binding, devices
  // need driver verbs), so the API server refuses every write that matters. A tenant account holding
  // only that is a tenant with a grant that no longer works (DRA006), not a DRA component whose
  // pods and rights are judged as one: a chart that gives each tenant app that rule made every tenant
  // workload a "component" (1,257 POD003 issues on the stamped bench cluster). A platform account
  // holding it stays one: it is there to serve DRA, and the gate can be turned off.
  if (engine.features.granularStatusAuthorization) {
    for (const [key, r] of componentReasons) {
      const statusOnly = r.driverWorkloads.length === 0 && r.capabilities.length === 1 && r.capabilities[0] === CLAIM_STATUS_REASON;
      if (statusOnly && !isPlatformNamespace(parseSaKey(key).namespace ?? '')) componentReasons.delete(key);
    }
  }
  const draComponents = [...componentReasons.keys()].map(parseSaKey).sort(compareSubjects);
  const componentKeys = new Set(componentReasons.keys());

  // Node-local identities: service accounts of DaemonSet pods and of DRA driver pods.
  const nodeLocal = new Map<string, SubjectRef>();
  for (const p of pods) {
    if (daemonSetOwnerName(p) === undefined && !isDriverPod(p)) continue;
    const sa = serviceAccountRef(p.metadata.namespace ?? '', podServiceAccount(p));
    nodeLocal.set(refKey(sa), sa);
  }
  const nodeLocalIdentities = [...nodeLocal.values()].sort(compareSubjects);

  const adminEntries = ask(Q.adminProbe).filter((e) => e.via === 'rbac');
  // Asked ~67,000 times on the diverse bench cluster (each check filters its holders by it) for a few
  // thousand identities: the answer is kept per identity.
  const adminByKey = new Map<string, boolean>();
  const isAdminEquivalent = (subject: SubjectRef): boolean => {
    const key = refKey(subject);
    let admin = adminByKey.get(key);
    if (admin === undefined) {
      admin = isMastersGroup(subject) || accessIndex.entriesFor(adminEntries, subject).length > 0;
      adminByKey.set(key, admin);
    }
    return admin;
  };

  // System identities: system:* users (scheduler, controller-manager, nodes...), system:* groups
  // other than the "everyone" groups, the settings' allocator identities, and kube-system service
  // accounts bound by a bootstrap ClusterRoleBinding (system:* name or the rbac-defaults label).
  const bootstrapSAs = new Set<string>();
  for (const b of state.clusterRoleBindings) {
    const bootstrap = b.metadata.name.startsWith('system:') || b.metadata.labels?.['kubernetes.io/bootstrapping'] === 'rbac-defaults';
    if (!bootstrap) continue;
    for (const s of b.subjects ?? []) {
      const c = s.kind === 'ServiceAccount' || s.kind === 'User' ? canonicalSubject({ kind: s.kind, name: s.name, namespace: s.namespace }) : undefined;
      if (c?.kind === 'ServiceAccount' && c.namespace === 'kube-system') bootstrapSAs.add(refKey(c));
    }
  }
  const allocators = new Set(settings.allocatorIdentities);
  const isSystemIdentity = (subject: SubjectRef): boolean => {
    const s = canonicalSubject(subject);
    if (allocators.has(usernameOf(s))) return true;
    if (s.kind === 'Group') return s.name.startsWith('system:') && !isBroadGroup(s.name);
    if (s.kind === 'User') return s.name.startsWith('system:');
    return bootstrapSAs.has(refKey(s));
  };

  let podIndex: PodIndex | undefined;
  let podsOfAccount: ((namespace: string, name: string) => readonly Pod[]) | undefined;
  let claimWriters: ClaimWriterAnalysis | undefined;
  let nodeStatusWriters: NodeStatusWriterMap | undefined;
  let workloadAccounts: SubjectRef[] | undefined;
  let members: Membership | undefined;
  let drivers: string[] | undefined;
  let quotas: QuotaAnalysis | undefined;
  let deviceClasses: DeviceClassAnalysis[] | undefined;
  let componentPods: ComponentPod[] | undefined;
  let pinning: PinningPolicy[] | undefined;
  const noReasons: ComponentReasons = { capabilities: [], driverWorkloads: [] };

  const ctx: AnalysisContext = {
    state,
    engine,
    settings,
    isPlatformNamespace,
    isTenantNamespace: (ns) => !isPlatformNamespace(ns),
    admitsPrivilegedPods: privilegedNamespaceTest(state),
    get draWorkloadAccounts() {
      // A DRA driver's workloads: its component identities and the accounts of its component pods.
      return (workloadAccounts ??= sortedUnique([
        ...draComponents,
        ...ctx.draComponentPods.map((c) => serviceAccountRef(c.pod.metadata.namespace ?? '', podServiceAccount(c.pod))),
      ]));
    },
    namespaces,
    driverPods,
    isDriverPod,
    pluginDirPods,
    draComponents,
    isDraComponent: (subject) => componentKeys.has(refKey(canonicalSubject(subject))),
    nodeLocalIdentities,
    isNodeLocalIdentity: (subject) => nodeLocal.has(refKey(canonicalSubject(subject))),
    isAdminEquivalent: (subject) => isAdminEquivalent(canonicalSubject(subject)),
    isSystemIdentity,
    componentReasons: (subject) => componentReasons.get(refKey(canonicalSubject(subject))) ?? noReasons,
    ownerOf: (pod) => ownerOfPod(replicaSets, pod),
    pods,
    podsOfServiceAccount(namespace, name) {
      return (podsOfAccount ??= podsByAccount(pods))(namespace, name);
    },
    access: accessIndex,
    get podIndex() {
      return (podIndex ??= podIndexOf(state.pods));
    },
    get nodeStatusWriters() {
      return (nodeStatusWriters ??= listNodeStatusWriters(ctx));
    },
    get claimWriters() {
      return (claimWriters ??= new ClaimWriterAnalysis(ctx));
    },
    get roleBindingMembers() {
      return (members ??= roleBindingMembership(engine.rbac));
    },
    get knownDrivers() {
      return (drivers ??= collectDrivers(state));
    },
    get quotas() {
      return (quotas ??= analyseQuotas(state));
    },
    get deviceClasses() {
      return (deviceClasses ??= analyseDeviceClasses(ctx));
    },
    get draComponentPods() {
      return (componentPods ??= findComponentPods(ctx));
    },
    get slicePinning() {
      return (pinning ??= slicePinningPolicies(state));
    },
  };
  return ctx;
}

/** Driver names known in the cluster (ResourceSlices and claim allocation results), sorted. */
function collectDrivers(state: ClusterState): string[] {
  const set = new Set<string>();
  for (const s of state.resourceSlices) if (s.spec?.driver) set.add(s.spec.driver);
  for (const c of state.resourceClaims) for (const r of c.status?.allocation?.devices?.results ?? []) if (r.driver) set.add(r.driver);
  return [...set].sort();
}

function collectNamespaces(state: ClusterState): string[] {
  const set = new Set<string>();
  for (const n of state.namespaces) set.add(n.metadata.name);
  const collections = [
    state.pods,
    state.serviceAccounts,
    state.configMaps,
    state.persistentVolumeClaims,
    state.resourceQuotas,
    state.daemonSets,
    state.deployments,
    state.statefulSets,
    state.replicaSets,
    state.roles,
    state.roleBindings,
    state.resourceClaims,
    state.resourceClaimTemplates,
  ];
  for (const list of collections) for (const o of list) if (o.metadata.namespace) set.add(o.metadata.namespace);
  return [...set].sort();
}

function sortedUnique(subjects: SubjectRef[]): SubjectRef[] {
  return [...new Map(subjects.map((s) => [refKey(s), s])).values()].sort(compareSubjects);
}

function parseSaKey(key: string): SubjectRef {
  const [, namespace, name] = key.split('/');
  return serviceAccountRef(namespace, name);
}

function memo<T>(fn: (key: string) => T): (key: string) => T {
  const m = new Map<string, T>();
  return (key) => {
    if (!m.has(key)) m.set(key, fn(key));
    return m.get(key)!;
  };
}
