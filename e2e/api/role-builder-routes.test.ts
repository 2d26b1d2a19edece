import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GET as getApprovals, POST as postDecision } from '@/app/api/v1/role-builder/approvals/route';
import { POST as postBuild } from '@/app/api/v1/role-builder/build/route';
import { checkApprovedYaml, type ApprovalRecord } from '@/lib/role-builder/approval';
import { closeStores } from '@/server/store/get-store';
import type { RoleBuildResponse } from '@/lib/role-builder/dto';

// The role-builder route handlers, called in-process with a real SQLite file: build, decide, history across a
// reopen, same-origin and validation errors, and a corrupt or unwritable store (503, file untouched).

const ORIGIN = 'http://127.0.0.1:3999';
const env = { ...process.env };
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dra-roles-'));
  process.env.DRA_POSTURE_SOURCE = 'demo';
  process.env.DRA_POSTURE_STORE = join(dir, 'store.sqlite');
});
afterEach(() => closeStores());
afterAll(() => {
  process.env = env;
});

const BUILD = {
  persona: 'node-local-driver',
  identity: { kind: 'ServiceAccount', namespace: 'dra-example-driver', name: 'example-kubelet-plugin' },
  drivers: ['gpu.example.com'],
};

function post(url: string, body: unknown, headers: Record<string, string> = { origin: ORIGIN, host: '127.0.0.1:3999' }): Request {
  return new Request(`${ORIGIN}${url}`, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

async function build(body: unknown = BUILD): Promise<RoleBuildResponse> {
  const res = await postBuild(post('/api/v1/role-builder/build', body), undefined);
  expect(res.status).toBe(200);
  return (await res.json()) as RoleBuildResponse;
}

describe('POST /api/v1/role-builder/build', () => {
  it('returns the bundle, its YAML and digest, the validation and the diff', async () => {
    const r = await build();
    expect(r.yaml).toContain('associated-node:update');
    expect(r.yamlSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(r.validation.ok).toBe(true);
    expect(r.diff.noGrantsToday).toBe(true);
    expect(r.decisions).toEqual({ records: [], superseded: [] });
    expect(r.sourceFingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names what is wrong with bad input (400)', async () => {
    const cases: [unknown, string][] = [
      [{ ...BUILD, persona: 'wizard' }, 'persona'],
      [{ ...BUILD, drivers: [] }, 'drivers: the node-local-driver persona needs at least one driver name'],
      [{ ...BUILD, identity: { kind: 'ServiceAccount', namespace: 'Bad NS', name: 'x' } }, 'identity.namespace'],
      [{ ...BUILD, extra: 1 }, 'extra'],
      [{ persona: 'custom', identity: { kind: 'User', name: 'u' }, drivers: [], customRules: '* pods' }, 'customRules: rule line 1: wildcards'],
      ['{not json', 'not valid JSON'],
    ];
    for (const [body, message] of cases) {
      const res = await postBuild(post('/api/v1/role-builder/build', body), undefined);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain(message);
    }
  });
});

describe('approvals', () => {
  it('records a decision, exports annotated YAML that verifies, keeps it across a reopen', async () => {
    const r = await build();
    const res = await postDecision(
      post('/api/v1/role-builder/approvals', {
        build: BUILD,
        yamlSha256: r.yamlSha256,
        decision: 'approve',
        approver: 'Grace Hopper',
        comment: 'matches the chart',
      }),
      undefined,
    );
    expect(res.status).toBe(201);
    const { record, approvedYaml } = (await res.json()) as { record: ApprovalRecord; approvedYaml: string };
    expect(record).toMatchObject({
      decision: 'approve',
      approver: 'Grace Hopper',
      comment: 'matches the chart',
      yamlSha256: r.yamlSha256,
      sourceFingerprint: r.sourceFingerprint,
      persona: 'node-local-driver',
    });
    expect(approvedYaml).toContain('dra-posture.io/approved-by: Grace Hopper');
    expect(approvedYaml).toContain(`dra-posture.io/yaml-sha256: ${r.yamlSha256}`);

    closeStores(); // as after a restart: the next request opens the file again
    const history = (await (await getApprovals(new Request(`${ORIGIN}/api/v1/role-builder/approvals`), undefined)).json()) as {
      approvals: ApprovalRecord[];
      currentFingerprint: string;
    };
    expect(history.approvals.map((a) => a.id)).toEqual([record.id]);
    expect(history.currentFingerprint).toBe(r.sourceFingerprint);
    expect(checkApprovedYaml(approvedYaml, history.approvals)).toMatchObject({ status: 'valid' });
    expect(checkApprovedYaml(approvedYaml.replace('associated-node:patch', 'arbitrary-node:patch'), history.approvals)).toMatchObject({ status: 'modified' });
    // The build now shows the decision about this exact YAML; a changed YAML for the same identity shows it as invalid.
    expect((await build()).decisions).toMatchObject({ records: [{ id: record.id }], superseded: [] });
    const changed = await build({ ...BUILD, drivers: ['gpu.example.com', 'net.example.com'] });
    expect(changed.yamlSha256).not.toBe(r.yamlSha256);
    expect(changed.decisions).toMatchObject({ records: [], superseded: [{ id: record.id, yamlSha256: r.yamlSha256 }] });
  });

  it('refuses cross-origin requests, missing names and a YAML that changed since review', async () => {
    const r = await build();
    const good = { build: BUILD, yamlSha256: r.yamlSha256, decision: 'reject', approver: 'Ada', comment: '' };
    const cross = await postDecision(post('/api/v1/role-builder/approvals', good, { origin: 'https://evil.example', host: '127.0.0.1:3999' }), undefined);
    expect(cross.status).toBe(403);
    const noName = await postDecision(post('/api/v1/role-builder/approvals', { ...good, approver: '  ' }), undefined);
    expect(noName.status).toBe(400);
    expect(((await noName.json()) as { error: { message: string } }).error.message).toContain('approver');
    const stale = await postDecision(post('/api/v1/role-builder/approvals', { ...good, yamlSha256: '0'.repeat(64) }), undefined);
    expect(stale.status).toBe(400);
    expect(((await stale.json()) as { error: { message: string } }).error.message).toContain('the YAML changed since it was reviewed');
    const history = (await (await getApprovals(new Request(`${ORIGIN}/api/v1/role-builder/approvals`), undefined)).json()) as { approvals: ApprovalRecord[] };
    expect(history.approvals.filter((a) => a.approver === 'Ada')).toEqual([]);
  });

  it('a corrupt store file: 503 store_unavailable naming the file, the file untouched, the builder still works', async () => {
    const path = join(dir, 'garbage.sqlite');
    const garbage = 'this is not a database\n'.repeat(200);
    writeFileSync(path, garbage);
    process.env.DRA_POSTURE_STORE = path;
    try {
      const r = await build();
      expect('error' in r.decisions && r.decisions.error).toContain(path);
      const res = await postDecision(
        post('/api/v1/role-builder/approvals', { build: BUILD, yamlSha256: r.yamlSha256, decision: 'approve', approver: 'Ada', comment: '' }),
        undefined,
      );
      expect(res.status).toBe(503);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('store_unavailable');
      expect(body.error.message).toContain('is not a valid SQLite database');
      const list = await getApprovals(new Request(`${ORIGIN}/api/v1/role-builder/approvals`), undefined);
      expect(list.status).toBe(503);
      expect(readFileSync(path, 'utf8')).toBe(garbage);
    } finally {
      process.env.DRA_POSTURE_STORE = join(dir, 'store.sqlite');
    }
  });

  it('an unwritable store path: 503 naming the path; the good store keeps its history', async () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'x');
    process.env.DRA_POSTURE_STORE = join(blocker, 'store.sqlite');
    try {
      const r = await build();
      const res = await postDecision(
        post('/api/v1/role-builder/approvals', { build: BUILD, yamlSha256: r.yamlSha256, decision: 'approve', approver: 'Ada', comment: '' }),
        undefined,
      );
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('cannot be written');
    } finally {
      process.env.DRA_POSTURE_STORE = join(dir, 'store.sqlite');
    }
    const history = (await (await getApprovals(new Request(`${ORIGIN}/api/v1/role-builder/approvals`), undefined)).json()) as { approvals: ApprovalRecord[] };
    expect(history.approvals.map((a) => a.approver)).toEqual(['Grace Hopper']);
  });
});
