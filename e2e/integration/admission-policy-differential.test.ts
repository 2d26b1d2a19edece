import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterPolicies } from '../../lib/admission/cluster-policies';
import type { AdmissionRequest, AdmissionUser } from '../../lib/admission/types';
import { usernamesOf } from '../../lib/analysis/context/slice-pinning';
import { collectLiveCluster } from '../../server/kube/collect-cluster';
import { createRandom } from '../../scripts/bench/prng';
import { startControlPlane, type ControlPlane } from '../kube/control-plane';

// Differential test of the admission policy evaluator (lib/admission, issue 24): the demo's and the
// real-driver fixtures' ValidatingAdmissionPolicies and bindings are loaded into a real kube-apiserver
// v1.36, then seeded random ResourceSlice and ResourceClaim(Template) writes (create, update, delete;
// valid and invalid for the policies) are sent with dryRun=All as different users (impersonation
// headers, node-name token extra or none). Where the server decides by a policy (admitted, or refused
// with "ValidatingAdmissionPolicy ... denied request") and the evaluator says admit or deny, the two
// must agree; the evaluator's "unknown" is counted and never taken for admit. Writes the server refuses
// for another reason (schema validation, admin access without the namespace label) are not compared.

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'lib', 'analysis', '__fixtures__', 'real-drivers');
const NODE_EXTRA = 'authentication.kubernetes.io/node-name';
const NODES = ['n1', 'n2', 'n3'];
const NAMESPACES: Record<string, Record<string, string>> = {
  'tenant-a': { 'dra-posture.io/role': 'tenant' },
  'tenant-b': { 'dra-posture.io/role': 'tenant', 'resource.kubernetes.io/admin-access': 'true' },
  platform: { 'dra-posture.io/role': 'platform', 'resource.kubernetes.io/admin-access': 'true' },
  research: {},
};
const CLASSES = [
  'gpu.nvidia.com',
  'mig.nvidia.com',
  'h100-isolated.nvidia.com',
  'gpu.example.com',
  'gpu.intel.com',
  'vfio.gpu.nvidia.com',
  'other.example.com',
];
const CASES = Number(process.env.ADMISSION_DIFF_CASES ?? 400);

type Obj = { apiVersion: string; kind: string; metadata: Record<string, any>; spec?: any };

function policyDocuments(): Obj[] {
  const files = [
    join(ROOT, 'demo', 'manifests', '80-policies.yaml'),
    ...readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => join(FIXTURES, f)),
  ];
  const seen = new Set<string>();
  const out: Obj[] = [];
  for (const file of files)
    for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
      const o = doc.toJS() as Obj | null;
      if (!o || (o.kind !== 'ValidatingAdmissionPolicy' && o.kind !== 'ValidatingAdmissionPolicyBinding')) continue;
      const key = `${o.kind}/${o.metadata.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ apiVersion: o.apiVersion, kind: o.kind, metadata: { name: o.metadata.name, labels: o.metadata.labels ?? {} }, spec: o.spec });
    }
  return out;
}

let cp: ControlPlane;
const policies = policyDocuments();

async function admin(path: string, method: string, body?: unknown) {
  const r = await cp.request('admin', path, { method, body });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}

interface Who {
  username: string;
  node?: string;
}

function headersFor(who: Who): Record<string, string> {
  const h: Record<string, string> = { 'Impersonate-User': who.username };
  if (who.node) h[`Impersonate-Extra-${encodeURIComponent(NODE_EXTRA)}`] = who.node;
  return h;
}

/** The user as the server sees it behind the impersonation headers (SelfSubjectReview). */
const userInfos = new Map<string, AdmissionUser>();
async function userInfoOf(who: Who): Promise<AdmissionUser> {
  const key = `${who.username}|${who.node ?? ''}`;
  const hit = userInfos.get(key);
  if (hit) return hit;
  const r = await cp.request('admin', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    method: 'POST',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    headers: headersFor(who),
  });
  if (r.status >= 300) throw new Error(`SelfSubjectReview as ${who.username}: ${r.status}`);
  const u = r.body.status.userInfo;
  const info: AdmissionUser = { username: u.username, groups: u.groups ?? [], ...(u.uid ? { uid: u.uid } : {}), ...(u.extra ? { extra: u.extra } : {}) };
  userInfos.set(key, info);
  return info;
}

const slice = (name: string, driver: string, placement: Record<string, unknown>, labels: Record<string, string> = {}) => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceSlice',
  metadata: { name, labels },
  spec: { driver, pool: { name: `${name}-pool`, generation: 1, resourceSliceCount: 1 }, ...placement, devices: [] as unknown[] },
});

beforeAll(async () => {
  cp = await startControlPlane({ controllers: false });
  for (const n of NODES)
    await admin('/api/v1/nodes', 'POST', { apiVersion: 'v1', kind: 'Node', metadata: { name: n, labels: { 'kubernetes.io/hostname': n } } });
  for (const [name, labels] of Object.entries(NAMESPACES))
    await admin('/api/v1/namespaces', 'POST', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
  // Every impersonated identity may write anything: only admission decides.
  await admin('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', 'POST', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'diff-writers' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' }],
  });
  // Stored objects to update and delete, created before the policies would refuse some of them.
  for (const n of NODES) for (const d of drivers()) await admin('/apis/resource.k8s.io/v1/resourceslices', 'POST', slice(`${n}-${d}`, d, { nodeName: n }));
  await admin('/apis/resource.k8s.io/v1/resourceslices', 'POST', slice('cluster-wide', 'gpu.example.com', { allNodes: true }));
  for (const ns of Object.keys(NAMESPACES))
    for (const c of CLASSES.slice(0, 4))
      await admin(
        `/apis/resource.k8s.io/v1/namespaces/${ns}/resourceclaims`,
        'POST',
        claim('ResourceClaim', `base-${c.replace(/\./g, '-')}`, ns, [{ name: 'r', exactly: { deviceClassName: c } }]),
      );
  for (const o of policies.filter((p) => p.kind === 'ValidatingAdmissionPolicy'))
    await admin('/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', 'POST', o);
  for (const o of policies.filter((p) => p.kind === 'ValidatingAdmissionPolicyBinding'))
    await admin('/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', 'POST', o);
  // The server enforces a new policy once its informer has synced: wait for known refusals.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const sliceProbe = await cp.request('admin', '/apis/resource.k8s.io/v1/resourceslices?dryRun=All', {
      method: 'POST',
      body: slice('probe', 'gpu.example.com', { nodeName: 'n2' }),
      headers: headersFor({ username: 'system:serviceaccount:dra-example-driver:dra-example-driver-service-account', node: 'n1' }),
    });
    const claimProbe = await cp.request('admin', '/apis/resource.k8s.io/v1/namespaces/tenant-a/resourceclaims?dryRun=All', {
      method: 'POST',
      body: claim('ResourceClaim', 'probe', 'tenant-a', [{ name: 'r', exactly: { deviceClassName: 'other.example.com' } }]),
    });
    if (sliceProbe.status >= 400 && claimProbe.status >= 400) break;
    if (Date.now() > deadline) throw new Error('the policies were not enforced within 60 s');
    await new Promise((r) => setTimeout(r, 250));
  }
}, 600_000);

afterAll(async () => {
  await cp?.stop();
});

function drivers(): string[] {
  return ['gpu.example.com', 'gpu.nvidia.com', 'gpu.intel.com', 'tpu.google.com'];
}

function claim(kind: 'ResourceClaim' | 'ResourceClaimTemplate', name: string, namespace: string, requests: unknown[], labels: Record<string, string> = {}) {
  const spec = requests.length > 0 ? { devices: { requests } } : {};
  return { apiVersion: 'resource.k8s.io/v1', kind, metadata: { name, namespace, labels }, spec: kind === 'ResourceClaim' ? spec : { spec } };
}

/** The usernames the policies' matchConditions name (the driver plugins), plus users no policy names. */
function identities(): string[] {
  const names = new Set<string>(['alice', 'system:serviceaccount:tenant-a:default']);
  for (const p of policies) for (const c of p.spec?.matchConditions ?? []) for (const n of usernamesOf(c.expression) ?? []) names.add(n);
  return [...names].sort();
}

type Case = { what: string; method: string; path: string; body?: unknown; request: Omit<AdmissionRequest, 'userInfo'>; who: Who };

function randomCase(rnd: ReturnType<typeof createRandom>, i: number, stored: Map<string, Obj>): Case {
  const who: Who = { username: rnd.pick(identities()), ...(rnd.chance(0.8) ? { node: rnd.pick(NODES) } : {}) };
  const base = { group: 'resource.k8s.io', version: 'v1', subresource: '' };
  if (rnd.chance(0.5)) {
    // ResourceSlices.
    const op = rnd.pick(['CREATE', 'CREATE', 'UPDATE', 'DELETE'] as const);
    if (op === 'CREATE') {
      const driver = rnd.pick(drivers());
      const placement = rnd.pick([
        () => ({ nodeName: rnd.pick(NODES) }),
        () => ({ allNodes: true }),
        () => ({ nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [rnd.pick(NODES)] }] }] } }),
        () => ({ nodeName: rnd.pick(NODES), allNodes: true }), // invalid: two placements
        () => ({}), // invalid: no placement
      ])();
      const o = slice(`s-${i}`, driver, placement);
      return {
        what: `create slice ${JSON.stringify(placement)}`,
        method: 'POST',
        path: '/apis/resource.k8s.io/v1/resourceslices',
        body: o,
        who,
        request: {
          ...base,
          operation: 'CREATE',
          resource: 'resourceslices',
          kind: 'ResourceSlice',
          namespace: '',
          name: o.metadata.name,
          object: o,
          oldObject: null,
        },
      };
    }
    const old = rnd.pick([...stored.values()].filter((o) => o.kind === 'ResourceSlice'));
    const path = `/apis/resource.k8s.io/v1/resourceslices/${old.metadata.name}`;
    if (op === 'DELETE')
      return {
        what: `delete slice of ${old.spec.nodeName ?? 'all nodes'}`,
        method: 'DELETE',
        path,
        who,
        request: {
          ...base,
          operation: 'DELETE',
          resource: 'resourceslices',
          kind: 'ResourceSlice',
          namespace: '',
          name: old.metadata.name,
          object: null,
          oldObject: old,
        },
      };
    const next = structuredClone(old);
    next.metadata.labels = { ...(next.metadata.labels ?? {}), 'diff.example.com/touched': String(i) };
    if (rnd.chance(0.3) && next.spec.nodeName) next.spec.nodeName = rnd.pick(NODES);
    return {
      what: `update slice of ${old.spec.nodeName ?? 'all nodes'} → ${next.spec.nodeName ?? 'all nodes'}`,
      method: 'PUT',
      path,
      body: next,
      who,
      request: {
        ...base,
        operation: 'UPDATE',
        resource: 'resourceslices',
        kind: 'ResourceSlice',
        namespace: '',
        name: old.metadata.name,
        object: next,
        oldObject: old,
      },
    };
  }
  // ResourceClaims and ResourceClaimTemplates.
  const kind = rnd.chance(0.7) ? ('ResourceClaim' as const) : ('ResourceClaimTemplate' as const);
  const resource = kind === 'ResourceClaim' ? 'resourceclaims' : 'resourceclaimtemplates';
  const op = kind === 'ResourceClaim' ? rnd.pick(['CREATE', 'CREATE', 'CREATE', 'UPDATE', 'DELETE'] as const) : 'CREATE';
  if (op === 'CREATE') {
    const namespace = rnd.pick(Object.keys(NAMESPACES));
    const request = (n: number) =>
      rnd.chance(0.75)
        ? {
            name: `r${n}`,
            exactly: { deviceClassName: rnd.pick(CLASSES), ...(rnd.chance(0.2) ? { adminAccess: true } : {}), ...(rnd.chance(0.2) ? { count: 2 } : {}) },
          }
        : {
            name: `r${n}`,
            firstAvailable: [
              { name: 'a', deviceClassName: rnd.pick(CLASSES) },
              { name: 'b', deviceClassName: rnd.pick(CLASSES) },
            ],
          };
    const requests = rnd.chance(0.1) ? [] : Array.from({ length: 1 + rnd.int(2) }, (_, n) => request(n));
    const o = claim(kind, `c-${i}`, namespace, requests);
    return {
      what: `create ${kind} in ${namespace}: ${JSON.stringify(requests)}`,
      method: 'POST',
      path: `/apis/resource.k8s.io/v1/namespaces/${namespace}/${resource}`,
      body: o,
      who,
      request: { ...base, operation: 'CREATE', resource, kind, namespace, name: o.metadata.name, object: o, oldObject: null },
    };
  }
  const old = rnd.pick([...stored.values()].filter((o) => o.kind === 'ResourceClaim'));
  const path = `/apis/resource.k8s.io/v1/namespaces/${old.metadata.namespace}/resourceclaims/${old.metadata.name}`;
  const r = { ...base, resource: 'resourceclaims', kind: 'ResourceClaim', namespace: old.metadata.namespace, name: old.metadata.name };
  if (op === 'DELETE')
    return {
      what: `delete claim ${old.metadata.namespace}/${old.metadata.name}`,
      method: 'DELETE',
      path,
      who,
      request: { ...r, operation: 'DELETE', object: null, oldObject: old },
    };
  const next = structuredClone(old);
  next.metadata.labels = { ...(next.metadata.labels ?? {}), 'diff.example.com/touched': String(i) };
  return {
    what: `update claim ${old.metadata.namespace}/${old.metadata.name}`,
    method: 'PUT',
    path,
    body: next,
    who,
    request: { ...r, operation: 'UPDATE', object: next, oldObject: old },
  };
}

describe('admission policies: the evaluator against kube-apiserver', () => {
  it(`agrees with the server on ${CASES} random slice and claim writes wherever both decide`, async () => {
    const state = (await collectLiveCluster({ kubeconfig: cp.kubeconfigPath })).state;
    expect(state.validatingAdmissionPolicies.length).toBe(policies.filter((p) => p.kind === 'ValidatingAdmissionPolicy').length);
    const evaluator = clusterPolicies(state);
    // The stored objects as the server keeps them (defaults and server fields included).
    const stored = new Map<string, Obj>();
    for (const o of (await admin('/apis/resource.k8s.io/v1/resourceslices', 'GET')).items)
      stored.set(`s/${o.metadata.name}`, { ...o, apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice' });
    for (const o of (await admin('/apis/resource.k8s.io/v1/resourceclaims', 'GET')).items)
      stored.set(`c/${o.metadata.namespace}/${o.metadata.name}`, { ...o, apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim' });

    const rnd = createRandom(24);
    const counts = { admit: 0, deny: 0, unknown: 0, unknownServerAdmit: 0, notByPolicy: 0 };
    const disagreements: string[] = [];
    for (let i = 0; i < CASES; i++) {
      const c = randomCase(rnd, i, stored);
      const res = await cp.request('admin', `${c.path}?dryRun=All`, { method: c.method, body: c.body, headers: headersFor(c.who) });
      const message = String(res.body?.message ?? '');
      const server = res.status < 300 ? 'admit' : /ValidatingAdmissionPolicy '.*' with binding '.*' denied request/.test(message) ? 'deny' : 'other';
      const ours = evaluator.admit({ ...c.request, userInfo: await userInfoOf(c.who) });
      if (server === 'other') {
        expect(res.status, `${c.what}: ${message}`).toBeGreaterThanOrEqual(400);
        counts.notByPolicy++;
        continue;
      }
      if (ours.outcome === 'unknown') {
        counts.unknown++;
        if (server === 'admit') counts.unknownServerAdmit++;
        continue;
      }
      counts[ours.outcome]++;
      if (ours.outcome !== server)
        disagreements.push(
          `#${i} ${c.what} as ${c.who.username}${c.who.node ? `@${c.who.node}` : ''}: server ${server} (${message.slice(0, 200)}), ours ${ours.outcome}${ours.outcome === 'deny' ? ` (${ours.message})` : ''}`,
        );
    }
    console.log(`admission differential: ${JSON.stringify(counts)}`);
    expect(disagreements).toEqual([]);
    // The comparison covered both outcomes, and most cases were decided.
    expect(counts.admit).toBeGreaterThan(CASES / 10);
    expect(counts.deny).toBeGreaterThan(CASES / 10);
    expect(counts.unknown).toBeLessThan(CASES / 20);
  }, 600_000);
});
