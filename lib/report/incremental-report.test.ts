import { describe, expect, it } from 'vitest';
import { KINDS, type KindDescriptor } from '@/lib/k8s/kinds';
import { StateAssembler } from '@/lib/k8s/state-assembler';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { KubeObject } from '@/lib/k8s/types';
import { loadDemo } from '@/server/sources/demo-source';
import { buildReportWithContext, type ReportBuild } from './build-report';

// A live cluster's analysis is built from the previous version's (unchanged kinds keep their
// arrays, and the engine keeps the indexes built from them). After any sequence of watch events it
// must equal an analysis of the same objects from scratch.

type Store = Map<string, KubeObject>;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** A watched kind: objects by key and a generation bumped on every change, as a reflector keeps them. */
class Watched {
  generation = 0;
  constructor(
    readonly kind: KindDescriptor,
    readonly store: Store,
  ) {}
  objects(): KubeObject[] {
    return [...this.store.values()];
  }
  put(o: KubeObject) {
    this.store.set(keyOf(o), o);
    this.generation++;
  }
  remove(o: KubeObject) {
    this.store.delete(keyOf(o));
    this.generation++;
  }
}

/** One random watch event: an object added (a renamed copy), modified or deleted. */
function randomEvent(r: () => number, kinds: Watched[], nodes: string[]): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const k = pick(kinds.filter((w) => w.store.size > 0));
  const o = pick([...k.store.values()]) as KubeObject & { spec?: Record<string, unknown>; subjects?: unknown[]; rules?: unknown[] };
  const op = r();
  if (op < 0.25) {
    k.remove(o);
    return `DELETED ${k.kind.kind} ${keyOf(o)}`;
  }
  if (op < 0.6) {
    const copy = { ...o, metadata: { ...o.metadata, name: `${o.metadata.name}-c${Math.floor(r() * 1e6)}`, uid: undefined } };
    k.put(copy);
    return `ADDED ${k.kind.kind} ${keyOf(copy)}`;
  }
  // A change that matters to the analysis where the kind has one: pods move, bindings gain subjects.
  let changed: KubeObject = { ...o, metadata: { ...o.metadata, labels: { ...o.metadata.labels, touched: String(Math.floor(r() * 100)) } } };
  if (k.kind.kind === 'Pod' && o.spec) changed = { ...changed, spec: { ...o.spec, nodeName: pick(nodes) } } as KubeObject;
  if ((k.kind.kind === 'RoleBinding' || k.kind.kind === 'ClusterRoleBinding') && o.subjects)
    changed = {
      ...changed,
      subjects: [...o.subjects, { kind: 'Group', name: pick(['system:authenticated', 'tenants', 'system:nodes']), apiGroup: 'rbac.authorization.k8s.io' }],
    } as KubeObject;
  if ((k.kind.kind === 'Role' || k.kind.kind === 'ClusterRole') && o.rules)
    changed = {
      ...changed,
      rules: [
        ...o.rules,
        { apiGroups: ['resource.k8s.io'], resources: [pick(['resourceclaims/status', 'resourceslices', 'resourceclaims'])], verbs: ['update', 'create'] },
      ],
    } as KubeObject;
  k.put(changed);
  return `MODIFIED ${k.kind.kind} ${keyOf(o)}`;
}

/** The same objects in fresh arrays, analysed with nothing kept. */
function fromScratch(state: ClusterState): ReportBuild {
  const copy = { ...state, warnings: [...state.warnings] } as unknown as Record<string, unknown>;
  for (const k of KINDS) copy[k.collection] = [...(state[k.collection] as KubeObject[])];
  return buildReportWithContext(copy as unknown as ClusterState);
}

describe('the analysis of a live cluster, version after version', () => {
  for (const seed of [1, 2, 3]) {
    it(`equals an analysis from scratch after every batch of random watch events (seed ${seed})`, async () => {
      const demo = await loadDemo();
      const r = rng(seed);
      const watched = KINDS.map((kind) => new Watched(kind, new Map((demo[kind.collection] as KubeObject[]).map((o) => [keyOf(o), o]))));
      const nodes = demo.nodes.map((n) => n.metadata.name);
      const assembler = new StateAssembler();
      const assemble = () => assembler.assemble(demo.source, watched, demo.warnings);
      let previous = buildReportWithContext(assemble());
      let kept = 0;
      for (let step = 0; step < 12; step++) {
        const events = Array.from({ length: 1 + Math.floor(r() * 4) }, () => randomEvent(r, watched, nodes));
        const state = assemble();
        const next = buildReportWithContext(state, { previous });
        if (next.context.engine.rbac === previous.context.engine.rbac || next.context.engine.nodeGraph === previous.context.engine.nodeGraph) kept++;
        expect(JSON.stringify(next.report), events.join('; ')).toBe(JSON.stringify(fromScratch(state).report));
        expect([...next.texts]).toEqual([...fromScratch(state).texts]);
        previous = next;
      }
      // Some versions must have kept an index, or this tests nothing incremental.
      expect(kept).toBeGreaterThan(0);
    });
  }

  it('keeps the RBAC index when only pods change and rebuilds it when a RoleBinding does', async () => {
    const demo = await loadDemo();
    const watched = KINDS.map((kind) => new Watched(kind, new Map((demo[kind.collection] as KubeObject[]).map((o) => [keyOf(o), o]))));
    const assembler = new StateAssembler();
    const assemble = () => assembler.assemble(demo.source, watched, demo.warnings);
    const first = buildReportWithContext(assemble());
    const pods = watched.find((w) => w.kind.kind === 'Pod')!;
    const pod = pods.objects()[0];
    pods.put({ ...pod, metadata: { ...pod.metadata, name: 'moved' } });
    const afterPod = buildReportWithContext(assemble(), { previous: first });
    expect(afterPod.context.engine.rbac).toBe(first.context.engine.rbac);
    expect(afterPod.context.engine.nodeGraph).not.toBe(first.context.engine.nodeGraph);
    const bindings = watched.find((w) => w.kind.kind === 'RoleBinding')!;
    bindings.remove(bindings.objects()[0]);
    const afterBinding = buildReportWithContext(assemble(), { previous: afterPod });
    expect(afterBinding.context.engine.rbac).not.toBe(afterPod.context.engine.rbac);
    expect(afterBinding.context.engine.nodeGraph).toBe(afterPod.context.engine.nodeGraph);
  });
});
