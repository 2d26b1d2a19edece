import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { clusterRole, crb, Group, rb, stateOf } from '@/lib/authz/__fixtures__/builders';
import type { ResourceAttributes, UserInfo } from '@/lib/authz/types';
import { serviceAccountUser } from '@/lib/authz/user-info';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { mergeSettings } from '@/lib/analysis/settings';
import { createRandom } from '@/scripts/bench/prng';
import { writtenProbe, type DeferredProbe } from './deferred-probe';
import { res } from './holder';
import { verifyProposal } from './verify-fix';

// A deferred probe must verify, list and fail a fix exactly as the probe written up front: on random
// users, requests (some with a field selector, which a written review does not keep) and expectations
// (some wrong, so that fixes fail and their texts are read), the fix of the deferred probes equals the
// fix of the same probes written.

const NSS = ['a', 'b', 'c'];
const state = stateOf({
  clusterRoles: [
    clusterRole('ns-reader', [{ apiGroups: [''], resources: ['namespaces', 'pods'], verbs: ['get', 'list'] }]),
    clusterRole('pod-writer', [{ apiGroups: [''], resources: ['pods'], verbs: ['update', 'patch'] }]),
  ],
  clusterRoleBindings: [crb('readers', { kind: 'ClusterRole', name: 'ns-reader' }, [Group('readers')])],
  roleBindings: [rb('a', 'writers', { kind: 'ClusterRole', name: 'pod-writer' }, [Group('system:serviceaccounts:a')])],
});
const ctx = buildAnalysisContext(state, createAuthzEngine(state), mergeSettings(undefined));

describe('deferred probes', () => {
  let failed = 0;
  let verified = 0;
  for (let seed = 1; seed <= 30; seed++) {
    it(`verify, list and fail a fix as the written probes (seed ${seed})`, () => {
      const r = createRandom(5200 + seed);
      const users: UserInfo[] = [
        { name: 'someone', groups: ['readers', 'system:authenticated'] },
        serviceAccountUser(r.pick(NSS), 'app', r.chance(0.5) ? 'node-1' : undefined),
        { name: 'nobody', groups: ['system:authenticated'] },
      ];
      const request = (): ResourceAttributes => {
        const ns = r.pick(['', ...NSS]);
        const attrs = res(r.pick(['get', 'list', 'update', 'patch']), '', r.pick(['namespaces', 'pods']), { namespace: ns, name: r.chance(0.5) ? 'x' : '' });
        return r.chance(0.2) ? { ...attrs, fieldSelector: [{ field: 'spec.nodeName', operator: '=', value: 'node-1' }] } : attrs;
      };
      const deferred: DeferredProbe[] = Array.from({ length: 1 + r.int(60) }, () => {
        const user = r.pick(users);
        const attrs = request();
        const allowed = ctx.engine.authorize({ user, resource: attrs }).allowed;
        // Mostly the engine's answer; sometimes the other one, which fails the fix.
        const expect = allowed !== r.chance(0.03) ? 'allowed' : 'denied';
        return { deferred: true as const, expect, who: `User ${user.name}`, user, attrs };
      });
      const proposal = { holders: [], checks: [], summary: 'test' };
      const fix = verifyProposal(ctx, { ...proposal, probes: deferred });
      expect(fix).toEqual(verifyProposal(ctx, { ...proposal, probes: deferred.map(writtenProbe) }));
      if (fix.status === 'none') failed++;
      else verified++;
    });
  }
  it('some fixes failed and some were verified', () => {
    expect(failed).toBeGreaterThan(3);
    expect(verified).toBeGreaterThan(3);
  });
});
