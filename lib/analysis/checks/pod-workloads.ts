import type { ObjectRef, Pod } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { isTemplatePod } from '@/lib/analysis/context/pod-facts';
import { refKey } from '@/lib/k8s/refs';

export interface Workload {
  owner: ObjectRef;
  pod: Pod;
  /** Prefix of field paths on the owner: the pod itself, or the workload's pod template. */
  base: string;
  /** Its observed pods (not template stand-ins) among the pods grouped. */
  observed: number;
}

interface Group {
  workload: Workload;
  template: boolean;
}

/**
 * The pods grouped by owner (ctx.ownerOf), in owner key order, each workload with its first pod by
 * name, observed pods before template stand-ins, and its observed pods counted. Only each group's
 * first pod is kept while grouping: a sort of every pod by a key string made per pod (thousands of
 * DaemonSet pods of the DRA components on a large cluster) was most of the grouping. A group's pods
 * share the owner's namespace, so their names order them as the namespace/name keys did; on a tie
 * the earlier pod stays, as with the stable sort. The group keeps the owner of the first pod seen
 * (the same kind, namespace and name for every pod of the group).
 */
export function byWorkload(ctx: Pick<AnalysisContext, 'ownerOf'>, pods: readonly Pod[]): Workload[] {
  const groups = new Map<string, Group>();
  for (const pod of pods) {
    const owner = ctx.ownerOf(pod);
    const key = refKey(owner);
    const template = isTemplatePod(pod);
    const g = groups.get(key);
    if (!g) {
      groups.set(key, { workload: { owner, pod, base: owner.kind === 'Pod' ? 'spec' : 'spec.template.spec', observed: template ? 0 : 1 }, template });
      continue;
    }
    const w = g.workload;
    if (!template) w.observed++;
    if (g.template === template ? pod.metadata.name < w.pod.metadata.name : g.template) {
      w.pod = pod;
      g.template = template;
    }
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g.workload);
}
