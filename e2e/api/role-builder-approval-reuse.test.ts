import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST as postDecision } from '@/app/api/v1/role-builder/approvals/route';
import { POST as postBuild } from '@/app/api/v1/role-builder/build/route';
import { clusterRole, crb, SA } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { ApprovalRecord } from '@/lib/role-builder/approval';
import type { RoleBuildResponse } from '@/lib/role-builder/dto';
import { reviewRole } from '@/lib/role-builder/review-role';
import { smallCluster } from '@/lib/report/__fixtures__/small-cluster';
import { SNAPSHOT_RECHECK_MS } from '@/server/services/current-cluster';
import { closeStores } from '@/server/store/get-store';

// A decision reuses what the build validated when the cluster and the YAML are the same (keyed by the
// source's fingerprint and the YAML's SHA-256), and is refused when the cluster changed in a way that
// changes the validation. The source is a snapshot file rewritten between steps, as `serve --snapshot`
// reads it again when it changes.

vi.mock('@/lib/role-builder/review-role', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/lib/role-builder/review-role')>();
  return { ...actual, reviewRole: vi.fn(actual.reviewRole) };
});

const ORIGIN = 'http://127.0.0.1:3999';
const env = { ...process.env };
let dir: string;
let snapshot: string;

function writeCluster(state: ClusterState) {
  const items = Object.entries(state).flatMap(([key, value]) => (key !== 'warnings' && Array.isArray(value) ? value : []));
  writeFileSync(snapshot, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
}

/** Rewrites the snapshot and waits until the source looks at the file again. */
async function changeCluster(state: ClusterState) {
  writeCluster(state);
  await new Promise((r) => setTimeout(r, SNAPSHOT_RECHECK_MS + 100));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dra-roles-reuse-'));
  snapshot = join(dir, 'cluster.json');
  writeCluster(smallCluster());
  delete process.env.DRA_POSTURE_SOURCE;
  process.env.DRA_POSTURE_SNAPSHOT = snapshot;
  process.env.DRA_POSTURE_STORE = join(dir, 'store.sqlite');
});
afterEach(() => closeStores());
afterAll(() => {
  process.env = env;
});

const BUILD = { persona: 'tenant', identity: { kind: 'ServiceAccount', namespace: 'tenant-a', name: 'runner' }, drivers: [], namespace: 'tenant-a' };

function post(url: string, body: unknown): Request {
  return new Request(`${ORIGIN}${url}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', origin: ORIGIN, host: '127.0.0.1:3999' },
  });
}

async function build(): Promise<RoleBuildResponse> {
  const res = await postBuild(post('/api/v1/role-builder/build', BUILD), undefined);
  expect(res.status).toBe(200);
  return (await res.json()) as RoleBuildResponse;
}

async function decide(r: Pick<RoleBuildResponse, 'yamlSha256' | 'sourceFingerprint'>, approver: string) {
  const res = await postDecision(
    post('/api/v1/role-builder/approvals', { build: BUILD, yamlSha256: r.yamlSha256, sourceFingerprint: r.sourceFingerprint, decision: 'approve', approver }),
    undefined,
  );
  const json = (await res.json()) as { record?: ApprovalRecord; error?: { message: string } };
  return { status: res.status, ...json };
}

const validations = () => vi.mocked(reviewRole).mock.calls.length;

describe('deciding on a reviewed YAML', () => {
  it('reuses the build’s validation on the same cluster, validates again after a change, and refuses when the validation changed', async () => {
    const reviewed = await build();
    expect(reviewed.validation.ok).toBe(true);
    const afterBuild = validations();

    // Same cluster, same YAML: the build's validation is the decision's.
    const same = await decide(reviewed, 'Ada');
    expect(same.status).toBe(201);
    expect(same.record).toMatchObject({ approver: 'Ada', sourceFingerprint: reviewed.sourceFingerprint, yamlSha256: reviewed.yamlSha256 });
    expect(validations()).toBe(afterBuild);

    // An unrelated change (a new service account elsewhere): a new fingerprint, validated again, same answers: recorded on the new version.
    const unrelated = smallCluster();
    unrelated.serviceAccounts = [{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'other', namespace: 'tenant-b' } }];
    await changeCluster(unrelated);
    const later = await decide(reviewed, 'Grace');
    expect(later.status).toBe(201);
    expect(later.record?.sourceFingerprint).not.toBe(reviewed.sourceFingerprint);
    expect(validations()).toBe(afterBuild + 1);

    // A change that gives the identity DeviceClass writes: the validation now reports DRA003; refused.
    const onLater = await build();
    const grants = smallCluster();
    grants.serviceAccounts = unrelated.serviceAccounts;
    grants.clusterRoles = [
      ...grants.clusterRoles,
      clusterRole('class-writer', [{ verbs: ['create'], apiGroups: ['resource.k8s.io'], resources: ['deviceclasses'] }]),
    ];
    grants.clusterRoleBindings = [
      ...grants.clusterRoleBindings,
      crb('runner-classes', { kind: 'ClusterRole', name: 'class-writer' }, [SA('tenant-a', 'runner')]),
    ];
    await changeCluster(grants);
    const refused = await decide(onLater, 'Linus');
    expect(refused.status).toBe(400);
    expect(refused.error?.message).toContain('its validation now differs');
    expect((await build()).validation.findings.map((f) => f.check)).toContain('DRA003');

    // A review this server never made (or no longer keeps) on another cluster version: refused, not assumed unchanged.
    const unknown = await decide({ yamlSha256: reviewed.yamlSha256, sourceFingerprint: 'f'.repeat(64) }, 'Barbara');
    expect(unknown.status).toBe(400);
    expect(unknown.error?.message).toContain('no longer kept');
  });
});
