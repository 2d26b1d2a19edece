import { describe, expect, it } from 'vitest';
import type { OwnerReference, Pod, ReplicaSet } from '@/lib/k8s/types';
import { daemonSetOwnerName, exposesPluginDir, indexReplicaSets, KUBELET_PLUGIN_DIRS, normaliseHostPath, ownerOfPod } from './pod-facts';

// Seeded so a failure can be replayed.
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('exposesPluginDir', () => {
  // The plain rule: the directory itself, the root, a parent of it, or a directory inside it.
  const plain = (hostPath: string) => {
    const p = normaliseHostPath(hostPath);
    return KUBELET_PLUGIN_DIRS.some((dir) => p === dir || p === '/' || dir.startsWith(`${p}/`) || p.startsWith(`${dir}/`));
  };

  it('answers as the plain rule on random paths built from plugin-directory pieces', () => {
    const next = random(23);
    const pieces = ['', '.', '..', 'var', 'lib', 'kubelet', 'plugins', 'plugins_registry', 'pluginsX', 'plugin', 'gpu.example.com', 'pod-resources', 'v'];
    let exposed = 0;
    for (let i = 0; i < 20_000; i++) {
      const n = Math.floor(next() * 7);
      const segs: string[] = [];
      for (let j = 0; j < n; j++) segs.push(pieces[Math.floor(next() * pieces.length)]);
      // Mostly the real prefix, so that parents, the directories and paths inside them all come up.
      const prefix = next() < 0.6 ? '/var/lib/kubelet/' : '/';
      const path = prefix + segs.join('/') + (next() < 0.1 ? '/' : '');
      const want = plain(path);
      if (want) exposed++;
      expect(exposesPluginDir(path), path).toBe(want);
    }
    // Both answers occur often enough for the comparison to mean something.
    expect(exposed).toBeGreaterThan(1_000);
    expect(exposed).toBeLessThan(19_000);
  });

  it('knows a sibling with the same prefix from the directory', () => {
    expect(exposesPluginDir('/var/lib/kubelet/plugins_registryX')).toBe(false);
    expect(exposesPluginDir('/var/lib/kubelet/plugins/')).toBe(true);
    expect(exposesPluginDir('/var/lib/kube')).toBe(false);
  });
});

describe('daemonSetOwnerName', () => {
  it("is the name ownerOfPod(…) gives when its kind is 'DaemonSet' on random owner references", () => {
    const next = random(7);
    const kinds = ['DaemonSet', 'ReplicaSet', 'Deployment', 'StatefulSet', 'Job', 'Node', 'CronJob', 'Custom'];
    const replicaSets: ReplicaSet[] = [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'rs-0', namespace: 'ns', ownerReferences: [{ kind: 'Deployment', name: 'web', controller: true }] },
        spec: {},
      },
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'rs-1', namespace: 'ns', ownerReferences: [{ kind: 'DaemonSet', name: 'odd' }] },
        spec: {},
      },
    ];
    const index = indexReplicaSets({ replicaSets });
    let daemonSets = 0;
    for (let i = 0; i < 5_000; i++) {
      const refs: OwnerReference[] = [];
      const n = Math.floor(next() * 4);
      for (let j = 0; j < n; j++) {
        const kind = kinds[Math.floor(next() * kinds.length)];
        const controller = next() < 0.5 ? true : next() < 0.5 ? false : undefined;
        refs.push({ kind, name: kind === 'ReplicaSet' ? `rs-${Math.floor(next() * 3)}` : `o-${j}`, ...(controller === undefined ? {} : { controller }) });
      }
      const pod: Pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `p-${i}`, namespace: 'ns', ...(n > 0 || next() < 0.5 ? { ownerReferences: refs } : {}) },
        spec: { containers: [] },
      };
      const owner = ownerOfPod(index, pod);
      const want = owner.kind === 'DaemonSet' ? owner.name : undefined;
      // Read plainly as well: the controller reference, else the first (both functions share the reading).
      const plain = refs.find((r) => r.controller) ?? refs[0];
      expect(want, JSON.stringify(refs)).toBe(plain?.kind === 'DaemonSet' ? plain.name : undefined);
      if (want !== undefined) daemonSets++;
      expect(daemonSetOwnerName(pod), JSON.stringify(refs)).toBe(want);
    }
    expect(daemonSets).toBeGreaterThan(300);
    expect(daemonSets).toBeLessThan(4_700);
  });
});
