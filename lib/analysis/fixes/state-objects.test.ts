import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { clusterRole, crb, Group, rb, role, stateOf } from '@/lib/authz/__fixtures__/builders';
import { matchesLabelSelector } from '@/lib/k8s/label-selector';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { ObjectRef, PolicyRule } from '@/lib/k8s/types';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { mergeSettings } from '@/lib/analysis/settings';
import { createRandom } from '@/scripts/bench/prng';
import { ruleSources } from './role-edits';
import { clusterRoleBindingNamed, clusterRolesNamed, roleBindingNamed, roleNamed } from './state-objects';

// The per-state lookups of roles and bindings must find what a scan of the snapshot's lists finds (the
// first object under a name, duplicates included), and ruleSources, which reads them and the
// aggregation members kept per state, the same sources as a scan of every ClusterRole. Checked on
// random states.

const NSS = ['a', 'b'];
const NAMES = ['x', 'y', 'z'];

/** ruleSources as a scan of every ClusterRole (its first form). */
function scannedSources(state: ClusterState, ctx: ReturnType<typeof buildAnalysisContext>, ref: ObjectRef, ruleIndex: number) {
  const compiled = ref.kind === 'ClusterRole' ? ctx.engine.rbac.clusterRoles.get(ref.name) : ctx.engine.rbac.roles.get(ref.namespace ?? '')?.get(ref.name);
  const effective = compiled?.rules[ruleIndex];
  if (!effective) return [];
  if (ref.kind === 'Role') {
    const object = state.roles.find((r) => r.metadata.name === ref.name && (r.metadata.namespace ?? '') === (ref.namespace ?? ''));
    return object ? [{ object, index: ruleIndex }] : [];
  }
  const object = state.clusterRoles.find((r) => r.metadata.name === ref.name);
  if (!object) return [];
  if (!effective.from) return [{ object, index: ruleIndex }];
  const key = JSON.stringify(effective.rule);
  const selectors = object.aggregationRule?.clusterRoleSelectors ?? [];
  const out: { object: unknown; index: number; aggregatedInto: string }[] = [];
  for (const cr of state.clusterRoles) {
    if (cr.aggregationRule || cr.metadata.name === ref.name) continue;
    if (cr.metadata.name !== effective.from && !selectors.some((s) => matchesLabelSelector(s, cr.metadata.labels ?? {}))) continue;
    (cr.rules ?? []).forEach((r, index) => {
      if (JSON.stringify(r) === key) out.push({ object: cr, index, aggregatedInto: ref.name });
    });
  }
  return out;
}

describe('state-objects lookups and ruleSources', () => {
  for (let seed = 1; seed <= 30; seed++) {
    it(`find what a scan of the lists finds (seed ${seed})`, () => {
      const r = createRandom(7000 + seed);
      const shared: PolicyRule[] = [
        { apiGroups: ['resource.k8s.io'], resources: ['resourceslices'], verbs: ['create'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
      ];
      const rules = () => Array.from({ length: 1 + r.int(3) }, () => ({ ...r.pick(shared) }));
      const labels = () => (r.chance(0.6) ? { labels: { tier: r.pick(['one', 'two']) } } : {});
      const clusterRoles = [
        ...Array.from({ length: 6 }, () => clusterRole(r.pick(NAMES), rules(), labels())),
        clusterRole('agg-one', [], { aggregate: [{ matchLabels: { tier: 'one' } }] }),
        clusterRole('agg-both', [], { aggregate: [{ matchLabels: { tier: 'one' } }, { matchLabels: { tier: 'two' } }], ...labels() }),
      ];
      const roles = Array.from({ length: 5 }, () => role(r.pick(NSS), r.pick(NAMES), rules()));
      const state = stateOf({
        clusterRoles,
        roles,
        clusterRoleBindings: Array.from({ length: 4 }, () =>
          crb(r.pick(NAMES), { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name }, [Group('g')]),
        ),
        roleBindings: Array.from({ length: 6 }, () =>
          rb(r.pick(NSS), r.pick(NAMES), { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name }, [Group('g')]),
        ),
      });
      // Rounds enough for every list to answer by scanning first, then from its index.
      for (let round = 0; round < 8; round++)
        for (const name of [...NAMES, 'agg-one', 'missing']) {
          expect(clusterRolesNamed(state, name)).toEqual(state.clusterRoles.filter((c) => c.metadata.name === name));
          expect(clusterRoleBindingNamed(state, name)).toBe(state.clusterRoleBindings.find((x) => x.metadata.name === name));
          for (const ns of NSS) {
            expect(roleNamed(state, ns, name)).toBe(state.roles.find((x) => x.metadata.name === name && x.metadata.namespace === ns));
            expect(roleBindingNamed(state, ns, name)).toBe(state.roleBindings.find((x) => x.metadata.name === name && x.metadata.namespace === ns));
          }
        }
      const ctx = buildAnalysisContext(state, createAuthzEngine(state), mergeSettings(undefined));
      let aggregated = 0;
      for (const [name, compiled] of ctx.engine.rbac.clusterRoles)
        compiled.rules.forEach((rule, i) => {
          if (rule.from) aggregated++;
          expect(ruleSources(ctx, { kind: 'ClusterRole', name }, i)).toEqual(scannedSources(state, ctx, { kind: 'ClusterRole', name }, i));
        });
      for (const [ns, inNs] of ctx.engine.rbac.roles)
        for (const [name, compiled] of inNs)
          compiled.rules.forEach((_, i) =>
            expect(ruleSources(ctx, { kind: 'Role', name, namespace: ns }, i)).toEqual(scannedSources(state, ctx, { kind: 'Role', name, namespace: ns }, i)),
          );
      expect(aggregated).toBeGreaterThan(0);
    });
  }
});
