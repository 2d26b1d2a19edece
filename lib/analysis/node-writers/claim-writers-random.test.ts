import { describe, expect, it, vi } from 'vitest';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { DEFAULT_SETTINGS } from '@/lib/analysis/settings';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { allocatedNodeName } from '@/lib/authz/dra-status';
import { clusterRole, crb, Group, node, pod, rb, SA, singleNodeSelector, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { Pod, PolicyRule, ResourceClaim, Subject } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { driversOf, placeAllocatedClaims, placeIndexed, readAllocatedClaims } from './claim-placement';
import { compareStrings } from '@/lib/k8s/refs';
import { listNodeWriters, writersOfNode } from './node-writers';
import { serviceAccountUser } from '@/lib/authz/user-info';
import { decisionEvidence, normaliseEvidence } from '@/lib/analysis/evidence';
import type { Evidence } from '@/lib/analysis/types';

// dra-facts §10: who may write the status.devices of a node's claims depends on the claims placed on
// that node (their namespaces, names and drivers), the service accounts with pods there, and RBAC;
// never on the claims of other nodes nor on the order the cluster lists its claims. The claim writers
// keep answers per driver and namespace and read claims by position: these random clusters hold
// them to those two facts.

// The claim writers pass over the namespaces that no RoleBinding can add a writer in (markNamespaces
// flags the others). Switched off, every namespace is marked and asked about: the plain path.
const plain = vi.hoisted(() => ({ on: false }));
vi.mock('@/lib/analysis/node-writers/namespace-marks', async (importOriginal) => {
  const real = await importOriginal<typeof import('./namespace-marks')>();
  return {
    markNamespaces: (...args: Parameters<typeof real.markNamespaces>) => (plain.on ? new Uint8Array(args[0].length).fill(1) : real.markNamespaces(...args)),
  };
});

const NODES = ['n0', 'n1', 'n2', 'n3'];
const NSS = ['ns-a', 'ns-b', 'ns-c', 'ns-d'];
const DRIVERS = ['gpu.example.com', 'nic.example.com'];
const SAS = ['plugin', 'app', 'ctl'];
const LISTED = ['c1', 'c4'];

const statusRule = (resourceNames?: string[]): PolicyRule => ({
  verbs: ['update', 'patch'],
  apiGroups: ['resource.k8s.io'],
  resources: ['resourceclaims/status'],
  ...(resourceNames ? { resourceNames } : {}),
});
const driverRule = (mode: 'associated' | 'arbitrary', driver?: string): PolicyRule => ({
  verbs: [`${mode}-node:update`, `${mode}-node:patch`],
  apiGroups: ['resource.k8s.io'],
  resources: ['resourceclaims/driver'],
  ...(driver ? { resourceNames: [driver] } : {}),
});

function randomCluster(seed: number, version?: string): ClusterState {
  const r = createRandom(seed);
  const roles = [
    clusterRole('assoc', [statusRule(), driverRule('associated')]),
    clusterRole('assoc-gpu', [statusRule(), driverRule('associated', DRIVERS[0])]),
    clusterRole('arb', [statusRule(), driverRule('arbitrary')]),
    clusterRole('arb-named', [statusRule(LISTED), driverRule('arbitrary', DRIVERS[1])]),
    clusterRole('driver-only', [driverRule('arbitrary')]),
    clusterRole('status-only', [statusRule()]),
    clusterRole('status-named', [statusRule(LISTED)]),
  ];
  const subject = (): Subject =>
    r.pick<() => Subject>([
      () => SA(r.pick(NSS), r.pick(SAS)),
      () => Group(`system:serviceaccounts:${r.pick(NSS)}`),
      () => Group(r.pick(['system:serviceaccounts', 'team'])),
      () => User(r.pick(['alice', 'bob'])),
    ])();
  const some = <T>(make: () => T, max: number) => Array.from({ length: 1 + r.int(max) }, make);
  const pods: Pod[] = [];
  for (const n of NODES) for (let i = 0; i < 1 + r.int(4); i++) pods.push(pod(r.pick(NSS), `p-${n}-${i}`, { nodeName: n, serviceAccountName: r.pick(SAS) }));
  const claims: ResourceClaim[] = Array.from({ length: 6 + r.int(20) }, (_, i) => {
    const ns = r.pick(NSS);
    const drivers = r.chance(0.2) ? DRIVERS : [r.pick(DRIVERS)];
    // Mostly a strict node; some claims are placed on the nodes of the pods reserving them.
    const strict = r.chance(0.85) ? r.pick(NODES) : undefined;
    const reserved = pods.filter((p) => p.metadata.namespace === ns && r.chance(0.3));
    return {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: `c${i}`, namespace: ns, uid: `uid-${i}` },
      spec: { devices: { requests: [{ name: 'dev', exactly: { deviceClassName: 'any' } }] } },
      status: {
        allocation: {
          devices: { results: drivers.map((driver, k) => ({ request: 'dev', driver, pool: 'p', device: `d${k}` })) },
          ...(strict ? { nodeSelector: singleNodeSelector(strict) } : {}),
        },
        reservedFor: reserved.map((p) => ({ resource: 'pods', name: p.metadata.name, uid: p.metadata.uid! })),
      },
    };
  });
  return stateOf(
    {
      nodes: NODES.map(node),
      pods,
      clusterRoles: roles,
      clusterRoleBindings: Array.from({ length: r.int(4) }, (_, i) =>
        crb(`crb${i}`, { kind: 'ClusterRole', name: r.pick(roles).metadata.name }, some(subject, 2)),
      ),
      roleBindings: Array.from({ length: 2 + r.int(8) }, (_, i) =>
        rb(r.pick(NSS), `rb${i}`, { kind: 'ClusterRole', name: r.pick(roles).metadata.name }, some(subject, 2)),
      ),
      resourceClaims: claims,
    },
    version,
  );
}

function nodeWriters(state: ClusterState) {
  const ctx = buildAnalysisContext(state, createAuthzEngine(state), DEFAULT_SETTINGS);
  return listNodeWriters(ctx);
}

describe('claim status writers on random clusters', () => {
  let withWriters = 0;
  for (let seed = 1; seed <= 40; seed++) {
    for (const version of [undefined, '1.35']) {
      it(`a node's writers depend only on its own claims and not on the claims' order (seed ${seed}, ${version ?? 'granular'})`, () => {
        const state = randomCluster(1300 + seed, version);
        const full = nodeWriters(state);
        const reordered = nodeWriters({ ...state, resourceClaims: createRandom(seed).shuffled(state.resourceClaims) });
        expect(JSON.stringify(reordered)).toBe(JSON.stringify(full));
        const placement = placeAllocatedClaims(state);
        for (const [n, byDriver] of placement) {
          const own = new Set([...byDriver.values()].flat());
          const alone = nodeWriters({ ...state, resourceClaims: state.resourceClaims.filter((c) => own.has(c)) });
          const expected = writersOfNode(alone, n);
          expect(writersOfNode(full, n), n).toEqual(expected);
          withWriters += expected.claimStatusWriters.length > 0 ? 1 : 0;
        }
      });
    }
  }
  it('the random clusters have writers to compare', () => expect(withWriters).toBeGreaterThan(100));
});

/** Each claim on its strict allocated node, else on the nodes of the pods it reserves, under each of its drivers, in order. */
function plainPlacement(state: ClusterState, claims: readonly ResourceClaim[]): Map<string, Map<string, ResourceClaim[]>> {
  const out = new Map<string, Map<string, ResourceClaim[]>>();
  for (const claim of claims) {
    const ns = claim.metadata.namespace ?? '';
    const strict = allocatedNodeName(claim);
    const reserved = (claim.status?.reservedFor ?? []).filter((ref) => ref.resource === 'pods' && (ref.apiGroup ?? '') === '');
    const nodes = strict
      ? [strict]
      : [
          ...new Set(
            reserved.flatMap((ref) => {
              const pod =
                state.pods.find((p) => ref.uid && p.metadata.uid === ref.uid) ??
                state.pods.find((p) => (p.metadata.namespace ?? '') === ns && p.metadata.name === ref.name);
              return pod && (pod.metadata.namespace ?? '') === ns && pod.spec?.nodeName ? [pod.spec.nodeName] : [];
            }),
          ),
        ].sort();
    for (const n of nodes) {
      if (!out.has(n)) out.set(n, new Map());
      for (const driver of driversOf(claim)) out.get(n)!.set(driver, [...(out.get(n)!.get(driver) ?? []), claim]);
    }
  }
  return out;
}

describe('readAllocatedClaims and placeIndexed', () => {
  for (let seed = 1; seed <= 20; seed++) {
    it(`read each claim as the plain functions do and list the positions of placeAllocatedClaims' claims (seed ${seed})`, () => {
      const state = randomCluster(1500 + seed);
      // Duplicate namespace/name pairs too: the sort must keep the cluster's order among equals, as allocatedClaims did.
      state.resourceClaims.push(...state.resourceClaims.slice(0, 3).map((c) => ({ ...c, metadata: { ...c.metadata, uid: `${c.metadata.uid}-again` } })));
      const read = readAllocatedClaims(state);
      const claims = read.claims;
      const plain = state.resourceClaims
        .filter((c) => driversOf(c).length > 0)
        .sort((a, b) => compareStrings(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || compareStrings(a.metadata.name, b.metadata.name));
      expect(claims).toEqual(plain);
      expect(claims.every((c, i) => c === plain[i])).toBe(true);
      expect(read.namespaces).toEqual(claims.map((c) => c.metadata.namespace ?? ''));
      expect(read.names).toEqual(claims.map((c) => c.metadata.name));
      expect(read.strictNodes).toEqual(claims.map((c) => allocatedNodeName(c)));
      expect(read.drivers).toEqual(claims.map((c) => driversOf(c)));
      const { placement, positions } = placeIndexed(state, claims, read.strictNodes, read.drivers);
      expect(placement).toEqual(placeAllocatedClaims(state));
      expect(placement).toEqual(plainPlacement(state, claims));
      expect([...placement.keys()]).toEqual([...plainPlacement(state, claims).keys()]);
      expect([...positions.keys()]).toEqual([...placement.keys()]);
      for (const [n, byDriver] of placement) {
        expect([...positions.get(n)!.keys()]).toEqual([...byDriver.keys()]);
        for (const [driver, list] of byDriver)
          expect(
            positions
              .get(n)!
              .get(driver)!
              .map((i) => claims[i]),
          ).toEqual(list);
      }
    });
  }
});

describe('arbitrary-node claim writers among users, against the engine claim by claim', () => {
  // A user is never a member of the random groups: it is listed for a node and driver exactly when
  // the engine lets it write some claim of that driver placed there (a grant through a
  // ClusterRoleBinding completed by a RoleBinding of the claim's namespace included).
  let found = 0;
  for (let seed = 1; seed <= 40; seed++) {
    it(`lists exactly the users the engine allows on some claim of the node (seed ${seed})`, () => {
      const state = randomCluster(1700 + seed);
      const engine = createAuthzEngine(state);
      const writers = listNodeWriters(buildAnalysisContext(state, engine, DEFAULT_SETTINGS));
      const placement = placeAllocatedClaims(state);
      for (const [n, byDriver] of placement) {
        const own = writersOfNode(writers, n).claimStatusWriters;
        for (const [driver, claims] of byDriver) {
          for (const name of ['alice', 'bob']) {
            const user = { name, groups: ['system:authenticated'] };
            const allowed = claims.some((claim) => {
              for (const verb of ['update', 'patch'] as const) {
                const d = engine.claimStatusWrite(user, claim, { verb, changesBinding: false, drivers: [driver] });
                if (d.allowed) return d.drivers[0]?.mode === 'arbitrary-node';
              }
              return false;
            });
            const listed = own.some((w) => w.driver === driver && w.mode === 'arbitrary-node' && w.subject.kind === 'User' && w.subject.name === name);
            expect(listed, `${n} ${driver} ${name}`).toBe(allowed);
            found += listed ? 1 : 0;
          }
        }
      }
    });
  }
  it('the random clusters have such writers', () => expect(found).toBeGreaterThan(20));
});

/** The cluster with namespace `ns-d` renamed '' on its claims, pods and RoleBindings: claims without a namespace. */
function withoutNamespace(state: ClusterState): ClusterState {
  const strip = <T extends { metadata: { namespace?: string } }>(o: T): T =>
    o.metadata.namespace === 'ns-d' ? { ...o, metadata: { ...o.metadata, namespace: '' } } : o;
  return { ...state, resourceClaims: state.resourceClaims.map(strip), pods: state.pods.map(strip), roleBindings: state.roleBindings.map(strip) };
}

describe('claim status writers: only namespaces with bindings that can add a writer are asked about', () => {
  let writers = 0;
  for (let seed = 1; seed <= 60; seed++) {
    for (const version of [undefined, '1.35']) {
      it(`list what asking every namespace lists (seed ${seed}, ${version ?? 'granular'})`, () => {
        const base = randomCluster(3100 + seed, version);
        for (const state of [base, withoutNamespace(base)]) {
          const fast = nodeWriters(state);
          plain.on = true;
          try {
            expect(JSON.stringify(fast)).toBe(JSON.stringify(nodeWriters(state)));
          } finally {
            plain.on = false;
          }
          writers += fast.nodes.reduce((n, node) => n + node.claimStatusWriters.length, 0);
        }
      });
    }
  }
  it('the random clusters have node writers to compare', () => expect(writers).toBeGreaterThan(200));
});

describe('associated-node claim writers, against the engine claim by claim and node by node', () => {
  // A service account with pods on a node writes the status.devices of a claim allocated there when
  // the engine allows it with the token of that node, with the evidence of the first such claim. The
  // claim writers ask once for every node and for every namespace none of whose RoleBindings name the
  // account: held here to the engine's answer for each node's own claims.
  let found = 0;
  for (let seed = 1; seed <= 40; seed++) {
    it(`lists exactly the accounts the engine allows on some claim of the node, with its evidence (seed ${seed})`, () => {
      const state = withAccountGrants(randomCluster(1900 + seed), createRandom(seed));
      const engine = createAuthzEngine(state);
      const writers = listNodeWriters(buildAnalysisContext(state, engine, DEFAULT_SETTINGS));
      const { claims } = readAllocatedClaims(state);
      for (const [n, byDriver] of placeAllocatedClaims(state, claims)) {
        const own = writersOfNode(writers, n).claimStatusWriters;
        const accounts = [...new Map(state.pods.filter((p) => p.spec?.nodeName === n).map((p) => [refOf(p), p])).values()];
        for (const [driver, placed] of byDriver) {
          for (const p of accounts) {
            const ns = p.metadata.namespace ?? '';
            const name = p.spec?.serviceAccountName ?? 'default';
            const user = serviceAccountUser(ns, name, n);
            let expected: Evidence[] | undefined;
            for (const claim of placed) {
              if (allocatedNodeName(claim) !== n) continue;
              const d = (['update', 'patch'] as const)
                .map((verb) => engine.claimStatusWrite(user, claim, { verb, changesBinding: false, drivers: [driver] }))
                .find((x) => x.allowed);
              if (d?.drivers[0]?.mode !== 'associated-node') continue;
              const note: Evidence = { type: 'note', text: `its pods on ${n} carry tokens bound to ${n}, the claim's allocated node` };
              expected = normaliseEvidence([...d.checks.flatMap((c) => decisionEvidence(c.decision)), note]);
              break;
            }
            const mine = (mode: string) =>
              own.find(
                (w) => w.driver === driver && w.mode === mode && w.subject.kind === 'ServiceAccount' && w.subject.namespace === ns && w.subject.name === name,
              );
            // An arbitrary-node writer of the driver is listed as that alone.
            if (mine('arbitrary-node')) continue;
            expect(mine('associated-node')?.via, `${n} ${driver} ${ns}/${name}`).toEqual(expected);
            found += expected ? 1 : 0;
          }
        }
      }
    });
  }
  it('the random clusters have such writers', () => expect(found).toBeGreaterThan(40));
});

/**
 * More grants to the pods' accounts: the associated-node driver verb without the status write, or
 * with it, in some namespaces' RoleBindings; the status write cluster-wide for some. Whether an
 * account writes a claim then depends on the claim's namespace, each by a grant of its own.
 */
function withAccountGrants(state: ClusterState, r: ReturnType<typeof createRandom>): ClusterState {
  const roles = [clusterRole('assoc-driver', [driverRule('associated')]), clusterRole('assoc-all', [statusRule(), driverRule('associated')])];
  const accounts = [...new Set(state.pods.map(refOf))].map((key) => SA(key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)));
  const some = () => Array.from({ length: 1 + r.int(2) }, () => r.pick(accounts));
  return {
    ...state,
    clusterRoles: [...state.clusterRoles, ...roles],
    clusterRoleBindings: [...state.clusterRoleBindings, crb('crb-status', { kind: 'ClusterRole', name: 'status-only' }, some())],
    roleBindings: [
      ...state.roleBindings,
      ...Array.from({ length: 2 + r.int(6) }, (_, i) => rb(r.pick(NSS), `rb-sa${i}`, { kind: 'ClusterRole', name: r.pick(roles).metadata.name }, some())),
    ],
  };
}

const refOf = (p: Pod) => `${p.metadata.namespace ?? ''}/${p.spec?.serviceAccountName ?? 'default'}`;
