import { describe, expect, it } from 'vitest';
import { createRandom } from '@/scripts/bench/prng';
import { contextOf, namespace, pluginPod, sliceWriter } from '../__fixtures__/builders';
import { DEFAULT_SETTINGS } from '../settings';
import { ROLE_LABEL } from './build-analysis-context';

// The context keeps each namespace's platform answer: asked again, in any order, it answers as the
// rule does (the settings' and fixed platform namespaces, then the role label, then a DRA driver pod).
const ALWAYS_PLATFORM = ['kube-system', 'kube-public', 'kube-node-lease'];

describe('isPlatformNamespace on random namespaces', () => {
  for (let seed = 1; seed <= 40; seed++) {
    it(`seed ${seed}`, () => {
      const r = createRandom(8100 + seed);
      const pool = ['kube-system', 'drivers', 'ops', 'team-a', 'team-b', 'lab', 'extra', 'gone'];
      const labelled = pool
        .filter(() => r.chance(0.7))
        .map((ns) => {
          const role = r.pick(['platform', 'tenant', 'other', undefined]);
          return namespace(ns, role ? { [ROLE_LABEL]: role } : undefined);
        });
      const writer = sliceWriter('drivers', 'plugin');
      const pods = pool.filter(() => r.chance(0.3)).map((ns, i) => pluginPod(ns, 'plugin', `p${i}`, r.chance(0.7) ? 'plugin' : 'other', 'n1'));
      // The slice writer's account is bound in every namespace a pod may run in.
      const bindings = pool.map((ns) => ({ ...sliceWriter(ns, 'plugin').binding, metadata: { name: `w-${ns}` } }));
      const extra = pool.filter(() => r.chance(0.2));
      const ctx = contextOf(
        { namespaces: labelled, pods, clusterRoles: [writer.clusterRole], clusterRoleBindings: bindings },
        { ...DEFAULT_SETTINGS, platformNamespaces: [...DEFAULT_SETTINGS.platformNamespaces, ...extra] },
      );
      const drivers = new Set(ctx.driverPods.map((p) => p.metadata.namespace ?? ''));
      const plain = (ns: string) => {
        if (ALWAYS_PLATFORM.includes(ns) || DEFAULT_SETTINGS.platformNamespaces.includes(ns) || extra.includes(ns)) return true;
        const role = labelled.find((n) => n.metadata.name === ns)?.metadata.labels?.[ROLE_LABEL];
        if (role === 'platform') return true;
        if (role === 'tenant') return false;
        return drivers.has(ns);
      };
      for (let ask = 0; ask < 40; ask++) {
        const ns = r.pick(pool);
        expect([ns, ctx.isPlatformNamespace(ns), ctx.isTenantNamespace(ns)]).toEqual([ns, plain(ns), !plain(ns)]);
      }
    });
  }
});
