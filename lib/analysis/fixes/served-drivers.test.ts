import { describe, expect, it } from 'vitest';
import { node, slice } from '@/lib/authz/__fixtures__/builders';
import { contextOf, dsPod } from '@/lib/analysis/__fixtures__/builders';
import { mountedHostPaths } from '@/lib/analysis/context/pod-facts';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Pod, SubjectRef } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { servedDrivers } from './served-drivers';

// servedDrivers reads each distinct mount path, argument and name once; the reference below reads
// every pod's, as the plain reading does, and must give the same drivers on random accounts.

const PLUGIN_DIR = /^\/var\/lib\/kubelet\/plugins\/([^/]+)/;
const REGISTRATION = /^\/var\/lib\/kubelet\/plugins_registry\/(.+)-reg\.sock$/;
const ARGUMENT = /^--?(?:driver-name|driver|drivername)=(.+)$/;
const COMMON = new Set(['dra', 'driver', 'drivers', 'resource', 'kubelet', 'plugin', 'kubeletplugin', 'service', 'account', 'chart', 'com', 'io']);
const COMMON_REST = ['org', 'k8s', 'kubernetes', 'x-k8s', 'sigs', 'example', 'controller', 'daemonset', 'latest'];
for (const w of COMMON_REST) COMMON.add(w);
const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 && !COMMON.has(w));
const sameWord = (a: string, b: string) => a === b || (Math.min(a.length, b.length) >= 4 && (a.includes(b) || b.includes(a)));

function reference(ctx: AnalysisContext, sa: SubjectRef): string[] {
  const pods = ctx.podsOfServiceAccount(sa.namespace ?? '', sa.name);
  const named = new Set<string>();
  for (const pod of pods) {
    for (const m of mountedHostPaths(pod)) {
      const hit = PLUGIN_DIR.exec(m.path) ?? REGISTRATION.exec(m.path);
      if (hit) named.add(hit[1]);
    }
    for (const c of [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])]) {
      for (const a of [...(c.command ?? []), ...(c.args ?? [])]) {
        const hit = ARGUMENT.exec(a);
        if (hit) named.add(hit[1]);
      }
    }
  }
  if (named.size > 0) return [...named].sort();
  const nodes = new Set(pods.map((p) => p.spec?.nodeName).filter((n): n is string => !!n));
  const onNode = (n: string) => [...new Set(ctx.state.resourceSlices.filter((s) => s.spec.nodeName === n).map((s) => s.spec.driver))];
  const onNodes = [...new Set([...nodes].flatMap(onNode))].sort();
  if (onNodes.length <= 1) return onNodes;
  const own = [
    ...new Set(
      [
        sa.namespace ?? '',
        sa.name,
        ...pods.flatMap((p) => [ctx.ownerOf(p).name, ...(p.spec.containers ?? []).flatMap((c) => [c.name, c.image ?? ''])]),
      ].flatMap(words),
    ),
  ];
  const scored = onNodes.map((d) => ({ d, score: words(d).filter((w) => own.some((o) => sameWord(w, o))).length }));
  const strong = scored.filter((s) => s.score >= 2).map((s) => s.d);
  if (strong.length > 0) return strong;
  const weak = scored.filter((s) => s.score === 1).map((s) => s.d);
  return weak.length === 1 ? weak : [];
}

describe('servedDrivers on random accounts', () => {
  it('names the drivers the plain reading of every pod names', () => {
    const drivers = ['gpu.intel.com', 'gpu.nvidia.com', 'compute-domain.nvidia.com', 'sriovnetwork.example.com', 'tpu.google.com', 'dra.example.com'];
    const shapes = { named: 0, fromNodes: 0, none: 0 };
    for (let seed = 1; seed <= 100; seed++) {
      const r = createRandom(seed);
      const nodes = Array.from({ length: 2 + r.int(4) }, (_, i) => `node-${i}`);
      const slices = nodes.flatMap((n, i) => drivers.filter(() => r.chance(0.35)).map((d, j) => slice(`s-${i}-${j}`, d, n)));
      const accounts = ['intel-gpu-plugin', 'nvidia-dra', 'sriov-net', 'worker', 'tpu'];
      const pods: Pod[] = [];
      for (let i = 0; i < 30; i++) {
        const sa = r.pick(accounts);
        const volumes = [];
        const mounts = [];
        // Some accounts' pods name no driver at all: their drivers come from their nodes' slices.
        const quiet = sa === 'worker' || sa === 'tpu' || (sa === 'sriov-net' && seed % 2 === 0);
        for (let v = 0; v < r.int(3); v++) {
          const path = quiet
            ? r.pick(['/var/lib/kubelet/plugins', '/dev', '/var/run/cdi'])
            : r.pick([
                `/var/lib/kubelet/plugins/${r.pick(drivers)}`,
                `/var/lib/kubelet/plugins_registry/${r.pick(drivers)}-reg.sock`,
                '/var/lib/kubelet/plugins',
                '/dev',
                '/var/run/cdi',
              ]);
          volumes.push({ name: `v${v}`, hostPath: { path } });
          if (r.chance(0.7)) mounts.push({ name: `v${v}`, mountPath: `/m${v}` });
        }
        const args = !quiet && r.chance(0.15) ? [r.pick(['--driver-name=', '-driver=', '--drivername=', '--log='] as const) + r.pick(drivers)] : undefined;
        const container = { name: r.pick(['plugin', 'gpu', 'sriov-dp', 'main']), image: r.pick(['intel/gpu:1', 'nvcr.io/nvidia/dra:2', 'tpu-agent:3']) };
        const init = !quiet && r.chance(0.2) ? [{ name: 'init', command: ['sh', r.pick(['-c', `--driver=${r.pick(drivers)}`])] }] : undefined;
        pods.push(
          dsPod('drivers', r.pick(['intel-gpu-ds', 'nvidia-dra-ds', 'sriov-ds', 'generic-ds']), `p${i}`, {
            nodeName: r.pick(nodes),
            serviceAccountName: sa,
            volumes,
            containers: [{ ...container, volumeMounts: mounts, args }],
            ...(init ? { initContainers: init } : {}),
          }),
        );
      }
      const ctx = contextOf({ nodes: nodes.map(node), resourceSlices: slices, pods });
      for (const name of accounts) {
        const sa: SubjectRef = { kind: 'ServiceAccount', namespace: 'drivers', name };
        const expected = reference(ctx, sa);
        expect([name, seed, servedDrivers(ctx, sa)]).toEqual([name, seed, expected]);
        const named = ctx
          .podsOfServiceAccount('drivers', name)
          .some((p) => mountedHostPaths(p).some((m) => PLUGIN_DIR.test(m.path) || REGISTRATION.test(m.path)));
        if (expected.length === 0) shapes.none++;
        else if (named) shapes.named++;
        else shapes.fromNodes++;
      }
    }
    // Not vacuous: drivers named by the pods, drivers found from the nodes' slices, and none.
    expect(shapes.named).toBeGreaterThan(20);
    expect(shapes.fromNodes).toBeGreaterThan(5);
    expect(shapes.none).toBeGreaterThan(5);
  });
});
