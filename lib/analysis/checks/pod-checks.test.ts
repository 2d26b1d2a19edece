import { describe, expect, it } from 'vitest';
import { clusterRole, crb, pod, rb, role, SA } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { Container, Deployment, PodSpec } from '@/lib/k8s/types';
import { contextOf, daemonSet, dsPod, namespace, PLUGIN_MOUNTS, PLUGIN_VOLUMES, pluginPod, sliceWriter } from '../__fixtures__/builders';
import { serviceAccountRef } from '@/lib/analysis/context/identities';
import type { Check } from './check-types';
import { pod001, pod002, pod003, pod004 } from './pod-checks';

type Parts = Partial<Omit<ClusterState, 'source' | 'warnings'>>;

const run = (check: Check, parts: Parts) => {
  return check.run(contextOf(parts));
};

const nv = sliceWriter('gpu-operator', 'kubeletplugin');
const intel = sliceWriter('intel', 'intel-sa');
const base: Parts = {
  namespaces: [namespace('gpu-operator'), namespace('intel'), namespace('kube-system'), namespace('tenant-b', { 'dra-posture.io/role': 'tenant' })],
  clusterRoles: [nv.clusterRole, intel.clusterRole],
  clusterRoleBindings: [nv.binding, intel.binding],
};
const withPods = (...pods: Parts['pods'][]): Parts => ({ ...base, pods: pods.flatMap((p) => p ?? []) });

const hardened: Container['securityContext'] = {
  privileged: false,
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
};
const hardenedPod = { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } };

/** The NVIDIA kubelet plugin shape: privileged init container and plugin container, hostPath / for the driver root. */
const nvidiaPods = ['znlqc', '8qllc'].map((suffix, i) =>
  pluginPod(
    'gpu-operator',
    'nvidia-kubelet-plugin',
    suffix,
    'kubeletplugin',
    `gpu-0${i + 1}`,
    { name: 'gpus', securityContext: { privileged: true }, volumeMounts: [{ name: 'driver-root', mountPath: '/driver-root' }] },
    {
      initContainers: [{ name: 'init-container', securityContext: { privileged: true } }],
      volumes: [{ name: 'driver-root', hostPath: { path: '/' } }],
    },
  ),
);
const intelPod = pluginPod('intel', 'intel-kubelet-plugin', 'lnqvl', 'intel-sa', 'gpu-intel-01', {
  name: 'kubelet-plugin',
  securityContext: {
    privileged: false,
    readOnlyRootFilesystem: true,
    runAsUser: 0,
    capabilities: { drop: ['ALL'] },
    seccompProfile: { type: 'RuntimeDefault' },
  },
});
const kubeProxy = dsPod('kube-system', 'kube-proxy', 'a', {
  hostNetwork: true,
  serviceAccountName: 'kube-proxy',
  containers: [{ name: 'kube-proxy', securityContext: { privileged: true } }],
});

describe('POD001', () => {
  it('fires once per driver workload, listing every privileged container', () => {
    const out = run(pod001, withPods(nvidiaPods));
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'ServiceAccount', namespace: 'gpu-operator', name: 'kubeletplugin' }],
        objects: [{ kind: 'DaemonSet', namespace: 'gpu-operator', name: 'nvidia-kubelet-plugin' }],
        message:
          "DRA driver DaemonSet gpu-operator/nvidia-kubelet-plugin (2 pods) runs privileged: init container init-container and container gpus. A privileged kubelet plugin owns the node: every device, every capability, the host's /dev and kernel interfaces.",
        evidence: [
          {
            type: 'field',
            object: { kind: 'DaemonSet', namespace: 'gpu-operator', name: 'nvidia-kubelet-plugin' },
            path: 'spec.template.spec.initContainers[0].securityContext.privileged',
            value: true,
          },
          {
            type: 'field',
            object: { kind: 'DaemonSet', namespace: 'gpu-operator', name: 'nvidia-kubelet-plugin' },
            path: 'spec.template.spec.containers[0].securityContext.privileged',
            value: true,
          },
        ],
        remediation:
          'Drop privileged and grant only what the driver needs (device nodes through CDI, specific capabilities), e.g. for each container:\nsecurityContext:\n  privileged: false\n  allowPrivilegeEscalation: false\n  capabilities:\n    drop: [ALL]\n    add: ["<only the capabilities the driver needs>"]',
      },
    ]);
  });
  it('does not fire for an unprivileged driver or a privileged non-driver pod', () => {
    const out = run(pod001, withPods([intelPod, kubeProxy]));
    expect(out).toStrictEqual([]);
  });
});

describe('POD002', () => {
  it('fires for hostPath / and for hostPath /sys in a DaemonSet template with no pods', () => {
    const intelDs = daemonSet('intel', 'intel-kubelet-plugin', {
      serviceAccountName: 'intel-sa',
      volumes: [...PLUGIN_VOLUMES!, { name: 'sysfs', hostPath: { path: '/sys/' } }],
      containers: [{ name: 'kubelet-plugin', volumeMounts: [...PLUGIN_MOUNTS!, { name: 'sysfs', mountPath: '/sysfs' }] }],
    });
    const out = run(pod002, { ...withPods(nvidiaPods), daemonSets: [intelDs] });
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'ServiceAccount', namespace: 'gpu-operator', name: 'kubeletplugin' }],
        objects: [{ kind: 'DaemonSet', namespace: 'gpu-operator', name: 'nvidia-kubelet-plugin' }],
        message:
          'DRA driver DaemonSet gpu-operator/nvidia-kubelet-plugin (2 pods) uses hostPath / (volume driver-root): it sees and can touch host processes, network or kernel state beyond its devices.',
        evidence: [
          {
            type: 'field',
            object: { kind: 'DaemonSet', namespace: 'gpu-operator', name: 'nvidia-kubelet-plugin' },
            path: 'spec.template.spec.volumes[2].hostPath.path',
            value: '/',
          },
        ],
        remediation:
          'Set hostPID, hostNetwork and hostIPC to false unless the driver documents the need, and replace whole-host mounts with the narrow paths the driver uses (e.g. /sys/class/<subsystem>, /dev/<device>, the driver root) mounted readOnly where possible.',
      },
      {
        subjects: [{ kind: 'ServiceAccount', namespace: 'intel', name: 'intel-sa' }],
        objects: [{ kind: 'DaemonSet', namespace: 'intel', name: 'intel-kubelet-plugin' }],
        message:
          'DRA driver DaemonSet intel/intel-kubelet-plugin (from its pod template; no pod observed) uses hostPath /sys (volume sysfs): it sees and can touch host processes, network or kernel state beyond its devices.',
        evidence: [
          {
            type: 'field',
            object: { kind: 'DaemonSet', namespace: 'intel', name: 'intel-kubelet-plugin' },
            path: 'spec.template.spec.volumes[2].hostPath.path',
            value: '/sys/',
          },
        ],
        remediation:
          'Set hostPID, hostNetwork and hostIPC to false unless the driver documents the need, and replace whole-host mounts with the narrow paths the driver uses (e.g. /sys/class/<subsystem>, /dev/<device>, the driver root) mounted readOnly where possible.',
      },
    ]);
  });
  it('does not fire for narrow host paths on a driver, or host namespaces on a non-driver pod', () => {
    const narrow = pluginPod(
      'intel',
      'intel-kubelet-plugin',
      'x',
      'intel-sa',
      'gpu-intel-01',
      { volumeMounts: [{ name: 'drm', mountPath: '/sys/class/drm' }] },
      { volumes: [{ name: 'drm', hostPath: { path: '/sys/class/drm' } }] },
    );
    const out = run(pod002, withPods([narrow, kubeProxy]));
    expect(out).toStrictEqual([]);
  });
});

describe('POD003', () => {
  it('fires per container that lacks hardening (runAsUser 0 without runAsNonRoot: the fix changes the user too; no allowPrivilegeEscalation=false)', () => {
    const p = pluginPod('intel', 'intel-kubelet-plugin', 'lnqvl', 'intel-sa', 'gpu-intel-01', intelPod.spec.containers[0], {
      initContainers: [{ name: 'init' }],
    });
    const out = run(pod003, withPods([p]));
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'ServiceAccount', namespace: 'intel', name: 'intel-sa' }],
        objects: [
          { kind: 'DaemonSet', namespace: 'intel', name: 'intel-kubelet-plugin' },
          { kind: 'Container', namespace: 'intel', name: 'DaemonSet/intel-kubelet-plugin/init' },
        ],
        message:
          'Init container init of DRA driver DaemonSet intel/intel-kubelet-plugin lacks capabilities.drop [ALL], readOnlyRootFilesystem: true, runAsNonRoot: true, seccompProfile RuntimeDefault and allowPrivilegeEscalation: false.',
        evidence: [
          {
            type: 'field',
            object: { kind: 'DaemonSet', namespace: 'intel', name: 'intel-kubelet-plugin' },
            path: 'spec.template.spec.initContainers[0].securityContext',
            value: null,
          },
        ],
        remediation:
          'Add to spec.template.spec.initContainers[0].securityContext (keep what the driver needs, e.g. a writable emptyDir instead of a writable root filesystem):\nsecurityContext:\n  capabilities:\n    drop: [ALL]\n  readOnlyRootFilesystem: true\n  runAsNonRoot: true\n  seccompProfile:\n    type: RuntimeDefault\n  allowPrivilegeEscalation: false',
      },
      {
        subjects: [{ kind: 'ServiceAccount', namespace: 'intel', name: 'intel-sa' }],
        objects: [
          { kind: 'DaemonSet', namespace: 'intel', name: 'intel-kubelet-plugin' },
          { kind: 'Container', namespace: 'intel', name: 'DaemonSet/intel-kubelet-plugin/kubelet-plugin' },
        ],
        message:
          'Container kubelet-plugin of DRA driver DaemonSet intel/intel-kubelet-plugin lacks runAsNonRoot: true with a non-zero runAsUser (it runs as root: runAsUser 0) and allowPrivilegeEscalation: false.',
        evidence: [
          {
            type: 'field',
            object: { kind: 'DaemonSet', namespace: 'intel', name: 'intel-kubelet-plugin' },
            path: 'spec.template.spec.containers[0].securityContext',
            value: {
              privileged: false,
              readOnlyRootFilesystem: true,
              runAsUser: 0,
              capabilities: { drop: ['ALL'] },
              seccompProfile: { type: 'RuntimeDefault' },
            },
          },
        ],
        remediation:
          'Add to spec.template.spec.containers[0].securityContext (keep what the driver needs, e.g. a writable emptyDir instead of a writable root filesystem):\nsecurityContext:\n  runAsUser: "<a non-zero UID>"\n  runAsNonRoot: true\n  allowPrivilegeEscalation: false',
      },
    ]);
  });
  it('does not fire when the pod securityContext supplies runAsNonRoot and seccomp', () => {
    const p = pluginPod(
      'dra-example-driver',
      'dra-example-kubeletplugin',
      '6nrgw',
      'example-sa',
      'gpu-dev-01',
      { name: 'plugin', securityContext: hardened },
      hardenedPod,
    );
    const ex = sliceWriter('dra-example-driver', 'example-sa');
    const out = run(pod003, {
      ...withPods([p]),
      clusterRoles: [...base.clusterRoles!, ex.clusterRole],
      clusterRoleBindings: [...base.clusterRoleBindings!, ex.binding],
    });
    expect(out).toStrictEqual([]);
  });
});

describe('POD004', () => {
  it('fires for a tenant pod mounting the plugin directory', () => {
    const debug = pod('tenant-b', 'nvidia-smi-debug', {
      nodeName: 'gpu-01',
      serviceAccountName: 'batch-runner',
      volumes: [{ name: 'plugins', hostPath: { path: '/var/lib/kubelet/plugins' } }],
      containers: [{ name: 'debug', volumeMounts: [{ name: 'plugins', mountPath: '/plugins' }] }],
    });
    const out = run(pod004, withPods([debug]));
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'ServiceAccount', namespace: 'tenant-b', name: 'batch-runner' }],
        objects: [{ kind: 'Pod', namespace: 'tenant-b', name: 'nvidia-smi-debug' }],
        message:
          "Pod tenant-b/nvidia-smi-debug in tenant namespace tenant-b mounts hostPath /var/lib/kubelet/plugins (volume plugins) but is not a DRA driver pod. It can connect to the DRA drivers' gRPC sockets (NodePrepareResources, NodeUnprepareResources) on its node (and, with write access, plant or replace sockets).",
        evidence: [
          {
            type: 'field',
            object: { kind: 'Pod', namespace: 'tenant-b', name: 'nvidia-smi-debug' },
            path: 'spec.volumes[0].hostPath.path',
            value: '/var/lib/kubelet/plugins',
          },
        ],
        remediation:
          'Remove the hostPath volume(s) plugins from Pod tenant-b/nvidia-smi-debug and forbid hostPath in tenant namespaces (Pod Security Admission: kubectl label namespace tenant-b pod-security.kubernetes.io/enforce=baseline).',
      },
    ]);
  });
  it('does not fire for pod-resources mounts, platform pods, or driver pods', () => {
    const profiler = pod('tenant-b', 'gpu-profiler', {
      volumes: [{ name: 'pr', hostPath: { path: '/var/lib/kubelet/pod-resources' } }],
      containers: [{ name: 'p', volumeMounts: [{ name: 'pr', mountPath: '/pr' }] }],
    });
    const platformDebug = pod('kube-system', 'node-debugger', {
      volumes: [{ name: 'k', hostPath: { path: '/var/lib/kubelet' } }],
      containers: [{ name: 'd', volumeMounts: [{ name: 'k', mountPath: '/k' }] }],
    });
    const out = run(pod004, withPods(nvidiaPods, [profiler, platformDebug]));
    expect(out).toStrictEqual([]);
  });
});

// ---------------------------------------------------------------- every DRA component pod (issue #23 item 3)

/** A Deployment with a pod template and no observed pod (the analysis uses the template). */
const deployment = (ns: string, name: string, spec: Partial<PodSpec>): Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: ns },
  spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [], ...spec } } },
});

/** A controller that writes claim status: a DRA component identity. */
const controllerStatus = clusterRole('nv-controller', [{ verbs: ['update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] }]);
const controllerStatusBinding = crb('nv-controller', { kind: 'ClusterRole', name: 'nv-controller' }, [SA('gpu-operator', 'nv-controller')]);
const withController = (extra: Parts): Parts => ({
  ...base,
  ...extra,
  pods: [...nvidiaPods, ...(extra.pods ?? [])],
  clusterRoles: [...base.clusterRoles!, controllerStatus, ...(extra.clusterRoles ?? [])],
  clusterRoleBindings: [...base.clusterRoleBindings!, controllerStatusBinding, ...(extra.clusterRoleBindings ?? [])],
});
/** The ComputeDomain daemon shape: created by the controller in the driver namespace, no ownerReference to it, no securityContext. */
const cdDaemon = dsPod('gpu-operator', 'train-domain-imex', 'mbb98', {
  nodeName: 'gpu-01',
  serviceAccountName: 'compute-domain-daemon',
  containers: [{ name: 'compute-domain-daemon' }],
});

describe('POD001 on every DRA component pod', () => {
  it('reports a controller Deployment running privileged or adding SYS_ADMIN (not baseline capabilities)', () => {
    const controller = deployment('gpu-operator', 'nv-controller', {
      serviceAccountName: 'nv-controller',
      containers: [
        { name: 'controller', securityContext: { capabilities: { add: ['SYS_ADMIN', 'NET_BIND_SERVICE'] } } },
        { name: 'helper', securityContext: { privileged: true } },
      ],
    });
    const out = run(pod001, withController({ deployments: [controller] })).filter((f) => f.objects[0].name === 'nv-controller');
    const owner = { kind: 'Deployment', namespace: 'gpu-operator', name: 'nv-controller' };
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'ServiceAccount', namespace: 'gpu-operator', name: 'nv-controller' }],
        objects: [owner],
        message:
          'DRA component Deployment gpu-operator/nv-controller (from its pod template; no pod observed) runs privileged: container helper; ' +
          'adds host-level capabilities: container controller (SYS_ADMIN). ' +
          "A privileged DRA component owns the node: every device, every capability, the host's /dev and kernel interfaces. " +
          'SYS_ADMIN lets it mount filesystems, enter other namespaces and administer the kernel (the usual container escape).',
        evidence: [
          { type: 'field', object: owner, path: 'spec.template.spec.containers[1].securityContext.privileged', value: true },
          { type: 'field', object: owner, path: 'spec.template.spec.containers[0].securityContext.capabilities.add', value: ['SYS_ADMIN', 'NET_BIND_SERVICE'] },
          {
            type: 'note',
            text: 'DRA component: it runs as ServiceAccount gpu-operator/nv-controller, a DRA component identity (can update resourceclaims/status)',
          },
        ],
        remediation:
          'Drop privileged and grant only what the component needs (device nodes through CDI, specific capabilities), e.g. for each container:\n' +
          'securityContext:\n  privileged: false\n  allowPrivilegeEscalation: false\n  capabilities:\n    drop: [ALL]\n    add: ["<only the capabilities the component needs>"]\n' +
          'Remove SYS_ADMIN from capabilities.add of container controller: the Pod Security baseline level lets a pod add only AUDIT_WRITE, CHOWN, DAC_OVERRIDE, FOWNER, ' +
          'FSETID, KILL, MKNOD, NET_BIND_SERVICE, SETFCAP, SETGID, SETPCAP, SETUID and SYS_CHROOT. Keep a host-level capability only where the component documents the need.',
      },
    ]);
  });

  it('reads capabilities case-insensitively with or without CAP_, on an otherwise unprivileged kubelet plugin', () => {
    const p = pluginPod('intel', 'intel-kubelet-plugin', 'x', 'intel-sa', 'gpu-intel-01', {
      securityContext: { capabilities: { drop: ['ALL'], add: ['cap_sys_ptrace', 'CAP_PERFMON', 'IPC_LOCK', 'CHOWN'] } },
    });
    const out = run(pod001, withPods([p]));
    expect(out.map((f) => f.message)).toStrictEqual([
      'DRA driver DaemonSet intel/intel-kubelet-plugin (1 pod) adds host-level capabilities: container plugin (SYS_PTRACE, PERFMON). ' +
        'SYS_PTRACE lets it trace other processes and read their memory and PERFMON lets it trace the kernel and other processes through perf events.',
    ]);
  });

  it('reports the real NVIDIA controller and ComputeDomain daemon shapes: no claim rights, but in the driver namespace', () => {
    // The chart's controller writes ResourceClaimTemplates and DaemonSets, not claim status: not a DRA component identity.
    const controller = deployment('gpu-operator', 'dra-driver-nvidia-gpu-controller', {
      serviceAccountName: 'dra-driver-nvidia-gpu-service-account-controller',
      containers: [{ name: 'compute-domain', securityContext: { privileged: true } }],
    });
    const daemon = {
      ...cdDaemon,
      spec: { ...cdDaemon.spec, containers: [{ name: 'compute-domain-daemon', securityContext: { capabilities: { add: ['SYS_ADMIN'] } } }] },
    };
    const out = run(pod001, { ...withPods(nvidiaPods, [daemon]), deployments: [controller] });
    expect(out.map((f) => [f.objects[0].name, f.message.split('.')[0], f.evidence.at(-1)])).toStrictEqual([
      [
        'nvidia-kubelet-plugin',
        'DRA driver DaemonSet gpu-operator/nvidia-kubelet-plugin (2 pods) runs privileged: init container init-container and container gpus',
        {
          type: 'field',
          object: { kind: 'DaemonSet', namespace: 'gpu-operator', name: 'nvidia-kubelet-plugin' },
          path: 'spec.template.spec.containers[0].securityContext.privileged',
          value: true,
        },
      ],
      [
        'train-domain-imex',
        'DRA component DaemonSet gpu-operator/train-domain-imex (1 pod) adds host-level capabilities: container compute-domain-daemon (SYS_ADMIN)',
        { type: 'note', text: 'DRA component: it runs in namespace gpu-operator, the namespace of DRA driver DaemonSet gpu-operator/nvidia-kubelet-plugin' },
      ],
      [
        'dra-driver-nvidia-gpu-controller',
        'DRA component Deployment gpu-operator/dra-driver-nvidia-gpu-controller (from its pod template; no pod observed) runs privileged: container compute-domain',
        { type: 'note', text: 'DRA component: it runs in namespace gpu-operator, the namespace of DRA driver DaemonSet gpu-operator/nvidia-kubelet-plugin' },
      ],
    ]);
  });

  it('reports a DaemonSet a DRA controller may create in its platform namespace without driver pods, and not without that right', () => {
    const ns = 'dra-system';
    const status = crb('dra-controller', { kind: 'ClusterRole', name: 'nv-controller' }, [SA(ns, 'dra-controller')]);
    const daemonSets = role(ns, 'daemonsets', [{ verbs: ['create'], apiGroups: ['apps'], resources: ['daemonsets'] }]);
    const daemonSetsBinding = rb(ns, 'daemonsets', { kind: 'Role', name: 'daemonsets' }, [SA(ns, 'dra-controller')]);
    const daemon = dsPod(ns, 'cd-daemon', 'a', { serviceAccountName: 'cd-daemon', containers: [{ name: 'daemon', securityContext: { privileged: true } }] });
    const parts: Parts = {
      ...base,
      namespaces: [...base.namespaces!, namespace(ns, { 'dra-posture.io/role': 'platform' })],
      pods: [daemon],
      clusterRoles: [...base.clusterRoles!, controllerStatus],
      clusterRoleBindings: [...base.clusterRoleBindings!, status],
    };
    const out = run(pod001, { ...parts, roles: [daemonSets], roleBindings: [daemonSetsBinding] });
    expect(out.map((f) => [f.message.split('.')[0], f.evidence.at(-1)])).toStrictEqual([
      [
        'DRA component DaemonSet dra-system/cd-daemon (1 pod) runs privileged: container daemon',
        {
          type: 'note',
          text: 'DRA component: ServiceAccount dra-system/dra-controller, a DRA component identity, can create daemonsets in namespace dra-system',
        },
      ],
    ]);
    expect(run(pod001, parts)).toStrictEqual([]);
  });

  it('leaves out a tenant Job a tenant-side claim writer may create, and kube-proxy beside a driver in kube-system that may create DaemonSets', () => {
    const allocator = clusterRole('tenant-allocator', [{ verbs: ['update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] }]);
    const allocatorBinding = crb('tenant-allocator', { kind: 'ClusterRole', name: 'tenant-allocator' }, [SA('tenant-b', 'allocator')]);
    const jobs = role('tenant-b', 'jobs', [{ verbs: ['create'], apiGroups: ['batch'], resources: ['jobs'] }]);
    const jobsBinding = rb('tenant-b', 'jobs', { kind: 'Role', name: 'jobs' }, [SA('tenant-b', 'allocator')]);
    const tenantJobPod = pod('tenant-b', 'train-x7k2p', {
      serviceAccountName: 'runner',
      containers: [{ name: 'train', securityContext: { privileged: true } }],
    });
    tenantJobPod.metadata.ownerReferences = [{ apiVersion: 'batch/v1', kind: 'Job', name: 'train', controller: true }];
    const cpu = sliceWriter('kube-system', 'dracpu');
    const cpuPlugin = pluginPod('kube-system', 'dracpu', 'a', 'dracpu', 'cpu-01', { securityContext: hardened }, hardenedPod);
    const cpuDaemonSets = role('kube-system', 'dracpu-daemonsets', [{ verbs: ['create'], apiGroups: ['apps'], resources: ['daemonsets'] }]);
    const cpuDaemonSetsBinding = rb('kube-system', 'dracpu-daemonsets', { kind: 'Role', name: 'dracpu-daemonsets' }, [SA('kube-system', 'dracpu')]);
    const out = run(pod001, {
      ...base,
      pods: [tenantJobPod, cpuPlugin, kubeProxy],
      clusterRoles: [...base.clusterRoles!, allocator, cpu.clusterRole],
      clusterRoleBindings: [...base.clusterRoleBindings!, allocatorBinding, cpu.binding],
      roles: [jobs, cpuDaemonSets],
      roleBindings: [jobsBinding, cpuDaemonSetsBinding],
    });
    expect(out).toStrictEqual([]);
  });
});

describe('POD003 and granular status authorization', () => {
  // A tenant app that a chart gives update on resourceclaims/status, and nothing else of DRA.
  const claimStatus = clusterRole('claim-status', [{ verbs: ['update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] }]);
  const deviceStatus = clusterRole('device-status', [
    {
      verbs: ['associated-node:update', 'associated-node:patch'],
      apiGroups: ['resource.k8s.io'],
      resources: ['resourceclaims/driver'],
      resourceNames: ['gpu.example.com'],
    },
  ]);
  const app = (namespace: string, sa: string) => pod(namespace, `${sa}-7d9f`, { serviceAccountName: sa, containers: [{ name: 'app' }] });
  const parts = (extra: Parts = {}): Parts => ({
    ...base,
    namespaces: [...base.namespaces!, namespace('tenant-c'), namespace('gpu-health', { 'dra-posture.io/role': 'platform' })],
    pods: [app('tenant-b', 'web'), app('tenant-c', 'agent'), app('gpu-health', 'monitor')],
    clusterRoles: [...base.clusterRoles!, claimStatus, deviceStatus],
    roleBindings: [
      rb('tenant-b', 'web-status', { kind: 'ClusterRole', name: 'claim-status' }, [SA('tenant-b', 'web')]),
      rb('tenant-c', 'agent-status', { kind: 'ClusterRole', name: 'claim-status' }, [SA('tenant-c', 'agent')]),
      rb('tenant-c', 'agent-devices', { kind: 'ClusterRole', name: 'device-status' }, [SA('tenant-c', 'agent')]),
      rb('gpu-health', 'monitor-status', { kind: 'ClusterRole', name: 'claim-status' }, [SA('gpu-health', 'monitor')]),
    ],
    ...extra,
  });
  const reported = (version?: string) => pod003.run(contextOf(parts(), undefined, version)).map((f) => f.subjects[0].namespace);

  it('on 1.36 a tenant account holding only resourceclaims/status is no DRA component: none of its writes goes through', () => {
    const ctx = contextOf(parts());
    expect(ctx.isDraComponent(serviceAccountRef('tenant-b', 'web'))).toBe(false);
    // With associated-node device-status verbs beside it, or in a platform namespace, it is one.
    expect(ctx.isDraComponent(serviceAccountRef('tenant-c', 'agent'))).toBe(true);
    expect(ctx.isDraComponent(serviceAccountRef('gpu-health', 'monitor'))).toBe(true);
    expect(reported()).toStrictEqual(['gpu-health', 'tenant-c']);
  });

  it('before 1.36, or with the gate off, resourceclaims/status alone writes device status: the tenant app is a component', () => {
    expect(reported('v1.35.2')).toStrictEqual(['gpu-health', 'tenant-b', 'tenant-c']);
    // The API server is known by its kube-system pod name (isApiServerPod), not by labels.
    const apiServer = pod('kube-system', 'kube-apiserver-cp-1', {
      containers: [{ name: 'kube-apiserver', command: ['kube-apiserver', '--feature-gates=DRAResourceClaimGranularStatusAuthorization=false'] }],
    });
    const off = contextOf(parts({ pods: [...parts().pods!, apiServer] }), undefined, 'v1.36.3');
    expect(off.engine.features.granularStatusAuthorization).toBe(false);
    expect(off.isDraComponent(serviceAccountRef('tenant-b', 'web'))).toBe(true);
  });
});

describe('POD002 runtime and NRI sockets', () => {
  const sockets = (volumes: { name: string; path: string }[], extra: Partial<PodSpec> = {}) =>
    pluginPod(
      'kube-system',
      'dracpu',
      'a',
      'dracpu',
      'cpu-01',
      { volumeMounts: volumes.map((v) => ({ name: v.name, mountPath: `/host/${v.name}` })) },
      { ...extra, volumes: volumes.map((v) => ({ name: v.name, hostPath: { path: v.path } })) },
    );
  const cpu = sliceWriter('kube-system', 'dracpu');
  const runOn = (p: ReturnType<typeof sockets>) => run(pod002, { ...base, pods: [p], clusterRoles: [cpu.clusterRole], clusterRoleBindings: [cpu.binding] });

  it('reports the NRI socket directory a CPU driver mounts (dra-driver-cpu: /var/run/nri, hostNetwork)', () => {
    const out = runOn(
      sockets(
        [
          { name: 'nri-plugin', path: '/var/run/nri' },
          { name: 'cdi-dir', path: '/var/run/cdi' },
        ],
        { hostNetwork: true },
      ),
    );
    expect(out).toHaveLength(1);
    expect(out[0].message).toBe(
      'DRA driver DaemonSet kube-system/dracpu (1 pod) uses hostNetwork: true and hostPath /var/run/nri (volume nri-plugin: the NRI socket): ' +
        'it sees and can touch host processes, network or kernel state beyond its devices. ' +
        "Through the NRI socket it can register as an NRI plugin, which the runtime calls for every container it creates or updates on the node, and change that container's mounts, devices, environment, hooks and resources.",
    );
    expect(out[0].evidence).toStrictEqual([
      { type: 'field', object: { kind: 'DaemonSet', namespace: 'kube-system', name: 'dracpu' }, path: 'spec.template.spec.hostNetwork', value: true },
      {
        type: 'field',
        object: { kind: 'DaemonSet', namespace: 'kube-system', name: 'dracpu' },
        path: 'spec.template.spec.volumes[2].hostPath.path',
        value: '/var/run/nri',
      },
    ]);
    expect(out[0].remediation).toContain('as the socket file itself (hostPath type: Socket, e.g. /var/run/nri/nri.sock)');
  });

  it('reports the socket file itself, the container runtime socket, and a parent directory holding both', () => {
    const out = runOn(
      sockets([
        { name: 'nri', path: '/var/run/nri/nri.sock' },
        { name: 'containerd', path: '/run/containerd/containerd.sock' },
        { name: 'var', path: '/var/' },
      ]),
    );
    expect(out.map((f) => f.message.split(': it sees')[0])).toStrictEqual([
      'DRA driver DaemonSet kube-system/dracpu (1 pod) uses hostPath /var/run/nri/nri.sock (volume nri: the NRI socket), ' +
        'hostPath /run/containerd/containerd.sock (volume containerd: the container runtime socket) and ' +
        'hostPath /var (volume var: the container runtime socket and the NRI socket)',
    ]);
    expect(out[0].message).toContain('Through the container runtime socket it controls every container on the node');
  });

  it('does not report CDI, network-namespace or container state directories', () => {
    const out = runOn(
      sockets([
        { name: 'cdi', path: '/var/run/cdi' },
        { name: 'netns', path: '/var/run/netns' },
        { name: 'cni', path: '/var/lib/cni' },
        { name: 'shim', path: '/run/containerd/io.containerd.runtime.v2.task' },
      ]),
    );
    expect(out).toStrictEqual([]);
  });
});

describe('POD003 user and impossible fixes', () => {
  const hardenedNoRoot = { privileged: false, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } };
  const seccompOnly = { seccompProfile: { type: 'RuntimeDefault' } };
  const plugin = (securityContext: Container['securityContext'], podSc: PodSpec['securityContext'] = seccompOnly) =>
    pluginPod('intel', 'intel-kubelet-plugin', 'x', 'intel-sa', 'gpu-intel-01', { securityContext }, { securityContext: podSc });

  it('a non-zero runAsUser (container, or pod not overridden) counts as non-root without runAsNonRoot', () => {
    expect(run(pod003, withPods([plugin({ ...hardenedNoRoot, runAsUser: 1000 })]))).toStrictEqual([]);
    expect(run(pod003, withPods([plugin(hardenedNoRoot, { ...seccompOnly, runAsUser: 1000 })]))).toStrictEqual([]);
    expect(run(pod003, withPods([plugin({ ...hardenedNoRoot, runAsUser: 1000 }, { ...seccompOnly, runAsUser: 0 })]))).toStrictEqual([]);
  });

  it('a container runAsUser 0 overrides a non-zero pod runAsUser', () => {
    const out = run(pod003, withPods([plugin({ ...hardenedNoRoot, runAsUser: 0 }, { ...seccompOnly, runAsUser: 1000 })]));
    expect(out.map((f) => f.message)).toStrictEqual([
      'Container plugin of DRA driver DaemonSet intel/intel-kubelet-plugin lacks runAsNonRoot: true with a non-zero runAsUser (it runs as root: runAsUser 0).',
    ]);
    expect(out[0].remediation).toContain('runAsUser: "<a non-zero UID>"\n  runAsNonRoot: true');
  });

  it('never asks a privileged container for allowPrivilegeEscalation: false, seccomp or capabilities.drop, nor one adding SYS_ADMIN for allowPrivilegeEscalation: false', () => {
    const out = run(
      pod003,
      withPods(nvidiaPods, [plugin({ capabilities: { add: ['SYS_ADMIN'], drop: ['ALL'] }, readOnlyRootFilesystem: true, runAsNonRoot: true })]),
    );
    expect(out.map((f) => f.message)).toStrictEqual([
      'Init container init-container of DRA driver DaemonSet gpu-operator/nvidia-kubelet-plugin lacks readOnlyRootFilesystem: true and runAsNonRoot: true. ' +
        'Seccomp, capabilities.drop and allowPrivilegeEscalation: false cannot apply while it runs privileged (POD001): a privileged container gets every capability whatever it drops.',
      'Container gpus of DRA driver DaemonSet gpu-operator/nvidia-kubelet-plugin lacks readOnlyRootFilesystem: true and runAsNonRoot: true. ' +
        'Seccomp, capabilities.drop and allowPrivilegeEscalation: false cannot apply while it runs privileged (POD001): a privileged container gets every capability whatever it drops.',
    ]);
    for (const f of out) {
      expect(f.remediation).not.toContain('allowPrivilegeEscalation');
      expect(f.remediation).not.toContain('capabilities');
    }
    const sysAdminAlone = run(pod003, withPods([plugin({ capabilities: { add: ['CAP_SYS_ADMIN'], drop: ['ALL'] } })]));
    expect(sysAdminAlone.map((f) => [f.message, f.remediation.includes('allowPrivilegeEscalation')])).toStrictEqual([
      [
        'Container plugin of DRA driver DaemonSet intel/intel-kubelet-plugin lacks readOnlyRootFilesystem: true and runAsNonRoot: true. ' +
          'allowPrivilegeEscalation: false cannot apply while it adds SYS_ADMIN (POD001).',
        false,
      ],
    ]);
  });

  it('reports an unhardened daemon in a DRA driver namespace', () => {
    const out = run(pod003, withPods(nvidiaPods, [cdDaemon]));
    expect(out.filter((f) => f.objects[0].name === 'train-domain-imex').map((f) => f.message)).toStrictEqual([
      'Container compute-domain-daemon of DRA component DaemonSet gpu-operator/train-domain-imex lacks capabilities.drop [ALL], readOnlyRootFilesystem: true, ' +
        'runAsNonRoot: true, seccompProfile RuntimeDefault and allowPrivilegeEscalation: false.',
    ]);
  });
});
