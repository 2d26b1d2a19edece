import { describe, expect, it, vi } from 'vitest';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { DEFAULT_SETTINGS } from '@/lib/analysis/settings';
import { Group, node, pod, SA, User } from '@/lib/authz/__fixtures__/builders';
import { randomRbacState, SMALL_RBAC } from '@/lib/authz/__fixtures__/random-rbac';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { AuthorizerName } from '@/lib/authz/types';
import type { PolicyRule, Subject } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { listNodeStatusWriters } from './node-status-writers';

// The impersonation writers visit, per requester, only the targets the impersonation filter lets it
// through for (impersonableIndex). Switched off, every requester is tried against every target: the
// plain path. On random impersonation and nodes/status grants both must list the same writers.

const plain = vi.hoisted(() => ({ on: false }));
vi.mock('@/lib/analysis/impersonation-reach', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/lib/analysis/impersonation-reach')>();
  return {
    ...real,
    impersonableIndex: (...args: Parameters<typeof real.impersonableIndex>) => {
      const fast = real.impersonableIndex(...args);
      // false: every target is to be tried.
      return (...asked: Parameters<ReturnType<typeof real.impersonableIndex>>) => (plain.on ? false : fast(...asked));
    },
  };
});

const AUTHN = 'authentication.k8s.io';
const NODES = ['n1', 'n2', 'n3'];
const NSS = ['a', 'b'];
const RULES: PolicyRule[] = [
  { apiGroups: [''], resources: ['users'], verbs: ['impersonate'] },
  { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['alice', 'system:node:n1'] },
  { apiGroups: [''], resources: ['groups'], verbs: ['impersonate'] },
  { apiGroups: [''], resources: ['groups'], verbs: ['impersonate'], resourceNames: ['system:nodes', 'writers'] },
  // Groups beside a named user only: tried beside that user, not the probe user.
  { apiGroups: [''], resources: ['users', 'groups'], verbs: ['impersonate'], resourceNames: ['alice', 'system:masters', 'writers'] },
  { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] },
  { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'], resourceNames: ['app'] },
  { apiGroups: [AUTHN], resources: ['users', 'groups'], verbs: ['impersonate:user-info'] },
  { apiGroups: [AUTHN], resources: ['users'], verbs: ['impersonate:user-info'], resourceNames: ['alice'] },
  { apiGroups: [AUTHN], resources: ['serviceaccounts'], verbs: ['impersonate:serviceaccount'] },
  { apiGroups: [AUTHN], resources: ['serviceaccounts'], verbs: ['impersonate:serviceaccount'], resourceNames: ['app'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['impersonate-on:serviceaccount:update', 'impersonate-on:user-info:patch'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['impersonate-on:user-info:update'], resourceNames: ['n2'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['update', 'patch'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'], resourceNames: ['n3'] },
];
// Most subjects of a cluster write no status: the writers' rules are drawn less often than the impersonation grants.
const DRAWN = [...RULES.slice(0, -2), ...RULES.slice(0, -2), ...RULES];
const SUBJECTS: Subject[] = [
  SA('a', 'app'),
  SA('b', 'ci'),
  User('alice'),
  User('bob'),
  User('system:node:n2'),
  Group('writers'),
  Group('ops'),
  Group('system:serviceaccounts:a'),
  Group('system:serviceaccounts'),
];
const CHAINS: (AuthorizerName[] | undefined)[] = [undefined, ['RBAC'], ['Node', 'RBAC', 'AlwaysAllow']];

function writersOf(seed: number, chain: AuthorizerName[] | undefined, constrainedImpersonation: boolean, plainPath: boolean) {
  const r = createRandom(2600 + seed);
  const pods = NODES.flatMap((n, i) => [pod(r.pick(NSS), `p${i}`, { nodeName: n, serviceAccountName: r.pick(['app', 'ci']) })]);
  const state = randomRbacState(r, { ...SMALL_RBAC, rules: DRAWN, subjects: SUBJECTS, namespaces: NSS }, { nodes: NODES.map(node), pods });
  const engine = createAuthzEngine(state, { ...(chain ? { chain } : {}), features: { constrainedImpersonation } });
  plain.on = plainPath;
  try {
    return listNodeStatusWriters(buildAnalysisContext(state, engine, DEFAULT_SETTINGS));
  } finally {
    plain.on = false;
  }
}

describe('node-status impersonation writers: only the targets a requester may impersonate are visited', () => {
  let impersonators = 0;
  for (let seed = 1; seed <= 40; seed++) {
    it(`list what trying every target lists (seed ${seed})`, () => {
      for (const chain of CHAINS)
        for (const constrained of [true, false]) {
          const fast = writersOf(seed, chain, constrained, false);
          const slow = writersOf(seed, chain, constrained, true);
          expect(fast).toEqual(slow);
          const all = [...slow.allNodes, ...[...slow.byNode.values()].flat()];
          impersonators += all.filter((w) => w.mode === 'impersonation' || w.mode === 'constrained-impersonation').length;
        }
    });
  }
  it('finds impersonation writers (the comparisons above are not vacuous)', () => {
    expect(impersonators).toBeGreaterThan(100);
  });
});
