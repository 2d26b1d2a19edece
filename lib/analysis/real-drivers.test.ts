import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { buildClusterState } from '@/lib/k8s/build-cluster-state';
import { parseDocuments } from '@/server/sources/parse-documents';
import { buildAnalysisContext } from './context/build-analysis-context';
import { DEFAULT_SETTINGS } from './settings';
import { runChecks } from './checks/registry';
import type { DetailedFinding, Report } from './types';
import { buildReport } from '@/lib/report/build-report';

// Twelve real DRA drivers, each as its Helm chart or published manifests render with default values
// (lib/analysis/__fixtures__/real-drivers/, every file's header names the repository, commit and templates),
// installed into a small v1.36.3 cluster (_base.yaml, with the API server's bootstrap RBAC from
// demo/manifests/35-rbac-bootstrap.yaml). Per driver: the findings that must appear and those that must not, read
// from the chart facts and the Kubernetes semantics.

const FIXTURES = join(import.meta.dirname, '__fixtures__', 'real-drivers');
const BOOTSTRAP = join(import.meta.dirname, '..', '..', 'demo', 'manifests', '35-rbac-bootstrap.yaml');

const cache = new Map<string, DetailedFinding[]>();

/**
 * Every finding of the base cluster with the given driver fixtures installed (the same loader as snapshots);
 * `edit` may change the parsed documents first, for a variant of a chart.
 */
function analyse(drivers: string[], edit?: (doc: any) => void): DetailedFinding[] {
  const state = clusterWith(drivers, edit);
  return runChecks(buildAnalysisContext(state, createAuthzEngine(state), DEFAULT_SETTINGS));
}

/** The base cluster with the given driver fixtures installed, as parsed documents; `extra` adds documents (claims...). */
function documentsWith(drivers: string[], edit?: (doc: any) => void, extra: object[] = []) {
  const files = [BOOTSTRAP, join(FIXTURES, '_base.yaml'), ...drivers.map((d) => join(FIXTURES, `${d}.yaml`))];
  const items = files.flatMap((f) => parseDocuments(readFileSync(f), basename(f)));
  items.push(...extra.flatMap((doc, i) => parseDocuments(JSON.stringify(doc), `extra-${i}.json`)));
  if (edit) for (const item of items) edit(item.value);
  return items;
}

function clusterWith(drivers: string[], edit?: (doc: any) => void, extra: object[] = []) {
  const items = documentsWith(drivers, edit, extra);
  return buildClusterState(items, { kind: 'snapshot', name: drivers.join(',') || 'base' }, { onInvalid: 'fail' });
}

/** The whole report (issues, risk, attack paths) of the base cluster with these drivers and extra documents. */
function reportWith(drivers: string[], extra: object[] = [], edit?: (doc: any) => void): Report {
  return buildReport(clusterWith(drivers, edit, extra));
}

function findingsWith(...drivers: string[]): DetailedFinding[] {
  const key = drivers.join(',');
  let found = cache.get(key);
  if (!found) cache.set(key, (found = analyse(drivers)));
  return found;
}

const ref = (r: { kind: string; namespace?: string; name: string }) => `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;
/** `CHECK subjects | objects`, as demo-checks.test.ts writes a finding. */
const row = (f: DetailedFinding) => `${f.check} ${f.subjects.map(ref).join(', ')} | ${f.objects.map(ref).join(', ')}`;
const rows = (driver: string) => findingsWith(driver).map(row);

const PERMISSION = /^(DRA|NODE)\d+$/;
/** The permission checks (DRA*, NODE*) that name this subject, sorted. */
const permissionChecks = (driver: string, subject: string) =>
  findingsWith(driver)
    .filter((f) => PERMISSION.test(f.check) && f.subjects.some((s) => ref(s) === subject))
    .map((f) => f.check)
    .sort();
/** The pod checks (POD*) that name this workload, one entry per finding, sorted. */
const podChecks = (driver: string, workload: string) =>
  findingsWith(driver)
    .filter((f) => f.check.startsWith('POD') && ref(f.objects[0]) === workload)
    .map((f) => f.check)
    .sort();
/** Containers POD003 names for a workload (its second object is `Container ns/Kind/workload/container`). */
const unhardened = (driver: string, workload: string) =>
  findingsWith(driver)
    .filter((f) => f.check === 'POD003' && ref(f.objects[0]) === workload)
    .map((f) => f.objects[1].name.split('/').pop())
    .sort();
/** The values a check's evidence points at for a workload (host paths, host namespace flags...). */
const evidenceValues = (driver: string, check: string, workload: string) =>
  findingsWith(driver)
    .filter((f) => f.check === check && ref(f.objects[0]) === workload)
    .flatMap((f) => f.evidence.flatMap((e) => (e.type === 'field' ? [e.value] : [])));
const zeroing = (driver: string) =>
  findingsWith(driver)
    .filter((f) => f.check === 'ZERO002')
    .map((f) => f.objects[0].name)
    .sort();

describe('real-driver base cluster', () => {
  it('reports nothing but audit logging on the base alone: bootstrap roles (scheduler, resource-claim controller, kube-proxy) are expected holders and the API server runs Node,RBAC with NodeRestriction', () => {
    // kubeadm leaves audit logging off (AUDIT006); everything else is stock.
    expect(findingsWith().filter((f) => !f.check.startsWith('AUDIT'))).toEqual([]);
  });
});

describe('dra-example-driver (the 1.36 reference driver)', () => {
  const SA = 'ServiceAccount dra-example-driver/dra-example-driver-service-account';
  const DS = 'DaemonSet dra-example-driver/dra-example-driver-kubeletplugin';

  it('has no permission finding: associated-node verbs on resourceclaims/driver scoped to gpu.example.com, slice writes pinned to its node by its policy, no nodes writes', () => {
    expect(permissionChecks('dra-example-driver', SA)).toEqual([]);
  });
  it('reports its privileged plugin container (POD001, POD003) but no host namespace or whole-host mount (no POD002)', () => {
    expect(podChecks('dra-example-driver', DS)).toEqual(['POD001', 'POD003']);
    expect(unhardened('dra-example-driver', DS)).toEqual(['plugin']);
  });
  it('reports gpu.example.com as an accelerator class without zeroing: its Unprepare only deletes the CDI spec', () => {
    expect(zeroing('dra-example-driver')).toEqual(['gpu.example.com']);
  });
});

describe('NVIDIA GPU + ComputeDomain (dra-driver-nvidia-gpu)', () => {
  const NS = 'dra-driver-nvidia-gpu';
  const PLUGIN = `ServiceAccount ${NS}/dra-driver-nvidia-gpu-service-account-kubeletplugin`;
  const CONTROLLER = `ServiceAccount ${NS}/dra-driver-nvidia-gpu-service-account-controller`;
  const DAEMON = `ServiceAccount ${NS}/compute-domain-daemon-service-account`;
  const DS = `DaemonSet ${NS}/dra-driver-nvidia-gpu-kubelet-plugin`;

  it('kubelet plugin: nodes update/patch of every node (NODE003) and slice writes not pinned (DRA012), nothing else', () => {
    // The chart's slice policy matches ...:dra-driver-nvidia-gpu-service-account, an account the chart never creates;
    // the plugin runs as ...-service-account-kubeletplugin, so nothing ties its slice writes to its own node.
    expect(permissionChecks('nvidia-gpu', PLUGIN)).toEqual(['DRA012', 'NODE003']);
    expect(rows('nvidia-gpu')).toContain(
      `DRA012 ${PLUGIN} | ClusterRole dra-driver-nvidia-gpu-clusterrole-kubeletplugin, ClusterRoleBinding dra-driver-nvidia-gpu-clusterrole-binding-kubeletplugin`,
    );
  });
  it('controller: writes DaemonSets in its namespace, which admits privileged pods (DRA008), and updates every node (NODE003)', () => {
    // The namespace has no Pod Security label, so a DaemonSet it writes may run privileged pods on every node.
    expect(permissionChecks('nvidia-gpu', CONTROLLER)).toEqual(['DRA008', 'NODE003']);
    expect(rows('nvidia-gpu')).toContain(
      `DRA008 ${CONTROLLER} | Role ${NS}/dra-driver-nvidia-gpu-role-controller, RoleBinding ${NS}/dra-driver-nvidia-gpu-role-binding-controller`,
    );
  });
  it('ComputeDomain daemon: patches any pod cluster-wide (DRA008), so one GPU node can change any pod', () => {
    // compute-domain-daemon-role grants pods get/list/watch/patch through a ClusterRoleBinding.
    expect(permissionChecks('nvidia-gpu', DAEMON)).toEqual(['DRA008']);
    expect(rows('nvidia-gpu')).toContain(`DRA008 ${DAEMON} | ClusterRole compute-domain-daemon-role, ClusterRoleBinding compute-domain-daemon-role-binding`);
  });
  it('kubelet plugin pods: three privileged containers (one POD001, a POD003 each) and the host root mounted twice (POD002)', () => {
    // nvidiaDriverRoot "/" makes both driver-root and driver-root-parent hostPath "/".
    expect(podChecks('nvidia-gpu', DS)).toEqual(['POD001', 'POD002', 'POD003', 'POD003', 'POD003']);
    expect(unhardened('nvidia-gpu', DS)).toEqual(['compute-domains', 'gpus', 'init-container']);
    expect(evidenceValues('nvidia-gpu', 'POD002', DS)).toEqual(['/', '/']);
  });
  it('reports the GPU, MIG and VFIO classes without zeroing, not the ComputeDomain classes (IMEX channels and daemon slots hold no device memory)', () => {
    expect(zeroing('nvidia-gpu')).toEqual(['gpu.nvidia.com', 'mig.nvidia.com', 'vfio.gpu.nvidia.com']);
  });
});

describe('CPU (dra-driver-cpu)', () => {
  const SA = 'ServiceAccount kube-system/dra-driver-cpu';
  const DS = 'DaemonSet kube-system/dra-driver-cpu';

  it('slice writes with no pinning policy (DRA012) and nothing else: resourceclaims/driver is associated-node and scoped to dra.cpu', () => {
    expect(permissionChecks('cpu', SA)).toEqual(['DRA012']);
    expect(rows('cpu')).toContain(`DRA012 ${SA} | ClusterRole dra-driver-cpu, ClusterRoleBinding dra-driver-cpu`);
  });
  it('host network and no hardening (POD002, POD003), not privileged (no POD001)', () => {
    expect(podChecks('cpu', DS)).toEqual(['POD002', 'POD003']);
    expect(evidenceValues('cpu', 'POD002', DS)).toContain(true);
    expect(unhardened('cpu', DS)).toEqual(['dracpu']);
  });
  it('reports the NRI socket directory /var/run/nri it mounts (POD002): an NRI plugin can adjust or stop every container on the node', () => {
    expect(evidenceValues('cpu', 'POD002', DS)).toContain('/var/run/nri');
  });
  it('does not treat dra.cpu as an accelerator', () => {
    expect(zeroing('cpu')).toEqual([]);
  });
});

describe('AMD GPU (ROCm k8s-gpu-dra-driver)', () => {
  const SA = 'ServiceAccount k8s-gpu-dra-driver/k8s-gpu-dra-driver-service-account';
  const DS = 'DaemonSet k8s-gpu-dra-driver/k8s-gpu-dra-driver-kubeletplugin';

  it('on a default 1.36 API server its v1beta1-only slice policy matches nothing: DRA012 and no other permission finding', () => {
    // KEP-3136: beta APIs are off by default, so resource.k8s.io/v1beta1 is not served and matchPolicy Equivalent has no
    // served version to convert v1 requests to (the chart's own v1beta1 DeviceClass would not install there either).
    expect(permissionChecks('amd-gpu', SA)).toEqual(['DRA012']);
  });
  it('where --runtime-config serves resource.k8s.io/v1beta1 (as the chart needs) its policy pins slice writes: no permission finding', () => {
    const served = analyse(['amd-gpu'], (doc) => {
      if (doc?.kind === 'Pod' && doc.metadata?.name === 'kube-apiserver-cp-01')
        doc.spec.containers[0].command.push('--runtime-config=resource.k8s.io/v1beta1=true');
    });
    expect(served.filter((f) => f.subjects.some((s) => `${s.kind} ${s.namespace}/${s.name}` === SA) && /^(DRA|NODE)/.test(f.check))).toEqual([]);
  });
  it('privileged plugin with host /sys and /dev (POD001, POD002 for /sys, POD003)', () => {
    expect(podChecks('amd-gpu', DS)).toEqual(['POD001', 'POD002', 'POD003']);
    expect(evidenceValues('amd-gpu', 'POD002', DS)).toContain('/sys');
  });
  it('reports gpu.amd.com without zeroing', () => {
    expect(zeroing('amd-gpu')).toEqual(['gpu.amd.com']);
  });
});

describe('SR-IOV (dra-driver-sriov)', () => {
  const NS = 'dra-driver-sriov';
  const SA = `ServiceAccount ${NS}/dra-driver-sriov-dra-driver-sriov-chart-service-account`;
  const DS = `DaemonSet ${NS}/dra-driver-sriov-dra-driver-sriov-chart-kubeletplugin`;
  const ROLE = 'ClusterRole dra-driver-sriov-dra-driver-sriov-chart-role, ClusterRoleBinding dra-driver-sriov-dra-driver-sriov-chart-role-binding';

  it('resourceclaims/driver without resourceNames (DRA004) and slice writes with no pinning policy (DRA012); associated-node only, so no DRA005', () => {
    expect(permissionChecks('sriov', SA)).toEqual(['DRA004', 'DRA012']);
    expect(rows('sriov')).toEqual(expect.arrayContaining([`DRA004 ${SA} | ${ROLE}`, `DRA012 ${SA} | ${ROLE}`]));
  });
  it('privileged plugin and init container with host network and PID namespaces (POD001, POD002, POD003 for both)', () => {
    expect(podChecks('sriov', DS)).toEqual(['POD001', 'POD002', 'POD003', 'POD003']);
    expect(unhardened('sriov', DS)).toEqual(['plugin', 'sriov-cni']);
  });
  it('reports the NRI socket /var/run/nri/nri.sock it mounts (POD002)', () => {
    expect(evidenceValues('sriov', 'POD002', DS)).toContain('/var/run/nri/nri.sock');
  });
  it('does not treat the SR-IOV NIC class as an accelerator', () => {
    expect(zeroing('sriov')).toEqual([]);
  });
});

describe('Google TPU (dra-driver-google-tpu)', () => {
  const SA = 'ServiceAccount dra-driver-google-tpu/dra-driver-google-tpu-service-account';
  const DS = 'DaemonSet dra-driver-google-tpu/dra-driver-google-tpu-kubeletplugin';

  it('has no permission finding other than slice pinning: no claim status, nodes or pods writes', () => {
    expect(permissionChecks('google-tpu', SA).filter((c) => c !== 'DRA012')).toEqual([]);
  });
  it('privileged init, plugin and vbar containers with host network, /sys and /proc (POD001, POD002); the hardened log collector (runAsUser 1000) is not reported', () => {
    expect(podChecks('google-tpu', DS)).toEqual(['POD001', 'POD002', 'POD003', 'POD003', 'POD003']);
    expect(unhardened('google-tpu', DS)).toEqual(['tpu-dra-plugin', 'tpu-network-optimization', 'vbar-control-agent']);
    expect(evidenceValues('google-tpu', 'POD002', DS)).toEqual(expect.arrayContaining([true, '/sys', '/proc']));
  });
  it('reports tpu.google.com without zeroing', () => {
    expect(zeroing('google-tpu')).toEqual(['tpu.google.com']);
  });
});

describe('Intel GPU (intel-gpu-resource-driver)', () => {
  const SA = 'ServiceAccount intel-gpu-resource-driver/intel-gpu-sa';
  const DS = 'DaemonSet intel-gpu-resource-driver/intel-gpu-resource-driver-kubelet-plugin';

  it('has no permission finding: slice writes pinned by its policy, only nodes get and resourceclaims get besides', () => {
    expect(permissionChecks('intel-gpu', SA)).toEqual([]);
  });
  it('not privileged (no POD001); host /sys (POD002); runs as root, runAsUser 0 (POD003)', () => {
    expect(podChecks('intel-gpu', DS)).toEqual(['POD002', 'POD003']);
    const pod003 = findingsWith('intel-gpu').find((f) => f.check === 'POD003' && ref(f.objects[0]) === DS)!;
    expect(pod003.message).toMatch(/runAsUser 0/);
  });
  it('reports both GPU classes (gpu.intel.com, gpu-vfio.intel.com) without zeroing', () => {
    expect(zeroing('intel-gpu')).toEqual(['gpu-vfio.intel.com', 'gpu.intel.com']);
  });
});

describe('Intel Gaudi (intel-gaudi-resource-driver)', () => {
  const SA = 'ServiceAccount intel-gaudi-resource-driver/intel-gaudi-sa';
  const DS = 'DaemonSet intel-gaudi-resource-driver/intel-gaudi-resource-driver-kubelet-plugin';

  it('creates DeviceTaintRules cluster-wide (DRA011): a NoExecute rule evicts every pod using the devices it selects, of any driver', () => {
    expect(permissionChecks('intel-gaudi', SA)).toEqual(['DRA011']);
    expect(rows('intel-gaudi')).toContain(
      `DRA011 ${SA} | ClusterRole intel-gaudi-resource-driver-role, ClusterRoleBinding intel-gaudi-resource-driver-rolebinding`,
    );
  });
  it('privileged plugin with host /sys (POD001, POD002, POD003)', () => {
    expect(podChecks('intel-gaudi', DS)).toEqual(['POD001', 'POD002', 'POD003']);
  });
  it('reports gaudi.intel.com (an AI accelerator with on-card HBM) without zeroing', () => {
    expect(zeroing('intel-gaudi')).toEqual(['gaudi.intel.com']);
  });
});

describe('Intel QAT (intel-qat-resource-driver)', () => {
  const SA = 'ServiceAccount intel-qat-resource-driver/intel-qat-sa';
  const DS = 'DaemonSet intel-qat-resource-driver/intel-qat-resource-driver-kubelet-plugin';

  it('has no permission finding: slice writes pinned by its policy', () => {
    expect(permissionChecks('intel-qat', SA)).toEqual([]);
  });
  it('privileged plugin with host /sys (POD001, POD002, POD003)', () => {
    expect(podChecks('intel-qat', DS)).toEqual(['POD001', 'POD002', 'POD003']);
  });
  it('does not treat qat.intel.com (crypto and compression offload) as an accelerator for zeroing', () => {
    expect(zeroing('intel-qat')).toEqual([]);
  });
});

describe('dranet (kubernetes-sigs/dranet, formerly google/dranet)', () => {
  const SA = 'ServiceAccount kube-system/dranet';
  const DS = 'DaemonSet kube-system/dranet';

  it('slice writes with no pinning policy (DRA012) and nothing else: resourceclaims/driver is associated-node and scoped to dra.net, nodes get only', () => {
    // Claim status writes pass granular status authorization only for dra.net devices on the plugin's own node; events
    // create/patch are not escalation-grade; no Secrets, pods, nodes or Namespaces writes.
    expect(permissionChecks('dranet', SA)).toEqual(['DRA012']);
    expect(rows('dranet')).toContain(`DRA012 ${SA} | ClusterRole dranet, ClusterRoleBinding dranet`);
  });
  it('privileged container (POD001), host network and the NRI socket directory (POD002), unhardened (POD003)', () => {
    expect(podChecks('dranet', DS)).toEqual(['POD001', 'POD002', 'POD003']);
    expect(unhardened('dranet', DS)).toEqual(['dranet']);
  });
  it('POD002 names hostNetwork and /var/run/nri only: /var/run/netns, /dev/infiniband and /sys/fs/bpf are narrow paths, not whole-host mounts', () => {
    // An NRI plugin is called for every container the runtime creates on the node and may change its mounts and devices.
    expect(evidenceValues('dranet', 'POD002', DS)).toEqual([true, '/var/run/nri']);
  });
  it('does not treat the dra.net NIC class as an accelerator: a network interface holds no tenant memory to zero', () => {
    expect(zeroing('dranet')).toEqual([]);
  });
  it('adds nothing else to the base cluster but CLAIM004: DRA is now in use and no policy guards claim creation', () => {
    const base = new Set(findingsWith().map(row));
    const added = [
      ...new Set(
        rows('dranet')
          .filter((r) => !base.has(r))
          .map((r) => r.split(' ')[0]),
      ),
    ].sort();
    expect(added).toEqual(['CLAIM004', 'DRA012', 'POD001', 'POD002', 'POD003']);
  });
  it('without its resourceclaims/driver rule (google/dranet’s last install.yaml, 7b7661a, had none) its device status writes break on 1.36 (DRA006)', () => {
    // Granular status authorization (beta, on in 1.36) checks resourceclaims/driver besides resourceclaims/status
    // when status.devices changes, which is where dranet reports the interfaces it attached.
    const old = analyse(['dranet'], (doc) => {
      if (doc?.kind === 'ClusterRole' && doc.metadata?.name === 'dranet')
        doc.rules = doc.rules.filter((r: { resources: string[] }) => !r.resources.includes('resourceclaims/driver'));
    });
    expect(
      old
        .filter((f) => PERMISSION.test(f.check) && f.subjects.some((s) => ref(s) === SA))
        .map((f) => f.check)
        .sort(),
    ).toEqual(['DRA006', 'DRA012']);
  });
  it('a driver in kube-system is not exempt: cluster-wide Secret reads added to its role are DRA008', () => {
    const secrets = analyse(['dranet'], (doc) => {
      if (doc?.kind === 'ClusterRole' && doc.metadata?.name === 'dranet') doc.rules.push({ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] });
    });
    expect(
      secrets
        .filter((f) => PERMISSION.test(f.check) && f.subjects.some((s) => ref(s) === SA))
        .map((f) => f.check)
        .sort(),
    ).toEqual(['DRA008', 'DRA012']);
  });
});

describe('OVS-DPDK (dra-driver-ovsdpdk)', () => {
  const NS = 'dra-driver-ovsdpdk';
  const SA = `ServiceAccount ${NS}/dra-driver-ovsdpdk`;
  const DS = `DaemonSet ${NS}/dra-driver-ovsdpdk`;

  it('slice writes with no pinning policy (DRA012) and nothing else: resourceclaims/driver is associated-node and scoped to its driver name', () => {
    // Nodes and its own CRDs are read-only; the namespaced Role only reads ovsdpdkresourcepolicies.
    expect(permissionChecks('ovsdpdk', SA)).toEqual(['DRA012']);
    expect(rows('ovsdpdk')).toContain(`DRA012 ${SA} | ClusterRole dra-driver-ovsdpdk, ClusterRoleBinding dra-driver-ovsdpdk`);
  });
  it('privileged init and driver containers (one POD001, a POD003 each) with hostPID (POD002)', () => {
    expect(podChecks('ovsdpdk', DS)).toEqual(['POD001', 'POD002', 'POD003', 'POD003']);
    expect(unhardened('ovsdpdk', DS)).toEqual(['driver', 'init-users']);
    // hostPID is the only host namespace; no /, /proc, /sys or runtime socket is mounted.
    expect(evidenceValues('ovsdpdk', 'POD002', DS)).toEqual([true]);
  });
  it('POD001 names both privileged containers', () => {
    const pod001 = findingsWith('ovsdpdk').find((f) => f.check === 'POD001' && ref(f.objects[0]) === DS)!;
    expect(pod001.evidence.filter((e) => e.type === 'field').map((e) => (e.type === 'field' ? e.path : ''))).toEqual([
      'spec.template.spec.initContainers[0].securityContext.privileged',
      'spec.template.spec.containers[0].securityContext.privileged',
    ]);
  });
  it('does not treat the ovsdpdk class (OVS bridges shared through vhost-user sockets) as an accelerator', () => {
    expect(zeroing('ovsdpdk')).toEqual([]);
  });
});

describe('Ascend NPU (Project-HAMi ascend-dra-driver)', () => {
  const NS = 'ascend-dra-driver';
  const SA = `ServiceAccount ${NS}/ascend-dra-driver-service-account`;
  const DS = `DaemonSet ${NS}/ascend-dra-driver-kubeletplugin`;
  const ROLE = 'ClusterRole ascend-dra-driver-role, ClusterRoleBinding ascend-dra-driver-role-binding';

  it('the plugin writes every DeviceClass and creates Namespaces (DRA008), and its v1beta1-only slice policy pins nothing on 1.36 (DRA012)', () => {
    // A Namespace it creates may carry resource.kubernetes.io/admin-access=true; a DeviceClass it rewrites changes what
    // every claim of that class gets, of any driver. Nodes create is not nodes update/patch (no NODE003), and without
    // resourceclaims/status writes there is no status finding.
    expect(permissionChecks('ascend-npu', SA)).toEqual(['DRA008', 'DRA012']);
    expect(rows('ascend-npu')).toEqual(expect.arrayContaining([`DRA008 ${SA} | ${ROLE}`, `DRA012 ${SA} | ${ROLE}`]));
    const dra008 = findingsWith('ascend-npu').find((f) => f.check === 'DRA008')!;
    expect(dra008.message).toMatch(/DeviceClasses \[create, update, patch, delete\]/);
    expect(dra008.message).toMatch(/write Namespaces .*\[create\]/);
  });
  it('where resource.k8s.io/v1beta1 is served, its policy pins slice writes: DRA008 alone', () => {
    // matchPolicy Equivalent converts the plugin's v1 writes to the served v1beta1 the policy names.
    const served = analyse(['ascend-npu'], (doc) => {
      if (doc?.kind === 'Pod' && doc.metadata?.name === 'kube-apiserver-cp-01')
        doc.spec.containers[0].command.push('--runtime-config=resource.k8s.io/v1beta1=true');
    });
    expect(served.filter((f) => PERMISSION.test(f.check) && f.subjects.some((s) => ref(s) === SA)).map((f) => f.check)).toEqual(['DRA008']);
  });
  it('privileged init and plugin containers (one POD001, a POD003 each); no host namespace and no /, /proc or /sys (no POD002)', () => {
    expect(podChecks('ascend-npu', DS)).toEqual(['POD001', 'POD003', 'POD003']);
    expect(unhardened('ascend-npu', DS)).toEqual(['init-hami-vnpu-assets', 'plugin']);
  });
  it('reports its NPU class without zeroing: the devices publish a memory capacity (on-card HBM)', () => {
    expect(zeroing('ascend-npu')).toEqual(['ascend-vnpu-same-device-e2e']);
  });
});

describe('all twelve drivers in one cluster', () => {
  const ALL = [
    'dra-example-driver',
    'nvidia-gpu',
    'cpu',
    'amd-gpu',
    'sriov',
    'google-tpu',
    'intel-gpu',
    'intel-gaudi',
    'intel-qat',
    'dranet',
    'ovsdpdk',
    'ascend-npu',
  ];
  it('report exactly the union of their findings: no driver changes what is said about another', () => {
    const union = new Set(ALL.flatMap((d) => rows(d)));
    expect(new Set(findingsWith(...ALL).map(row))).toEqual(union);
  });
});

describe('attack paths and reach of the first nine drivers in one cluster (issue #24)', () => {
  // dranet, whose pods run on every node, has its own case below.
  const ALL = ['dra-example-driver', 'nvidia-gpu', 'cpu', 'amd-gpu', 'sriov', 'google-tpu', 'intel-gpu', 'intel-gaudi', 'intel-qat'];

  it('a DaemonSet foothold says on how many nodes its pods run, counted from the pods (none of the ten runs on every node)', () => {
    // Facts of the fixtures: each DaemonSet's pods (ownerReferences) and their spec.nodeName; the base has three nodes.
    const docs = documentsWith(ALL).map((i) => i.value as any);
    const nodeCount = docs.filter((d) => d?.kind === 'Node').length;
    const daemonSetNodes = new Map<string, Set<string>>();
    for (const d of docs.filter((x) => x?.kind === 'DaemonSet')) daemonSetNodes.set(`DaemonSet ${d.metadata.namespace}/${d.metadata.name}`, new Set());
    for (const p of docs.filter((x) => x?.kind === 'Pod'))
      for (const o of p.metadata.ownerReferences ?? [])
        if (o.kind === 'DaemonSet') daemonSetNodes.get(`DaemonSet ${p.metadata.namespace}/${o.name}`)!.add(p.spec.nodeName);
    expect(daemonSetNodes.size).toBe(10);
    expect([...daemonSetNodes.values()].filter((n) => n.size === nodeCount)).toEqual([]);

    const paths = reportWith(ALL).attackPaths.filter((p) => /^a compromised node/.test(p.foothold));
    expect(paths.length).toBeGreaterThan(3);
    for (const p of paths) {
      const [ds, nodes] = [...daemonSetNodes].find(([name]) => p.foothold.includes(`: ${name} runs there`))!;
      expect(p.foothold).not.toContain('every other node');
      expect(p.foothold).toContain(`(${nodes.size} of ${nodeCount} nodes)`);
      // The node named is one its pods run on, and the token step is bound to it.
      const named = /a compromised node,(?: e\.g\.)? ([^:]+):/.exec(p.foothold)![1];
      expect(nodes.has(named), `${ds} on ${named}`).toBe(true);
      expect(p.steps[1].text).toContain(`bound to node ${named}`);
    }
  });
});

describe('a DaemonSet on every node (issue #24)', () => {
  it('dranet tolerates the control-plane taint (Exists, NoSchedule), so its pods run on all three nodes and its foothold says so', () => {
    const paths = reportWith(['dranet']).attackPaths.filter((p) => p.foothold.includes('DaemonSet kube-system/dranet runs there'));
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) expect(p.foothold).toContain('on every other node (3 of 3)');
    // OVS-DPDK has no toleration: its pods run on the two workers only.
    const ovs = reportWith(['ovsdpdk']).attackPaths.filter((p) => p.foothold.includes('DaemonSet dra-driver-ovsdpdk/dra-driver-ovsdpdk runs there'));
    expect(ovs.length).toBeGreaterThan(0);
    for (const p of ovs) expect(p.foothold).toContain('(2 of 3 nodes)');
  });
});

describe('a policy pinning slice writes to the writer’s node limits its reach (issue #24)', () => {
  const REFERENCE = 'ServiceAccount dra-example-driver/dra-example-driver-service-account';
  const pathsAndRisk = (report: Report) => {
    const byId = new Map(report.findings.map((f) => [f.id, f]));
    const mine = report.issues.filter((i) => i.findingIds.some((id) => byId.get(id)!.subjects.some((s) => ref(s) === REFERENCE)));
    const ids = new Set(mine.map((i) => i.id));
    return { issues: mine, impacts: report.attackPaths.filter((p) => ids.has(p.issueId)).map((p) => p.impact) };
  };

  it('the reference driver’s policy (Deny) pins its ResourceSlice writes: no reach over other nodes’ slices, no fake-devices path', () => {
    const { issues, impacts } = pathsAndRisk(reportWith(['dra-example-driver']));
    expect(issues.length).toBeGreaterThan(0);
    for (const i of issues) expect(i.risk.reasons.join('; ')).not.toMatch(/ResourceSlices/);
    expect(impacts.filter((t) => /ResourceSlices/.test(t))).toEqual([]);
  });

  it('the same binding with validationActions [Audit] refuses nothing: its slice writes reach every node and rank higher', () => {
    // An Audit-only binding records violations but admits the write (ValidatingAdmissionPolicyBinding validationActions).
    const audit = (doc: any) => {
      if (doc?.kind === 'ValidatingAdmissionPolicyBinding') doc.spec.validationActions = ['Audit'];
    };
    const pinned = pathsAndRisk(reportWith(['dra-example-driver']));
    const open = pathsAndRisk(reportWith(['dra-example-driver'], [], audit));
    for (const i of open.issues) expect(i.risk.reasons).toContain('writes ResourceSlices of all 3 nodes (no admission policy pins them to its own node)');
    const score = (r: typeof pinned, check: string) => r.issues.find((i) => i.check === check)!.risk.score;
    expect(score(open, 'POD001')).toBeGreaterThan(score(pinned, 'POD001'));
    expect(open.impacts).toContain('advertise fake devices on any node (create ResourceSlices)');
  });
});

/** A claim in tenant-a allocated one device of `driver` on `node` (the strict single-node selector the API server reads). */
const allocatedClaim = (name: string, driver: string, node: string) => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaim',
  metadata: { name, namespace: 'tenant-a' },
  spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: driver } }] } },
  status: {
    allocation: {
      devices: { results: [{ request: 'gpu', driver, pool: node, device: 'gpu-0' }] },
      nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] },
    },
  },
});

describe('a driver writing its own claims forges nothing (issue #24)', () => {
  const REFERENCE = 'ServiceAccount dra-example-driver/dra-example-driver-service-account';
  const SRIOV = 'ServiceAccount dra-driver-sriov/dra-driver-sriov-dra-driver-sriov-chart-service-account';
  // gpu.example.com claims on the two nodes where the reference driver's plugin runs: its associated-node grant, scoped to
  // gpu.example.com, lets each plugin write only the claims of its own driver on its own node, which is its job.
  const claims = [allocatedClaim('a', 'gpu.example.com', 'worker-01'), allocatedClaim('b', 'gpu.example.com', 'worker-02')];
  const issuesOf = (report: Report, subject: string) => {
    const byId = new Map(report.findings.map((f) => [f.id, f]));
    return report.issues.filter((i) => i.findingIds.some((id) => byId.get(id)!.subjects.some((s) => ref(s) === subject)));
  };

  it('the reference driver: its own driver’s claims on its own nodes add no reach and no rank', () => {
    const without = issuesOf(reportWith(['dra-example-driver', 'sriov']), REFERENCE);
    const withClaims = issuesOf(reportWith(['dra-example-driver', 'sriov'], claims), REFERENCE);
    expect(withClaims.length).toBeGreaterThan(0);
    for (const issue of withClaims) expect(issue.risk.reasons.join('; ')).not.toMatch(/forge device status/);
    expect(withClaims.map((i) => [i.check, i.risk.score])).toEqual(without.map((i) => [i.check, i.risk.score]));
  });

  it('SR-IOV, whose associated-node grant names no driver, can write those gpu.example.com claims on its nodes: they count', () => {
    const report = reportWith(['dra-example-driver', 'sriov'], claims);
    const sriov = issuesOf(report, SRIOV);
    expect(sriov.length).toBeGreaterThan(0);
    for (const issue of sriov) expect(issue.risk.reasons).toContain('can forge device status of 2 allocated claims');
  });
});

describe('capability checks that read policies and component pods exactly', () => {
  it('NVIDIA: the controller Deployment and the ComputeDomain daemons it creates are DRA component pods: POD003 for their unhardened containers', () => {
    // The controller runs as a DRA component identity in the driver namespace; the daemon DaemonSet is created by it
    // there and consumes a compute-domain.nvidia.com claim. Neither sets any securityContext.
    expect(unhardened('nvidia-gpu', 'Deployment dra-driver-nvidia-gpu/dra-driver-nvidia-gpu-controller')).toEqual(['compute-domain']);
    expect(unhardened('nvidia-gpu', 'DaemonSet dra-driver-nvidia-gpu/computedomain-daemon-5d0c2f9e-6a41-4c7b-9e3f-1b8a7d2c4e60')).toEqual([
      'compute-domain-daemon',
    ]);
  });
  it('NVIDIA with its slice policy naming the plugin account: still DRA012, its validation lets the plugin write slices with allNodes or a nodeSelector from any node', () => {
    // The chart's validation is `userNodeName == objectNodeName || allNodesValue == true || nodeSelectorValue != null`:
    // from one node the plugin may still create, replace or delete every allNodes / nodeSelector slice of any driver.
    const plugin = 'system:serviceaccount:dra-driver-nvidia-gpu:dra-driver-nvidia-gpu-service-account-kubeletplugin';
    const named = analyse(['nvidia-gpu'], (doc) => {
      if (doc?.kind === 'ValidatingAdmissionPolicy') doc.spec.matchConditions[0].expression = `request.userInfo.username == "${plugin}"`;
    });
    expect(named.map(row)).toContain(
      'DRA012 ServiceAccount dra-driver-nvidia-gpu/dra-driver-nvidia-gpu-service-account-kubeletplugin | ClusterRole dra-driver-nvidia-gpu-clusterrole-kubeletplugin, ClusterRoleBinding dra-driver-nvidia-gpu-clusterrole-binding-kubeletplugin',
    );
  });
  it('Google TPU: DRA012, its slice policy matches only resource.k8s.io/v1beta1, which a default 1.36 API server does not serve', () => {
    // KEP-3136: beta APIs are off by default, so a 1.36 API server serves resource.k8s.io/v1 only; matchPolicy
    // Equivalent finds no served v1beta1 to convert v1 requests to, so the policy matches none of the plugin's writes.
    expect(rows('google-tpu')).toContain(
      'DRA012 ServiceAccount dra-driver-google-tpu/dra-driver-google-tpu-service-account | ClusterRole dra-driver-google-tpu-role, ClusterRoleBinding dra-driver-google-tpu-role-binding',
    );
  });
});
