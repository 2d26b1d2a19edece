import { describe, expect, it } from 'vitest';
import { isTemplatePod, ownerOfPod } from '@/lib/analysis/context/pod-facts';
import { refKey } from '@/lib/k8s/refs';
import type { ObjectRef, Pod, ReplicaSet } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { byWorkload, type Workload } from './pod-workloads';

// byWorkload keeps only each group's first pod while grouping: it must give what grouping the pods
// sorted by (observed before template stand-ins, then namespace/name) gave, for random pods of several
// namespaces owned by DaemonSets, ReplicaSets (with and without their Deployment), Jobs, or nothing,
// with repeated names, template stand-ins, and owner references without a controller.

/** The grouping before: every pod sorted by its key, then grouped by owner in that order. */
function plainByWorkload(ownerOf: (pod: Pod) => ObjectRef, pods: readonly Pod[]): Workload[] {
  const keyed = pods.map((pod) => ({ pod, template: isTemplatePod(pod), name: `${pod.metadata.namespace ?? ''}/${pod.metadata.name}` }));
  keyed.sort((a, b) => Number(a.template) - Number(b.template) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const groups = new Map<string, Workload>();
  for (const { pod, template } of keyed) {
    const owner = ownerOf(pod);
    const key = refKey(owner);
    let w = groups.get(key);
    if (!w) groups.set(key, (w = { owner, pod, base: owner.kind === 'Pod' ? 'spec' : 'spec.template.spec', observed: 0 }));
    if (!template) w.observed++;
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, w]) => w);
}

describe('byWorkload on random pods', () => {
  let merged = 0;
  for (let seed = 1; seed <= 40; seed++) {
    it(`groups as the sorted grouping did (seed ${seed})`, () => {
      const r = createRandom(7100 + seed);
      const namespaces = ['a', 'b', 'a-b'];
      const replicaSets = new Map<string, ReplicaSet>();
      for (const ns of namespaces)
        for (const rs of ['web-1', 'web-2', 'job-x'])
          if (r.chance(0.6))
            replicaSets.set(`${ns}/${rs}`, {
              metadata: { namespace: ns, name: rs, ownerReferences: r.chance(0.8) ? [{ kind: 'Deployment', name: rs.split('-')[0], controller: true }] : [] },
            } as unknown as ReplicaSet);
      const owners = [
        { kind: 'DaemonSet', name: 'plugin' },
        { kind: 'DaemonSet', name: 'exporter' },
        { kind: 'ReplicaSet', name: 'web-1' },
        { kind: 'ReplicaSet', name: 'web-2' },
        { kind: 'ReplicaSet', name: 'gone-abc' },
        { kind: 'Job', name: 'job-x' },
        { kind: 'Node', name: 'n1' },
      ];
      const pods: Pod[] = Array.from({ length: 5 + r.int(60) }, () => {
        const refs = r.chance(0.15)
          ? []
          : [{ ...r.pick(owners), controller: r.chance(0.8) }, ...(r.chance(0.2) ? [{ ...r.pick(owners), controller: r.chance(0.5) }] : [])];
        const labels = r.chance(0.5) ? { 'pod-template-hash': r.pick(['abc', 'def']) } : undefined;
        return {
          metadata: {
            namespace: r.pick(namespaces),
            name: `p${r.int(12)}`,
            ownerReferences: refs,
            ...(labels ? { labels } : {}),
            ...(r.chance(0.2) ? { annotations: { 'dra-posture.io/from-pod-template': r.chance(0.8) ? 'true' : 'false' } } : {}),
          },
          spec: { containers: [] },
        } as unknown as Pod;
      });
      const ownerOf = (pod: Pod) => ownerOfPod(replicaSets, pod);
      const expected = plainByWorkload(ownerOf, pods);
      const got = byWorkload({ ownerOf }, pods);
      expect(got).toStrictEqual(expected);
      // The representative is the very pod the sort put first (ties keep the earlier pod).
      expect(got.map((w) => pods.indexOf(w.pod))).toEqual(expected.map((w) => pods.indexOf(w.pod)));
      merged += pods.length - expected.length;
    });
  }
  it('groups several pods per workload (the cases above are not vacuous)', () => {
    expect(merged).toBeGreaterThan(500);
  });
});
