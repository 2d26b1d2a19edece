import { describe, expect, it } from 'vitest';
import { createRandom } from '@/scripts/bench/prng';
import type { Pod } from '@/lib/k8s/types';
import { podsByAccount } from './pods-by-account';

// Against the plain reading: the pods, in the list's order, whose namespace is the one asked and
// whose service account (spec.serviceAccountName, else spec.serviceAccount, else "default") is the name.
describe('podsByAccount on random pods', () => {
  for (let seed = 0; seed < 40; seed++) {
    it(`seed ${seed}`, () => {
      const r = createRandom(7300 + seed);
      const namespaces = ['', 'a', 'b', 'kube-system'];
      const accounts = [undefined, '', 'default', 'sa', 'driver'];
      const pods = Array.from({ length: r.int(40) }, (_, i): Pod => {
        const namespace = r.pick(namespaces);
        const spec: Pod['spec'] = { containers: [] };
        if (r.chance(0.6)) spec.serviceAccountName = r.pick(accounts);
        if (r.chance(0.3)) spec.serviceAccount = r.pick(accounts);
        return { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}`, ...(namespace ? { namespace } : {}) }, spec };
      });
      const find = podsByAccount(pods);
      for (let ask = 0; ask < 30; ask++) {
        const ns = r.pick([...namespaces, 'none']);
        const name = r.pick(['default', 'sa', 'driver', 'other']);
        const plain = pods.filter((p) => (p.metadata.namespace ?? '') === ns && (p.spec.serviceAccountName || p.spec.serviceAccount || 'default') === name);
        expect([ns, name, find(ns, name).map((p) => p.metadata.name)]).toEqual([ns, name, plain.map((p) => p.metadata.name)]);
      }
    });
  }
});
