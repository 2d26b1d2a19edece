import type { Container, ObjectRef, Pod } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Evidence } from '@/lib/report/types';
import { serviceAccountRef } from '@/lib/analysis/context/identities';
import { allContainers, exposesPluginDir, isTemplatePod, KUBELET_PLUGIN_DIRS, mountedHostPaths, podServiceAccount } from '@/lib/analysis/context/pod-facts';
import { refKey } from '@/lib/analysis/finding-id';
import type { Check, FindingDraft } from './check-types';
import { describeRef, list, toYaml } from './check-helpers';

// Pod checks report workloads (ownerOf), not pods: a DaemonSet with 50 pods is one finding. The
// representative pod is the first by name (a stand-in from the workload template when no pod was seen).

interface Workload {
  owner: ObjectRef;
  pod: Pod;
  /** Prefix of field paths on the owner: the pod itself, or the workload's pod template. */
  base: string;
}

function byWorkload(ctx: AnalysisContext, pods: readonly Pod[]): Workload[] {
  const groups = new Map<string, Workload>();
  const sorted = [...pods].sort(
    (a, b) => Number(isTemplatePod(a)) - Number(isTemplatePod(b)) || (podName(a) < podName(b) ? -1 : podName(a) > podName(b) ? 1 : 0),
  );
  for (const pod of sorted) {
    const owner = ctx.ownerOf(pod);
    const key = refKey(owner);
    if (!groups.has(key)) groups.set(key, { owner, pod, base: owner.kind === 'Pod' ? 'spec' : 'spec.template.spec' });
  }
  return [...groups.values()].sort((a, b) => (refKey(a.owner) < refKey(b.owner) ? -1 : refKey(a.owner) > refKey(b.owner) ? 1 : 0));
}

const podName = (p: Pod) => `${p.metadata.namespace ?? ''}/${p.metadata.name}`;

function podsText(ctx: AnalysisContext, w: Workload, pods: readonly Pod[]): string {
  const n = pods.filter((p) => !isTemplatePod(p) && refKey(ctx.ownerOf(p)) === refKey(w.owner)).length;
  if (n === 0) return ' (from its pod template; no pod observed)';
  return w.owner.kind === 'Pod' ? '' : ` (${n} pod${n === 1 ? '' : 's'})`;
}

const sa = (pod: Pod) => serviceAccountRef(pod.metadata.namespace ?? '', podServiceAccount(pod));

// ---------------------------------------------------------------- POD001

export const pod001: Check = {
  id: 'POD001',
  severity: 'high',
  title: 'DRA kubelet-plugin container runs privileged',
  description:
    'A container (including init containers) of a DRA driver pod runs with securityContext.privileged: true: all host devices and capabilities, no seccomp/AppArmor confinement.',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const w of byWorkload(ctx, ctx.driverPods)) {
      const hits = allContainers(w.pod.spec).filter((c) => c.container.securityContext?.privileged === true);
      if (hits.length === 0) continue;
      out.push({
        subjects: [sa(w.pod)],
        objects: [w.owner],
        message:
          `DRA driver ${describeRef(w.owner)}${podsText(ctx, w, ctx.driverPods)} runs privileged: ${list(hits.map((h) => `${h.field === 'initContainers' ? 'init container' : 'container'} ${h.container.name}`))}. ` +
          `A privileged kubelet plugin owns the node: every device, every capability, the host's /dev and kernel interfaces.`,
        evidence: hits.map((h): Evidence => ({
          type: 'field',
          object: w.owner,
          path: `${w.base}.${h.field}[${h.index}].securityContext.privileged`,
          value: true,
        })),
        remediation:
          `Drop privileged and grant only what the driver needs (device nodes through CDI, specific capabilities), e.g. for each container:\n` +
          toYaml({
            securityContext: {
              privileged: false,
              allowPrivilegeEscalation: false,
              capabilities: { drop: ['ALL'], add: ['<only the capabilities the driver needs>'] },
            },
          }),
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- POD002

/** Exact host paths (after normalisation); narrower sub-directories such as /sys/class are what drivers should mount instead. */
const SENSITIVE_HOST_PATHS = new Set(['/', '/proc', '/sys']);

export const pod002: Check = {
  id: 'POD002',
  severity: 'medium',
  title: 'DRA driver pod shares host namespaces or mounts /, /proc or /sys',
  description: 'A DRA driver pod uses hostPID, hostNetwork or hostIPC, or mounts exactly /, /proc or /sys from the host.',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const w of byWorkload(ctx, ctx.driverPods)) {
      const spec = w.pod.spec;
      const issues: string[] = [];
      const evidence: Evidence[] = [];
      for (const flag of ['hostPID', 'hostNetwork', 'hostIPC'] as const) {
        if (spec[flag] !== true) continue;
        issues.push(`${flag}: true`);
        evidence.push({ type: 'field', object: w.owner, path: `${w.base}.${flag}`, value: true });
      }
      for (const m of mountedHostPaths(w.pod)) {
        if (!SENSITIVE_HOST_PATHS.has(m.path)) continue;
        issues.push(`hostPath ${m.path} (volume ${m.volume})`);
        evidence.push({ type: 'field', object: w.owner, path: `${w.base}.volumes[${m.index}].hostPath.path`, value: spec.volumes![m.index].hostPath!.path });
      }
      if (issues.length === 0) continue;
      out.push({
        subjects: [sa(w.pod)],
        objects: [w.owner],
        message: `DRA driver ${describeRef(w.owner)}${podsText(ctx, w, ctx.driverPods)} uses ${list(issues)}: it sees and can touch host processes, network or kernel state beyond its devices.`,
        evidence,
        remediation:
          `Set hostPID, hostNetwork and hostIPC to false unless the driver documents the need, and replace whole-host mounts with the narrow paths the driver uses ` +
          `(e.g. /sys/class/<subsystem>, /dev/<device>, the driver root) mounted readOnly where possible.`,
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- POD003

function missingHardening(pod: Pod, c: Container): { missing: string[]; fix: Record<string, unknown> } {
  const sc = c.securityContext ?? {};
  const psc = pod.spec.securityContext ?? {};
  const missing: string[] = [];
  const fix: Record<string, unknown> = {};
  if (!(sc.capabilities?.drop ?? []).some((d) => d.toUpperCase() === 'ALL')) {
    missing.push('capabilities.drop [ALL]');
    fix.capabilities = { drop: ['ALL'] };
  }
  if (sc.readOnlyRootFilesystem !== true) {
    missing.push('readOnlyRootFilesystem: true');
    fix.readOnlyRootFilesystem = true;
  }
  if ((sc.runAsNonRoot ?? psc.runAsNonRoot) !== true) {
    missing.push((sc.runAsUser ?? psc.runAsUser) === 0 ? 'runAsNonRoot: true (it runs as root: runAsUser 0)' : 'runAsNonRoot: true');
    fix.runAsNonRoot = true;
  }
  const seccomp = sc.seccompProfile?.type ?? psc.seccompProfile?.type;
  if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') {
    missing.push('seccompProfile RuntimeDefault');
    fix.seccompProfile = { type: 'RuntimeDefault' };
  }
  if (sc.allowPrivilegeEscalation !== false) {
    missing.push('allowPrivilegeEscalation: false');
    fix.allowPrivilegeEscalation = false;
  }
  return { missing, fix };
}

export const pod003: Check = {
  id: 'POD003',
  severity: 'low',
  title: 'DRA driver container lacks baseline hardening',
  description:
    'A DRA driver container (or init container) lacks capabilities drop ALL, readOnlyRootFilesystem, runAsNonRoot (pod or container), seccomp RuntimeDefault (pod or container) or allowPrivilegeEscalation=false. One finding per container.',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const w of byWorkload(ctx, ctx.driverPods)) {
      for (const { container, field, index } of allContainers(w.pod.spec)) {
        if (field === 'ephemeralContainers') continue;
        const { missing, fix } = missingHardening(w.pod, container);
        if (missing.length === 0) continue;
        const path = `${w.base}.${field}[${index}].securityContext`;
        out.push({
          subjects: [sa(w.pod)],
          objects: [w.owner, { kind: 'Container', namespace: w.owner.namespace, name: `${w.owner.kind}/${w.owner.name}/${container.name}` }],
          message: `${field === 'initContainers' ? 'Init container' : 'Container'} ${container.name} of DRA driver ${describeRef(w.owner)} lacks ${list(missing)}.`,
          evidence: [{ type: 'field', object: w.owner, path, value: container.securityContext ?? null }],
          remediation:
            `Add to ${path} (keep what the driver needs, e.g. a writable emptyDir instead of a writable root filesystem):\n` +
            toYaml({ securityContext: fix as never }),
        });
      }
    }
    return out;
  },
};

// ---------------------------------------------------------------- POD004

export const pod004: Check = {
  id: 'POD004',
  severity: 'critical',
  title: 'Tenant pod mounts the kubelet plugin directories',
  description:
    'A pod in a tenant namespace that is not a DRA driver pod mounts /var/lib/kubelet/plugins or /var/lib/kubelet/plugins_registry (or a parent or a sub-directory of them): it can talk to every driver socket on the node.',
  run(ctx) {
    const pods = ctx.pluginDirPods.filter((p) => ctx.isTenantNamespace(p.metadata.namespace ?? '') && !ctx.isDriverPod(p));
    const out: FindingDraft[] = [];
    for (const w of byWorkload(ctx, pods)) {
      const mounts = mountedHostPaths(w.pod).filter((m) => exposesPluginDir(m.path));
      const reaches = (dir: string) => mounts.some((m) => m.path === '/' || dir === m.path || dir.startsWith(`${m.path}/`) || m.path.startsWith(`${dir}/`));
      const sockets = [
        ...(reaches(KUBELET_PLUGIN_DIRS[0]) ? ["the DRA drivers' gRPC sockets (NodePrepareResources, NodeUnprepareResources)"] : []),
        ...(reaches(KUBELET_PLUGIN_DIRS[1]) ? ['the kubelet plugin registration sockets'] : []),
      ];
      out.push({
        subjects: [sa(w.pod)],
        objects: [w.owner],
        message:
          `${describeRef(w.owner)}${podsText(ctx, w, pods)} in tenant namespace ${w.owner.namespace} mounts ${list(mounts.map((m) => `hostPath ${m.path} (volume ${m.volume})`))} ` +
          `but is not a DRA driver pod. It can connect to ${list(sockets)} on its node (and, with write access, plant or replace sockets).`,
        evidence: mounts.map((m): Evidence => ({
          type: 'field',
          object: w.owner,
          path: `${w.base}.volumes[${m.index}].hostPath.path`,
          value: w.pod.spec.volumes![m.index].hostPath!.path,
        })),
        remediation:
          `Remove the hostPath volume(s) ${list(mounts.map((m) => m.volume))} from ${describeRef(w.owner)} and forbid hostPath in tenant namespaces ` +
          `(Pod Security Admission: kubectl label namespace ${w.owner.namespace} pod-security.kubernetes.io/enforce=baseline).`,
      });
    }
    return out;
  },
};

export const POD_CHECKS: Check[] = [pod001, pod002, pod003, pod004];
