import type { Container, Pod } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Evidence } from '@/lib/analysis/types';
import type { ComponentPod, ComponentRole } from '@/lib/analysis/context/component-pods';
import { serviceAccountRef } from '@/lib/analysis/context/identities';
import { BASELINE_CAPABILITIES, HOST_LEVEL_CAPABILITIES, hostLevelCapabilities, normaliseCapability } from '@/lib/analysis/context/linux-capabilities';
import { allContainers, exposesPluginDir, KUBELET_PLUGIN_DIRS, mountedHostPaths, podServiceAccount } from '@/lib/analysis/context/pod-facts';
import { exposedRuntimeSockets, type RuntimeSocketKind } from '@/lib/analysis/context/runtime-sockets';
import { manifestYaml } from '@/lib/k8s/manifest-yaml';
import type { Check, FindingDraft } from './check-types';
import { list } from './check-helpers';
import { byWorkload, type Workload } from './pod-workloads';
import { describeRef, describeSubject } from '@/lib/k8s/refs';

// Pod checks report workloads (ownerOf), not pods: a DaemonSet with 50 pods is one finding. The
// representative pod is the first by name (a stand-in from the workload template when no pod was seen).
// POD001-POD003 judge every DRA component pod (ctx.draComponentPods: kubelet plugins, controllers and
// the daemons they create); POD004 judges tenant pods that reach the plugin directories.

/** The workload's observed pods, counted by byWorkload over the same pods the check reports. */
function podsText(w: Workload): string {
  const n = w.observed;
  if (n === 0) return ' (from its pod template; no pod observed)';
  return w.owner.kind === 'Pod' ? '' : ` (${n} pod${n === 1 ? '' : 's'})`;
}

const sa = (pod: Pod) => serviceAccountRef(pod.metadata.namespace ?? '', podServiceAccount(pod));

interface ComponentWorkload extends Workload {
  role: ComponentRole;
  /** Why a workload that is not a kubelet plugin counts as a DRA component (none for kubelet plugins). */
  roleEvidence: Evidence[];
}

/** DRA component pods grouped by workload; the role is the representative pod's. */
// POD001-POD003 each read them: grouped once per context (on a large cluster, thousands of component pods).
const componentWorkloadsByContext = new WeakMap<AnalysisContext, ComponentWorkload[]>();

function componentWorkloads(ctx: AnalysisContext): ComponentWorkload[] {
  let found = componentWorkloadsByContext.get(ctx);
  if (!found) componentWorkloadsByContext.set(ctx, (found = groupComponentWorkloads(ctx)));
  return found;
}

function groupComponentWorkloads(ctx: AnalysisContext): ComponentWorkload[] {
  const byPod = new Map(ctx.draComponentPods.map((c) => [c.pod, c]));
  const driversIn = new Map<string, string[]>();
  for (const d of byWorkload(ctx, ctx.driverPods)) {
    const ns = d.owner.namespace ?? '';
    driversIn.set(ns, [...(driversIn.get(ns) ?? []), describeRef(d.owner)]);
  }
  return byWorkload(ctx, componentPodList(ctx)).map((w) => {
    const component = byPod.get(w.pod)!;
    return { ...w, role: component.role, roleEvidence: roleEvidence(ctx, w, component, driversIn) };
  });
}

const componentPodList = (ctx: AnalysisContext) => ctx.draComponentPods.map((c) => c.pod);

/** "DRA driver" for kubelet plugins (as before), "DRA component" for controllers and the daemons they create. */
const label = (w: ComponentWorkload) => (w.role === 'kubelet-plugin' ? 'DRA driver' : 'DRA component');

function roleEvidence(ctx: AnalysisContext, w: Workload, c: ComponentPod, driversIn: ReadonlyMap<string, string[]>): Evidence[] {
  const ns = w.owner.namespace ?? '';
  if (c.role === 'component-identity') {
    const caps = ctx.componentReasons(sa(w.pod)).capabilities;
    return [
      { type: 'note', text: `DRA component: it runs as ${describeSubject(sa(w.pod))}, a DRA component identity${caps.length > 0 ? ` (${list(caps)})` : ''}` },
    ];
  }
  if (c.role === 'driver-namespace') {
    return [{ type: 'note', text: `DRA component: it runs in namespace ${ns}, the namespace of DRA driver ${list(driversIn.get(ns) ?? [])}` }];
  }
  if (c.role === 'created-by-component') {
    return [
      { type: 'note', text: `DRA component: ${list(c.creators.map(describeSubject))}, a DRA component identity, can create ${c.createdAs} in namespace ${ns}` },
    ];
  }
  return [];
}

const containerText = (field: string, name: string) =>
  `${field === 'initContainers' ? 'init container' : field === 'ephemeralContainers' ? 'ephemeral container' : 'container'} ${name}`;

// ---------------------------------------------------------------- POD001

export const pod001: Check = {
  id: 'POD001',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const w of componentWorkloads(ctx)) {
      const containers = allContainers(w.pod.spec);
      const privileged = containers.filter((c) => c.container.securityContext?.privileged === true);
      const capable = containers.map((c) => ({ ...c, caps: hostLevelCapabilities(c.container) })).filter((c) => c.caps.length > 0);
      if (privileged.length === 0 && capable.length === 0) continue;
      const noun = w.role === 'kubelet-plugin' ? 'kubelet plugin' : 'DRA component';
      const needs = w.role === 'kubelet-plugin' ? 'driver' : 'component';
      const caps = [...new Set(capable.flatMap((c) => c.caps))];
      const does = [
        ...(privileged.length > 0 ? [`runs privileged: ${list(privileged.map((h) => containerText(h.field, h.container.name)))}`] : []),
        ...(capable.length > 0
          ? [`adds host-level capabilities: ${list(capable.map((h) => `${containerText(h.field, h.container.name)} (${h.caps.join(', ')})`))}`]
          : []),
      ];
      const why = [
        ...(privileged.length > 0 ? [`A privileged ${noun} owns the node: every device, every capability, the host's /dev and kernel interfaces.`] : []),
        ...(capable.length > 0 ? [`${list(caps.map((c) => `${c} lets it ${HOST_LEVEL_CAPABILITIES[c]}`))}.`] : []),
      ];
      out.push({
        subjects: [sa(w.pod)],
        objects: [w.owner],
        message: `${label(w)} ${describeRef(w.owner)}${podsText(w)} ${does.join('; ')}. ${why.join(' ')}`,
        evidence: [
          ...privileged.map((h): Evidence => ({
            type: 'field',
            object: w.owner,
            path: `${w.base}.${h.field}[${h.index}].securityContext.privileged`,
            value: true,
          })),
          ...capable.map((h): Evidence => ({
            type: 'field',
            object: w.owner,
            path: `${w.base}.${h.field}[${h.index}].securityContext.capabilities.add`,
            value: [...(h.container.securityContext?.capabilities?.add ?? [])],
          })),
          ...w.roleEvidence,
        ],
        remediation: [
          ...(privileged.length > 0
            ? [
                `Drop privileged and grant only what the ${needs} needs (device nodes through CDI, specific capabilities), e.g. for each container:\n` +
                  manifestYaml({
                    securityContext: {
                      privileged: false,
                      allowPrivilegeEscalation: false,
                      capabilities: { drop: ['ALL'], add: [`<only the capabilities the ${needs} needs>`] },
                    },
                  }),
              ]
            : []),
          ...(capable.length > 0
            ? [
                `Remove ${list(caps)} from capabilities.add of ${list(capable.map((h) => containerText(h.field, h.container.name)))}: ` +
                  `the Pod Security baseline level lets a pod add only ${list(BASELINE_CAPABILITIES)}. Keep a host-level capability only where the ${needs} documents the need.`,
              ]
            : []),
        ].join('\n'),
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- POD002

/** Exact host paths (after normalisation); narrower sub-directories such as /sys/class are what drivers should mount instead. */
const SENSITIVE_HOST_PATHS = new Set(['/', '/proc', '/sys']);

const SOCKET_TEXT: Record<RuntimeSocketKind, string> = { runtime: 'the container runtime socket', nri: 'the NRI socket' };

export const pod002: Check = {
  id: 'POD002',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const w of componentWorkloads(ctx)) {
      const spec = w.pod.spec;
      const issues: string[] = [];
      const evidence: Evidence[] = [];
      const sockets = new Set<RuntimeSocketKind>();
      for (const flag of ['hostPID', 'hostNetwork', 'hostIPC'] as const) {
        if (spec[flag] !== true) continue;
        issues.push(`${flag}: true`);
        evidence.push({ type: 'field', object: w.owner, path: `${w.base}.${flag}`, value: true });
      }
      for (const m of mountedHostPaths(w.pod)) {
        const kinds = SENSITIVE_HOST_PATHS.has(m.path) ? [] : exposedRuntimeSockets(m.path);
        if (!SENSITIVE_HOST_PATHS.has(m.path) && kinds.length === 0) continue;
        for (const k of kinds) sockets.add(k);
        issues.push(`hostPath ${m.path} (volume ${m.volume}${kinds.length > 0 ? `: ${list(kinds.map((k) => SOCKET_TEXT[k]))}` : ''})`);
        evidence.push({ type: 'field', object: w.owner, path: `${w.base}.volumes[${m.index}].hostPath.path`, value: spec.volumes![m.index].hostPath!.path });
      }
      if (issues.length === 0) continue;
      out.push({
        subjects: [sa(w.pod)],
        objects: [w.owner],
        message:
          `${label(w)} ${describeRef(w.owner)}${podsText(w)} uses ${list(issues)}: it sees and can touch host processes, network or kernel state beyond its devices.` +
          (sockets.has('runtime')
            ? ' Through the container runtime socket it controls every container on the node: it can create privileged containers and exec into or stop any of them.'
            : '') +
          (sockets.has('nri')
            ? " Through the NRI socket it can register as an NRI plugin, which the runtime calls for every container it creates or updates on the node, and change that container's mounts, devices, environment, hooks and resources."
            : ''),
        evidence: [...evidence, ...w.roleEvidence],
        remediation:
          `Set hostPID, hostNetwork and hostIPC to false unless the driver documents the need, and replace whole-host mounts with the narrow paths the driver uses ` +
          `(e.g. /sys/class/<subsystem>, /dev/<device>, the driver root) mounted readOnly where possible.` +
          (sockets.size > 0
            ? ` Mount the NRI or container runtime socket only into a component that must be an NRI plugin or a runtime client, as the socket file itself ` +
              `(hostPath type: Socket, e.g. /var/run/nri/nri.sock) rather than a directory such as /run, /var/run or /var, and count that component as able to control every container on its nodes.`
            : ''),
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- POD003

/**
 * What a container lacks of baseline hardening, and a fix the API server and the kubelet accept.
 * Container fields override the pod's (runAsUser, runAsNonRoot, seccompProfile). A non-zero runAsUser
 * is non-root: the kubelet's runAsNonRoot test asks exactly that. With runAsUser 0 the fix must change
 * the user too, since the kubelet refuses to start runAsNonRoot: true beside runAsUser 0.
 * allowPrivilegeEscalation: false is refused by the API server beside privileged: true (and beside
 * capabilities.add CAP_SYS_ADMIN) and has no effect with SYS_ADMIN in any spelling; a privileged
 * container also runs without seccomp whatever its profile says, and with every capability whatever
 * it drops (CRI-O applies capabilities.add/drop only to unprivileged containers; containerd applies
 * them, then gives a privileged container all capabilities). Those are not asked for: the container's
 * privilege is POD001's finding.
 */
export function missingHardening(pod: Pod, c: Container): { missing: string[]; fix: Record<string, unknown>; waived: string | null } {
  const sc = c.securityContext ?? {};
  const psc = pod.spec.securityContext ?? {};
  const privileged = sc.privileged === true;
  const sysAdmin = (sc.capabilities?.add ?? []).some((a) => normaliseCapability(a) === 'SYS_ADMIN');
  const missing: string[] = [];
  const fix: Record<string, unknown> = {};
  if (!privileged && !(sc.capabilities?.drop ?? []).some((d) => d.toUpperCase() === 'ALL')) {
    missing.push('capabilities.drop [ALL]');
    fix.capabilities = { drop: ['ALL'] };
  }
  if (sc.readOnlyRootFilesystem !== true) {
    missing.push('readOnlyRootFilesystem: true');
    fix.readOnlyRootFilesystem = true;
  }
  const runAsUser = sc.runAsUser ?? psc.runAsUser;
  const nonRootUser = typeof runAsUser === 'number' && runAsUser > 0;
  if ((sc.runAsNonRoot ?? psc.runAsNonRoot) !== true && !nonRootUser) {
    if (runAsUser === 0) {
      missing.push('runAsNonRoot: true with a non-zero runAsUser (it runs as root: runAsUser 0)');
      fix.runAsUser = '<a non-zero UID>';
    } else {
      missing.push('runAsNonRoot: true');
    }
    fix.runAsNonRoot = true;
  }
  const seccomp = sc.seccompProfile?.type ?? psc.seccompProfile?.type;
  if (!privileged && seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') {
    missing.push('seccompProfile RuntimeDefault');
    fix.seccompProfile = { type: 'RuntimeDefault' };
  }
  if (!privileged && !sysAdmin && sc.allowPrivilegeEscalation !== false) {
    missing.push('allowPrivilegeEscalation: false');
    fix.allowPrivilegeEscalation = false;
  }
  const waived = privileged
    ? 'Seccomp, capabilities.drop and allowPrivilegeEscalation: false cannot apply while it runs privileged (POD001): a privileged container gets every capability whatever it drops.'
    : sysAdmin
      ? 'allowPrivilegeEscalation: false cannot apply while it adds SYS_ADMIN (POD001).'
      : null;
  return { missing, fix, waived };
}

export const pod003: Check = {
  id: 'POD003',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const w of componentWorkloads(ctx)) {
      for (const { container, field, index } of allContainers(w.pod.spec)) {
        if (field === 'ephemeralContainers') continue;
        const { missing, fix, waived } = missingHardening(w.pod, container);
        if (missing.length === 0) continue;
        const path = `${w.base}.${field}[${index}].securityContext`;
        out.push({
          subjects: [sa(w.pod)],
          objects: [w.owner, { kind: 'Container', namespace: w.owner.namespace, name: `${w.owner.kind}/${w.owner.name}/${container.name}` }],
          message: `${field === 'initContainers' ? 'Init container' : 'Container'} ${container.name} of ${label(w)} ${describeRef(w.owner)} lacks ${list(missing)}.${waived ? ` ${waived}` : ''}`,
          evidence: [{ type: 'field', object: w.owner, path, value: container.securityContext ?? null }, ...w.roleEvidence],
          remediation:
            `Add to ${path} (keep what the ${w.role === 'kubelet-plugin' ? 'driver' : 'component'} needs, e.g. a writable emptyDir instead of a writable root filesystem):\n` +
            manifestYaml({ securityContext: fix as never }),
        });
      }
    }
    return out;
  },
};

// ---------------------------------------------------------------- POD004

export const pod004: Check = {
  id: 'POD004',
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
          `${describeRef(w.owner)}${podsText(w)} in tenant namespace ${w.owner.namespace} mounts ${list(mounts.map((m) => `hostPath ${m.path} (volume ${m.volume})`))} ` +
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
