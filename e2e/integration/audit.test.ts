// A real kube-apiserver with the recommended DRA audit policy and the log backend: real traffic
// (allowed and denied driver writes with pod-bound tokens, an adminAccess claim, constrained node
// impersonation, a DeviceClass edit), then the product reads the log it wrote. Then the observed-use
// role of a test controller replaces its broad grant on the real server: the same traffic still
// succeeds and requests it never made are refused.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditAggregate } from '../../lib/audit/aggregate-activity';
import { auditFindings } from '../../lib/audit/audit-findings';
import { observedRole } from '../../lib/audit/observed-role';
import { recommendedAuditPolicy, renderAuditPolicyYaml } from '../../lib/audit/recommended-policy';
import type { ClusterState } from '../../lib/k8s/cluster-state';
import { buildBundle } from '../../lib/role-builder/build-bundle';
import { renderBundleYaml } from '../../lib/role-builder/render-yaml';
import { validateBundle } from '../../lib/role-builder/validate-bundle';
import { readAuditLog } from '../../server/audit/read-audit-log';
import { collectLiveCluster } from '../../server/kube/collect-cluster';
import { startControlPlane, type ControlPlane } from '../kube/control-plane';
import { createAllocatedClaim, createNodeBoundToken, writeDeviceStatus } from '../kube/dra-traffic';
import { kubeRequest } from '../kube/http';
import { pathFor, readManifests, seedObjects } from '../kube/seed-manifests';

const DEMO = join(import.meta.dirname, '..', '..', 'demo', 'manifests');
const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'audit', 'integration-audit.log');
const DRIVER = 'gpu.example.com';
const PLUGIN_SA = { namespace: 'dra-example-driver', name: 'dra-example-driver-service-account' };
const PLUGIN = `system:serviceaccount:${PLUGIN_SA.namespace}:${PLUGIN_SA.name}`;
const REPORTER = 'system:serviceaccount:kube-system:gpu-driver-reporter';
const CONTROLLER = 'system:serviceaccount:audit-test:controller';
const OWN = 'gpu-h100-01';
const OTHER = 'gpu-h100-02';

let dir: string;
let logFile: string;
let cp: ControlPlane;
let state: ClusterState;
let audit: AuditAggregate;
const responses: Record<string, number> = {};

const admin = (path: string, opts: Parameters<ControlPlane['request']>[2] = {}) => cp.request('admin', path, opts);

async function mustCreate(object: { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } }): Promise<void> {
  const res = await admin(pathFor(object), { method: 'POST', body: object });
  if (res.status !== 201) throw new Error(`create ${object.kind} ${object.metadata.name}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
}

/** Waits until the log holds an event of this audit ID (the log backend writes as requests complete). */
async function waitForLog(marker: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (existsSync(logFile) && readFileSync(logFile, 'utf8').includes(marker)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`audit log never showed ${marker}`);
}

/** Polls a request until its status is `want` (RBAC changes reach the authorizer through an informer). */
async function until(want: number, send: () => Promise<{ status: number }>): Promise<number> {
  let last = 0;
  for (let i = 0; i < 50; i++) {
    last = (await send()).status;
    if (last === want) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  return last;
}

const nodeStatusAs = async (token: string, node: string) => {
  const current = await admin(`/api/v1/nodes/${node}`);
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const conditions = [
    ...(current.body.status?.conditions ?? []).filter((c: { type: string }) => c.type !== 'example.com/GpuDriverReady'),
    { type: 'example.com/GpuDriverReady', status: 'True', reason: 'Probe', message: 'audit test', lastHeartbeatTime: now, lastTransitionTime: now },
  ];
  return kubeRequest(cp.url, token, `/api/v1/nodes/${node}/status`, {
    method: 'PUT',
    body: { ...current.body, status: { ...current.body.status, conditions } },
    headers: { 'Impersonate-User': `system:node:${node}` },
  });
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dra-posture-audit-it-'));
  logFile = join(dir, 'audit.log');
  const { policy, reasons } = recommendedAuditPolicy({ tenantNamespaces: ['tenant-a'] });
  // The API server reads the policy exactly as `dra-posture audit-policy` prints it.
  writeFileSync(join(dir, 'policy.yaml'), renderAuditPolicyYaml(policy, reasons));
  cp = await startControlPlane({
    extraApiserverArgs: [
      `--audit-policy-file=${join(dir, 'policy.yaml')}`,
      `--audit-log-path=${logFile}`,
      '--audit-log-mode=blocking',
      '--audit-log-format=json',
    ],
  });
  await seedObjects(cp, readManifests(DEMO));

  // 1. A kubelet plugin with a token bound to a pod on OWN: its own node's claim (allowed), another node's (denied).
  const pluginToken = await createNodeBoundToken(cp, PLUGIN_SA.namespace, PLUGIN_SA.name, OWN);
  await createAllocatedClaim(cp, 'tenant-a', 'audit-own', DRIVER, OWN);
  await createAllocatedClaim(cp, 'tenant-a', 'audit-other', DRIVER, OTHER);
  responses.ownWrite = (await writeDeviceStatus(cp, pluginToken, 'tenant-a', 'audit-own', DRIVER)).put.status;
  const other = await writeDeviceStatus(cp, pluginToken, 'tenant-a', 'audit-other', DRIVER);
  responses.otherWrite = other.put.status;
  responses.otherWriteMessage = String(other.put.body?.message ?? '').includes('resourceclaims/driver') ? 1 : 0;

  // 2. An adminAccess claim in the namespace labelled for it.
  const adminClaim = await admin('/apis/resource.k8s.io/v1/namespaces/platform/resourceclaims', {
    method: 'POST',
    body: {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: 'audit-admin', namespace: 'platform' },
      spec: { devices: { requests: [{ name: 'all', exactly: { deviceClassName: DRIVER, allocationMode: 'All', adminAccess: true } }] } },
    },
  });
  responses.adminClaim = adminClaim.status;

  // 3. Constrained node impersonation: own node allowed, another node refused.
  const reporterToken = await createNodeBoundToken(cp, 'kube-system', 'gpu-driver-reporter', OWN);
  responses.ownNodeStatus = (await nodeStatusAs(reporterToken, OWN)).status;
  responses.otherNodeStatus = (await nodeStatusAs(reporterToken, OTHER)).status;

  // 4. A DeviceClass edit by a person.
  const patch = await admin(`/apis/resource.k8s.io/v1/deviceclasses/${DRIVER}`, {
    method: 'PATCH',
    contentType: 'application/merge-patch+json',
    body: { metadata: { labels: { 'audit-test': 'edited' } } },
  });
  responses.deviceClassPatch = patch.status;

  // 5. The test controller: a broad grant, and the traffic it really makes.
  for (const o of [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'audit-test' } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'audit-work' } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'controller', namespace: 'audit-test' } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'audit-test-broad' },
      rules: [
        { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'], verbs: ['get', 'list', 'watch', 'update', 'delete'] },
        { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: ['update', 'patch'] },
        { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'], verbs: ['associated-node:update', 'arbitrary-node:update'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'audit-test-broad' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'audit-test-broad' },
      subjects: [{ kind: 'ServiceAccount', name: 'controller', namespace: 'audit-test' }],
    },
  ])
    await mustCreate(o);
  const ctlToken = await createNodeBoundToken(cp, 'audit-test', 'controller', OWN);
  await createAllocatedClaim(cp, 'audit-work', 'ctl-1', DRIVER, OWN);
  responses.ctlWrite = await until(200, async () => (await writeDeviceStatus(cp, ctlToken, 'audit-work', 'ctl-1', DRIVER)).put);

  const marker = await admin('/apis/resource.k8s.io/v1/deviceclasses/audit-marker-never-exists');
  expect(marker.status).toBe(404);
  await waitForLog('audit-marker-never-exists');
  audit = await readAuditLog(logFile);
  state = (await collectLiveCluster({ kubeconfig: cp.kubeconfigPath })).state;
  if (process.env.AUDIT_FIXTURE_OUT === '1') copyFileSync(logFile, FIXTURE);
}, 600_000);

afterAll(async () => {
  await cp?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the real API server writes the audit log the product reads', () => {
  it('the traffic had the outcomes the scenario needs', () => {
    expect(responses).toEqual({
      ownWrite: 200,
      otherWrite: 422,
      otherWriteMessage: 1,
      adminClaim: 201,
      ownNodeStatus: 200,
      otherNodeStatus: 403,
      deviceClassPatch: 200,
      ctlWrite: 200,
    });
  });

  it('reads every event of the log (the policy file is the one audit-policy prints; nothing malformed)', () => {
    expect(audit.activity.malformed.count).toBe(0);
    expect(audit.activity.events).toBeGreaterThan(10);
    expect(audit.activity.requestBodies).toBe(true);
    const cov = new Map(audit.activity.coverage.map((c) => [`${c.group}/${c.resource}`, c.levels]));
    expect(cov.get('resource.k8s.io/resourceclaims/status')).toEqual(['Request']);
    expect(cov.get('resource.k8s.io/deviceclasses')).toEqual(['Metadata', 'RequestResponse']);
    expect(cov.get('/nodes/status')).toEqual(['Metadata']);
    expect(cov.has('resource.k8s.io/resourceslices')).toBe(true); // the seed's slice creates, at Metadata
  });

  it('driver writes: the plugin on its node, one allowed and one denied with the server reason', () => {
    const row = audit.activity.writes.find((w) => w.identity === PLUGIN && w.category === 'claim-driver');
    expect(row).toMatchObject({ node: OWN, verb: 'update', allowed: 1, denied: 1 });
    expect(row!.deniedReason).toContain('resourceclaims/driver');
    const denied = audit.activity.denied.find((d) => d.identity === PLUGIN);
    expect(denied).toMatchObject({ node: OWN, name: 'audit-other', code: 422 });
  });

  it('impersonation: own node allowed, the other node refused, with requester and node', () => {
    const rows = audit.activity.impersonation.filter((r) => r.requester === REPORTER);
    expect(rows.map((r) => [r.requesterNode, r.impersonated, r.relation, r.allowed, r.denied]).sort()).toEqual(
      [
        [OWN, `system:node:${OTHER}`, 'other-node', 0, expect.any(Number)],
        [OWN, `system:node:${OWN}`, 'own-node', expect.any(Number), 0],
      ].sort(),
    );
    expect(rows.find((r) => r.relation === 'other-node')!.denied).toBeGreaterThan(0);
  });

  it('alerts: adminAccess claim, DeviceClass edit, denied driver write from the node, other-node status write', () => {
    const findings = auditFindings(audit.alerts, { isDriver: (u) => u === PLUGIN || u === CONTROLLER });
    const seen = findings.map(
      (f) => `${f.check} ${f.subjects.map((s) => s.name).join()} ${f.objects.map((o) => `${o.kind}/${o.namespace ?? ''}/${o.name}`).join()}`,
    );
    expect(seen).toContain('AUDIT001 admin ResourceClaim/platform/audit-admin');
    expect(seen).toContain(`AUDIT003 admin DeviceClass//${DRIVER}`);
    expect(seen).toContain(`AUDIT004 ${PLUGIN_SA.name} Node//${OWN}`);
    expect(seen).toContain(`AUDIT005 gpu-driver-reporter Node//${OTHER}`);
    expect(findings.find((f) => f.check === 'AUDIT005')!.message).toMatch(/refused \(403\)/);
    // Nothing about the allowed own-node impersonation or the plugin's allowed write.
    expect(seen.filter((s) => s.startsWith('AUDIT005'))).toHaveLength(1);
  });
});

describe('the observed-use role on the real server', () => {
  it('covers the same traffic, refuses what the controller never did, and the engine agrees', async () => {
    const usage = audit.usage.get(CONTROLLER)!;
    const { input } = observedRole(CONTROLLER, usage.used, audit.activity.window);
    expect(input.customRules!.map((r) => r.rule)).toEqual([
      { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'], verbs: ['get'] },
      { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'], verbs: ['associated-node:update'], resourceNames: [DRIVER] },
      { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: ['update'] },
    ]);
    const bundle = buildBundle(input);
    // Validated by the engine on the cluster without the broad grant, so only the new rules can allow.
    const validation = validateBundle(
      { ...state, clusterRoleBindings: state.clusterRoleBindings.filter((b) => b.metadata.name !== 'audit-test-broad') },
      bundle,
    );
    expect(validation.intended.every((r) => r.allowed)).toBe(true);

    // Replace the broad grant with the observed role, applied from its YAML.
    expect((await admin('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/audit-test-broad', { method: 'DELETE' })).status).toBe(200);
    for (const doc of parseAllDocuments(renderBundleYaml(bundle))) await mustCreate(doc.toJS());

    const token = await createNodeBoundToken(cp, 'audit-test', 'controller', OWN);
    await createAllocatedClaim(cp, 'audit-work', 'ctl-2', DRIVER, OWN);
    await createAllocatedClaim(cp, 'audit-work', 'ctl-far', DRIVER, OTHER);
    // The same traffic: read the claim, write its device status on its own node.
    expect(await until(200, async () => (await writeDeviceStatus(cp, token, 'audit-work', 'ctl-2', DRIVER)).put)).toBe(200);
    // Requests it never made: list claims, delete one, write a claim of another node (arbitrary-node).
    expect(await until(403, () => kubeRequest(cp.url, token, '/apis/resource.k8s.io/v1/namespaces/audit-work/resourceclaims'))).toBe(403);
    expect((await kubeRequest(cp.url, token, '/apis/resource.k8s.io/v1/namespaces/audit-work/resourceclaims/ctl-2', { method: 'DELETE' })).status).toBe(403);
    const far = await writeDeviceStatus(cp, token, 'audit-work', 'ctl-far', DRIVER);
    expect(far.get.status).toBe(200);
    expect(far.put.status).toBe(422);
    expect(String(far.put.body.message)).toContain('arbitrary-node');
    // Another namespace is outside the Role.
    expect((await kubeRequest(cp.url, token, '/apis/resource.k8s.io/v1/namespaces/tenant-b/resourceclaims/x')).status).toBe(403);
  }, 120_000);
});
