import type { Container, DaemonSet, Deployment, ObjectRef, Pod, PodSpec, StatefulSet } from '@/lib/k8s/types';
import { describeRef, refKey, sortRefs } from '@/lib/k8s/refs';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Finding } from '@/lib/analysis/types';
import { missingHardening } from '@/lib/analysis/checks/pod-checks';
import { list } from '@/lib/analysis/checks/check-helpers';
import { applyStrategicPatch } from './apply-patch';
import { securityContextProblems } from './validate-objects';
import type { Proposed } from './verify-fix';

// POD003: one strategic merge patch of the workload's pod template that adds, to every container the
// issue names, the hardening it lacks and can take: never allowPrivilegeEscalation: false or a
// seccomp profile beside privileged (missingHardening leaves them out), never runAsNonRoot (beside
// runAsUser 0, or an image whose user is root, the kubelet would not start it, and the fix cannot pick
// the user the driver runs as: that is left to a person). The patched template is checked as the API
// server and the kubelet would.

type Field = 'containers' | 'initContainers';
const PATH = /\.(containers|initContainers)\[(\d+)\]\.securityContext$/;
const WORKLOAD_API: Record<string, string> = { DaemonSet: 'apps/v1', Deployment: 'apps/v1', StatefulSet: 'apps/v1' };

function workloadOf(ctx: AnalysisContext, ref: ObjectRef): DaemonSet | Deployment | StatefulSet | undefined {
  const same = (o: { metadata: { name: string; namespace?: string } }) =>
    o.metadata.name === ref.name && (o.metadata.namespace ?? '') === (ref.namespace ?? '');
  if (ref.kind === 'DaemonSet') return ctx.state.daemonSets.find(same);
  if (ref.kind === 'Deployment') return ctx.state.deployments.find(same);
  if (ref.kind === 'StatefulSet') return ctx.state.statefulSets.find(same);
  return undefined;
}

/** Why the pods of `ref` (not a DaemonSet, Deployment or StatefulSet) get no template patch, by what Kubernetes allows for its kind. */
function noTemplatePatch(ref: ObjectRef): string {
  const it = describeRef(ref);
  switch (ref.kind) {
    case 'ReplicaSet':
      return `${it} is not followed to a Deployment (the snapshot holds neither the ReplicaSet nor a pod-template-hash label naming one): a ReplicaSet does not replace its running pods when its template changes, and a Deployment that owns it would undo a patch; fix the Deployment or the manifest that creates it`;
    case 'Job':
      return `${it}: a Job's pod template cannot be changed once the Job exists (the API server refuses it); fix its manifest, or the CronJob that creates it, and create the Job again`;
    case 'CronJob':
      return `${it}: set the hardening in spec.jobTemplate.spec.template of the CronJob (the fix patches DaemonSets, Deployments and StatefulSets only); Jobs it has already created keep their pods`;
    default:
      return `${it} is a pod without a workload: the API server refuses changes to a running pod's security context; fix the manifest that creates it`;
  }
}

/** The containers the findings name: field and name, from the evidence path and the Container ref. */
function flagged(findings: readonly Finding[]): { field: Field; name: string }[] {
  const out: { field: Field; name: string }[] = [];
  for (const f of findings) {
    const ev = f.evidence.find((e) => e.type === 'field' && PATH.test(e.path));
    const container = f.objects.find((o) => o.kind === 'Container');
    if (!ev || ev.type !== 'field' || !container) continue;
    const name = container.name.split('/').pop()!;
    if (!out.some((c) => c.name === name)) out.push({ field: PATH.exec(ev.path)![1] as Field, name });
  }
  return out;
}

export function proposePodHardening(ctx: AnalysisContext, findings: readonly Finding[]): Proposed {
  const ref = findings[0].objects[0];
  const targets = sortRefs([...new Map(findings.map((f) => [refKey(f.objects[0]), f.objects[0]])).values()]);
  if (targets.some((t) => t.kind !== ref.kind || t.name !== ref.name))
    return { none: `its findings name different workloads (${list(targets.map(describeRef))})` };
  if (!WORKLOAD_API[ref.kind]) return { none: noTemplatePatch(ref) };
  // The workload's template, or (a snapshot without the workload object) the spec of one of its pods.
  const spec: PodSpec | undefined = workloadOf(ctx, ref)?.spec.template.spec ?? ctx.pods.find((p) => refKey(ctx.ownerOf(p)) === refKey(ref))?.spec;
  if (!spec) return { none: `neither ${describeRef(ref)} nor a pod of it is in the snapshot, so there is no pod template to patch` };
  const workload = { spec: { template: { spec } } };
  const pod = { metadata: { name: ref.name, namespace: ref.namespace }, spec } as Pod;
  const containers = flagged(findings);
  const patchSpec: Record<Field, { name: string; securityContext: Record<string, unknown> }[]> = { containers: [], initContainers: [] };
  const leftover: string[] = [];
  for (const { field, name } of containers) {
    const c = (spec[field] ?? []).find((x: Container) => x.name === name);
    if (!c) return { none: `container ${name} is not in the pod template of ${describeRef(ref)}` };
    const { fix } = missingHardening(pod, c);
    // The user a container runs as is left to a person: with runAsUser 0 the kubelet refuses
    // runAsNonRoot, and without runAsUser it refuses it when the image's user is root or not numeric
    // (which the snapshot does not show). No placeholder values either.
    if (fix.runAsNonRoot !== undefined) {
      leftover.push(
        fix.runAsUser !== undefined
          ? `container ${name} runs as root (runAsUser: 0): set a non-zero runAsUser and runAsNonRoot: true only if the driver works without root`
          : `container ${name}: set runAsNonRoot: true (with a non-zero runAsUser) only if its image runs as a non-root user, since the kubelet will not start a runAsNonRoot container whose image user is root`,
      );
      delete fix.runAsUser;
      delete fix.runAsNonRoot;
    }
    if (Object.keys(fix).length > 0) patchSpec[field].push({ name, securityContext: fix });
  }
  const templateSpec = Object.fromEntries(Object.entries(patchSpec).filter(([, v]) => v.length > 0));
  if (Object.keys(templateSpec).length === 0) return { none: leftover.join('; ') || 'no hardening can be added automatically' };
  const patch = { spec: { template: { spec: templateSpec } } };
  // Check the patched template as the server and the kubelet would, and that the hardening is then present.
  const patched = applyStrategicPatch(workload, patch);
  const patchedPod = { ...pod, spec: patched.spec.template.spec } as Pod;
  const problems: string[] = [];
  const remaining: string[] = [];
  for (const { field, name } of containers) {
    const c = (patchedPod.spec[field] ?? []).find((x: Container) => x.name === name)!;
    for (const p of securityContextProblems(c.securityContext, patchedPod.spec.securityContext)) problems.push(`container ${name}: ${p}`);
    const still = missingHardening(patchedPod, c).missing.filter((m) => !m.startsWith('runAsNonRoot'));
    if (still.length > 0) remaining.push(`container ${name} still lacks ${list(still)}`);
  }
  return {
    holders: [],
    probes: [],
    problems: [...problems, ...remaining],
    // The copies of one workload (same kind, name and pod spec in other namespaces: workload-copies.ts) get the same patch.
    otherChanges: targets.map((target) => ({
      action: 'patch' as const,
      target,
      apiVersion: WORKLOAD_API[target.kind],
      patchType: 'strategic' as const,
      patch,
      why: `adds the missing hardening to ${list(containers.map((c) => `${c.field === 'initContainers' ? 'init container' : 'container'} ${c.name}`))}`,
    })),
    checks: [
      'the patched pod template passes the API server’s security context validation (no allowPrivilegeEscalation: false beside privileged or CAP_SYS_ADMIN)',
      'no container gets runAsNonRoot beside runAsUser 0 or an unknown image user (the kubelet would not start it)',
      'every flagged container then has the hardening the check asks for, except what is left to a person',
    ],
    ...(leftover.length > 0 ? { leftover: leftover.join('; ') } : {}),
    summary: `Patch the pod template of ${describeRef(ref)}${targets.length > 1 ? ` and of its ${targets.length - 1} ${targets.length === 2 ? 'copy' : 'copies'} in other namespaces` : ''} (keep what the ${findings.length > 1 ? 'containers need' : 'container needs'}, e.g. a writable emptyDir instead of a writable root filesystem)`,
  };
}
