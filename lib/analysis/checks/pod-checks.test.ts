import { describe, expect, it } from 'vitest';
import { pod } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { Container } from '@/lib/k8s/types';
import { contextOf, daemonSet, dsPod, namespace, PLUGIN_MOUNTS, PLUGIN_VOLUMES, pluginPod, sliceWriter } from '../__fixtures__/builders';
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
  it('fires per container that lacks hardening (runAsUser 0 without runAsNonRoot, no allowPrivilegeEscalation=false)', () => {
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
          'Container kubelet-plugin of DRA driver DaemonSet intel/intel-kubelet-plugin lacks runAsNonRoot: true (it runs as root: runAsUser 0) and allowPrivilegeEscalation: false.',
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
          'Add to spec.template.spec.containers[0].securityContext (keep what the driver needs, e.g. a writable emptyDir instead of a writable root filesystem):\nsecurityContext:\n  runAsNonRoot: true\n  allowPrivilegeEscalation: false',
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
