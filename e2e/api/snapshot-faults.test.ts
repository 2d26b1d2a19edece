import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// GET /api/v1/report in-process on a --snapshot file that changes, breaks and disappears under the
// server (issue #25 item 4): a change is read again; a broken or deleted file keeps the last good
// copy on show with a warning saying so; a file that never read gives 503 with the reason, never 500.

const dir = mkdtempSync(join(tmpdir(), 'snapshot-faults-'));
const env = { ...process.env };
afterAll(() => {
  process.env = env;
  rmSync(dir, { recursive: true, force: true });
});

// A ClusterRole with * verbs on * resources in resource.k8s.io: bound, it is DRA002 (DESIGN §4).
const ROLE = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: dra-everything}
rules:
- apiGroups: [resource.k8s.io]
  resources: ['*']
  verbs: ['*']
`;
const BINDING = `---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: dra-everything}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: dra-everything}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}
`;

interface Body {
  error?: { code: string; message: string };
  findings?: { check: string }[];
  warnings?: string[];
}

async function report(path: string): Promise<{ status: number; body: Body }> {
  process.env.DRA_POSTURE_SNAPSHOT = path;
  delete process.env.DRA_POSTURE_SOURCE;
  const { GET } = await import('@/app/api/v1/report/route');
  const res = await GET(new Request('http://127.0.0.1:3999/api/v1/report', { headers: { host: '127.0.0.1:3999' } }), undefined);
  return { status: res.status, body: JSON.parse(await res.text()) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dra002 = (b: Body) => (b.findings ?? []).filter((f) => f.check === 'DRA002').length;

describe('--snapshot file faults', () => {
  it('a malformed file at start: 503 with the reason', async () => {
    const path = join(dir, 'broken.yaml');
    writeFileSync(path, 'kind: [unclosed\n');
    const got = await report(path);
    expect(got.status).toBe(503);
    expect(got.body.error?.code).toBe('source_unavailable');
    expect(got.body.error?.message).toMatch(/^the cluster source could not be read: /);
    // The Sources page (where another source is chosen) still renders, with the reason.
    const { default: SourcesPage } = await import('@/app/sources/page');
    const page = JSON.stringify(await SourcesPage());
    expect(page).toContain(got.body.error!.message.slice(0, 60));
    expect(page).toContain('Upload a snapshot');
  });

  it('changed: read again; broken: last copy with a warning; deleted: last copy with a warning', async () => {
    const path = join(dir, 'cluster.yaml');
    writeFileSync(path, ROLE);
    const first = await report(path);
    expect(first.status).toBe(200);
    expect(dra002(first.body)).toBe(0);

    await sleep(1100);
    writeFileSync(path, ROLE + BINDING);
    const changed = await report(path);
    expect(changed.status).toBe(200);
    expect(dra002(changed.body)).toBeGreaterThan(0);

    await sleep(1100);
    writeFileSync(path, 'kind: [unclosed\n');
    const broken = await report(path);
    expect(broken.status).toBe(200);
    expect(dra002(broken.body)).toBe(dra002(changed.body));
    expect(broken.body.warnings?.some((w) => /^snapshot cluster\.yaml changed and could not be read again .*: showing the copy read at /.test(w))).toBe(true);

    await sleep(1100);
    rmSync(path);
    const deleted = await report(path);
    expect(deleted.status).toBe(200);
    expect(dra002(deleted.body)).toBe(dra002(changed.body));
    expect(deleted.body.warnings?.some((w) => w.startsWith('snapshot cluster.yaml was deleted: showing the copy read at '))).toBe(true);

    await sleep(1100);
    writeFileSync(path, ROLE);
    const back = await report(path);
    expect(dra002(back.body)).toBe(0);
    expect(back.body.warnings?.some((w) => w.startsWith('snapshot cluster.yaml'))).toBe(false);
  }, 30_000);
});
