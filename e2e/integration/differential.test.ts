// The engine's answers against the real kube-apiserver's: the demo cluster plus 300+ random RBAC
// objects, 5,000 random SubjectAccessReviews, and real DRA/node requests with node-bound tokens.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthzEngine, type AuthzEngine } from '../../lib/authz/authz-engine';
import { requestFromSubjectAccessReview, SubjectAccessReviewSchema } from '../../lib/authz/subject-access-review';
import type { ClusterState } from '../../lib/k8s/cluster-state';
import { collectLiveCluster } from '../../server/kube/collect-cluster';
import { allocatedNodeName } from '../../lib/authz/dra-status';
import { serviceAccountUser } from '../../lib/authz/user-info';
import type { Pod, ResourceClaim } from '../../lib/k8s/types';
import { startControlPlane, type ControlPlane } from '../kube/control-plane';
import { readManifests, seedObjects } from '../kube/seed-manifests';
import { DIFF_NAMESPACES, randomRbacObjects, randomSubjectAccessReviews } from './random-rbac';
import { aggregatedMembers, aggregatedRuleSets, aggregationCycles, aggregationDrift } from './aggregation-settled';

const DEMO = join(import.meta.dirname, '..', '..', 'demo', 'manifests');
let cp: ControlPlane;
let state: ClusterState;
let engine: AuthzEngine;
let settled = false;

async function collect(): Promise<ClusterState> {
  return (await collectLiveCluster({ kubeconfig: cp.kubeconfigPath })).state;
}

beforeAll(async () => {
  cp = await startControlPlane();
  await seedObjects(cp, readManifests(DEMO));
  await seedObjects(
    cp,
    DIFF_NAMESPACES.map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })),
  );
  await seedObjects(
    cp,
    DIFF_NAMESPACES.flatMap((ns) => ['sa0', 'sa1', 'sa2'].map((name) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: ns } }))),
  );
  await seedObjects(cp, randomRbacObjects(20261122, 320) as never);
  // Wait until the aggregation controller has settled: no drift from the engine's recomputation
  // and the same rule sets in three reads a second apart (cycles among the random roles keep the
  // controller busy reordering for a while; see aggregation-settled.ts).
  let previous = '';
  let stableReads = 0;
  const started = Date.now();
  for (let i = 0; i < 120; i++) {
    state = await collect();
    const sets = aggregatedRuleSets(state);
    stableReads = sets === previous && aggregationDrift(state).length === 0 ? stableReads + 1 : 0;
    if (stableReads === 2) {
      settled = true;
      console.log(`aggregation settled after ${i + 1} reads, ${Date.now() - started} ms`);
      break;
    }
    previous = sets;
    await new Promise((r) => setTimeout(r, 1000));
  }
  engine = createAuthzEngine(state);
}, 600_000);

afterAll(async () => {
  await cp?.stop();
});

describe('engine vs real kube-apiserver', () => {
  it('aggregated ClusterRoles converge to the engine’s recomputation (chains exactly, cycles as sets)', () => {
    const drift = aggregationDrift(state);
    if (drift.length) console.error(JSON.stringify(drift, null, 1).slice(0, 6000));
    expect(drift.map((d) => d.name)).toEqual([]);
    // Otherwise the server kept changing rule sets for 120 reads and the SARs below compare against a moving target.
    expect(settled, 'the aggregation controller settled').toBe(true);
    // The random roles must exercise both: a chain (an aggregated role selecting another) and a cycle.
    const cyclic = aggregationCycles(state.clusterRoles);
    expect(cyclic.size).toBeGreaterThan(0);
    const chained = [...aggregatedMembers(state.clusterRoles)].filter(([name, members]) => !cyclic.has(name) && members.length > 0);
    expect(chained.length).toBeGreaterThan(0);
    expect(state.clusterRoles.filter((c) => c.metadata.name.startsWith('diff-')).length).toBeGreaterThan(50);
  });

  it('5,000 random SubjectAccessReviews: zero disagreements', async () => {
    const saNames = state.serviceAccounts.map((s) => `${s.metadata.namespace}/${s.metadata.name}`);
    const universe = {
      namespaces: [...DIFF_NAMESPACES, ...state.namespaces.map((n) => n.metadata.name).slice(0, 12)],
      names: [
        'a',
        'b',
        'gpu.example.com',
        'gpu.nvidia.com',
        '*',
        ...state.nodes.map((n) => n.metadata.name),
        ...state.pods.slice(0, 20).map((p) => p.metadata.name),
        ...state.resourceClaims.slice(0, 10).map((c) => c.metadata.name),
      ],
      nodes: state.nodes.map((n) => n.metadata.name),
      serviceAccounts: saNames,
    };
    const reviews = randomSubjectAccessReviews(7, 5000, universe);
    const disagreements: string[] = [];
    const recheck: unknown[] = [];
    let allowedCount = 0;
    const queue = reviews.map((r, i) => ({ r, i }));
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let job = queue.shift(); job; job = queue.shift()) {
          const res = await cp.request('admin', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { method: 'POST', body: job.r });
          if (res.status !== 201 && res.status !== 200) throw new Error(`SAR ${job.i}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
          const server = !!res.body.status?.allowed;
          const ours = engine.authorize(requestFromSubjectAccessReview(SubjectAccessReviewSchema.parse(job.r)));
          if (server) allowedCount++;
          if (server !== ours.allowed) {
            recheck.push(job.r);
            disagreements.push(
              `#${job.i} server=${server} engine=${ours.allowed}\n  review: ${JSON.stringify((job.r as { spec: unknown }).spec)}\n  server reason: ${res.body.status?.reason ?? ''}\n  engine reason: ${ours.reason}`,
            );
          }
        }
      }),
    );
    // Cyclic aggregated ClusterRoles have no fixed point: the aggregation controller can still swap
    // their rules after it looked settled. A disagreement counts only if it stays against the
    // server's state as it is now: read the cluster again and ask both again.
    if (disagreements.length > 0) {
      const current = await collect();
      const now = createAuthzEngine(current);
      const moved = aggregatedRuleSets(current) !== aggregatedRuleSets(state);
      const still: string[] = [];
      for (const [i, r] of recheck.entries()) {
        const res = await cp.request('admin', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { method: 'POST', body: r });
        const again = now.authorize(requestFromSubjectAccessReview(SubjectAccessReviewSchema.parse(r)));
        if (!!res.body.status?.allowed !== again.allowed) still.push(disagreements[i]);
      }
      console.log(
        `differential: ${disagreements.length} disagreements on the first read (aggregated rules moved since: ${moved}), ${still.length} against the current state`,
      );
      disagreements.splice(0, disagreements.length, ...still);
    }
    if (disagreements.length) console.error(`${disagreements.length} disagreements:\n${disagreements.slice(0, 40).join('\n')}`);
    console.log(`differential: ${reviews.length} SubjectAccessReviews, ${allowedCount} allowed by the server, ${disagreements.length} disagreements`);
    expect(disagreements).toEqual([]);
    // The sample must exercise both answers.
    expect(allowedCount).toBeGreaterThan(300);
    expect(allowedCount).toBeLessThan(4700);
  }, 600_000);
});

/** A token for the pod's service account, bound to the pod, so it carries the pod's node name. */
async function podBoundToken(pod: Pod): Promise<string> {
  const ns = pod.metadata.namespace!;
  const sa = pod.spec.serviceAccountName ?? 'default';
  const live = await cp.request('admin', `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}`);
  const res = await cp.request('admin', `/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`, {
    method: 'POST',
    body: {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { audiences: [], expirationSeconds: 3600, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: pod.metadata.name, uid: live.body.metadata.uid } },
    },
  });
  if (res.status !== 201) throw new Error(`TokenRequest for ${ns}/${sa}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body.status.token as string;
}

async function asToken<T = any>(token: string, path: string, opts: Parameters<ControlPlane['request']>[2]) {
  const { kubeRequest } = await import('../kube/http');
  return kubeRequest<T>(cp.url, token, path, opts);
}

/** One pod per (service account, node): the identities whose tokens can name that node. */
function podsBySaAndNode(): Pod[] {
  const seen = new Set<string>();
  const out: Pod[] = [];
  for (const p of state.pods) {
    if (!p.spec.nodeName || !p.spec.serviceAccountName) continue;
    const key = `${p.metadata.namespace}/${p.spec.serviceAccountName}/${p.spec.nodeName}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  return out;
}

describe('real DRA and node requests with node-bound tokens', () => {
  it('status.devices writes: associated-node vs arbitrary-node, as the server decides', async () => {
    const claims = state.resourceClaims.filter((c) => allocatedNodeName(c) && (c.status?.allocation?.devices?.results?.length ?? 0) > 0);
    expect(claims.length).toBeGreaterThan(0);
    const pods = podsBySaAndNode();
    // Identities the engine says can write some claim's devices, plus a few that cannot.
    const cases: { pod: Pod; claim: ResourceClaim; driver: string; expected: boolean; mode?: string }[] = [];
    for (const claim of claims) {
      const drivers = [...new Set(claim.status!.allocation!.devices!.results!.map((r) => r.driver))];
      for (const pod of pods) {
        const user = serviceAccountUser(pod.metadata.namespace!, pod.spec.serviceAccountName!, pod.spec.nodeName);
        for (const driver of drivers) {
          const d = engine.claimStatusWrite(user, claim, { verb: 'update', changesBinding: false, drivers: [driver] });
          cases.push({ pod, claim, driver, expected: d.allowed, mode: d.drivers[0]?.mode });
        }
      }
    }
    const positives = cases.filter((c) => c.expected);
    const negatives = cases.filter((c) => !c.expected);
    expect(positives.length).toBeGreaterThan(0);
    const chosen = [...positives.slice(0, 12), ...negatives.filter((c) => positives.some((p) => p.pod === c.pod)).slice(0, 12), ...negatives.slice(0, 6)];
    const mismatches: string[] = [];
    const tokens = new Map<Pod, string>();
    for (const [i, c] of chosen.entries()) {
      if (!tokens.has(c.pod)) tokens.set(c.pod, await podBoundToken(c.pod));
      const path = `/apis/resource.k8s.io/v1/namespaces/${c.claim.metadata.namespace}/resourceclaims/${c.claim.metadata.name}`;
      const current = await cp.request('admin', path);
      const results = (current.body.status.allocation.devices.results as { driver: string; pool: string; device: string }[]).filter(
        (r) => r.driver === c.driver,
      );
      const others = ((current.body.status.devices ?? []) as { driver: string }[]).filter((d) => d.driver !== c.driver);
      const body = {
        ...current.body,
        status: {
          ...current.body.status,
          devices: [
            ...others,
            ...results.map((r) => ({
              driver: r.driver,
              pool: r.pool,
              device: r.device,
              conditions: [
                {
                  type: 'Ready',
                  status: 'True',
                  reason: `Probe${i}`,
                  message: 'differential test',
                  lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
                },
              ],
            })),
          ],
        },
      };
      const res = await asToken(tokens.get(c.pod)!, `${path}/status`, { method: 'PUT', body });
      const ok = res.status === 200;
      if (!ok && res.status !== 403) throw new Error(`unexpected ${res.status} writing ${path}/status: ${JSON.stringify(res.body).slice(0, 400)}`);
      if (ok !== c.expected) {
        mismatches.push(
          `${c.pod.metadata.namespace}/${c.pod.spec.serviceAccountName}@${c.pod.spec.nodeName} → ${c.claim.metadata.namespace}/${c.claim.metadata.name} driver ${c.driver}: server ${ok ? 'allowed' : `denied (${res.body?.message ?? ''})`}, engine ${c.expected ? `allowed (${c.mode})` : 'denied'}`,
        );
      }
    }
    console.log(
      `differential: ${chosen.length} real status.devices writes (${chosen.filter((c) => c.expected).length} predicted allowed), ${mismatches.length} mismatches`,
    );
    expect(mismatches).toEqual([]);
  }, 300_000);

  it('nodes/status through constrained impersonation and plain RBAC, as the server decides', async () => {
    const pods = podsBySaAndNode();
    const nodes = state.nodes.map((n) => n.metadata.name);
    const mismatches: string[] = [];
    let allowed = 0;
    let checked = 0;
    for (const pod of pods.slice(0, 40)) {
      const own = pod.spec.nodeName!;
      const other = nodes.find((n) => n !== own)!;
      const user = serviceAccountUser(pod.metadata.namespace!, pod.spec.serviceAccountName!, own);
      const token = await podBoundToken(pod);
      for (const target of [own, other]) {
        const attrs = { verb: 'patch', group: '', resource: 'nodes', subresource: 'status', namespace: '', name: target };
        const patch = {
          status: {
            conditions: [
              {
                type: 'example.com/DifferentialProbe',
                status: 'True',
                reason: 'Probe',
                message: pod.metadata.name,
                lastHeartbeatTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
                lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
              },
            ],
          },
        };
        for (const impersonate of [true, false]) {
          const expected = impersonate
            ? engine.authorizeImpersonated(user, { user: `system:node:${target}` }, { resource: attrs }).allowed
            : engine.authorize({ user, resource: attrs }).allowed;
          const res = await asToken(token, `/api/v1/nodes/${target}/status`, {
            method: 'PATCH',
            body: patch,
            contentType: 'application/strategic-merge-patch+json',
            headers: impersonate ? { 'Impersonate-User': `system:node:${target}` } : {},
          });
          const ok = res.status === 200;
          if (!ok && res.status !== 403) throw new Error(`unexpected ${res.status} patching nodes/${target}/status: ${JSON.stringify(res.body).slice(0, 300)}`);
          checked++;
          if (ok) allowed++;
          if (ok !== expected)
            mismatches.push(
              `${pod.metadata.namespace}/${pod.spec.serviceAccountName}@${own} ${impersonate ? 'impersonating' : 'as itself on'} ${target}: server ${ok}, engine ${expected} (${res.body?.message ?? ''})`,
            );
        }
      }
    }
    console.log(`differential: ${checked} real nodes/status patches (${allowed} allowed), ${mismatches.length} mismatches`);
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(10);
    expect(allowed).toBeGreaterThan(0);
  }, 300_000);
});
