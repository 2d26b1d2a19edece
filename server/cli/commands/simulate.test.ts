import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../__fixtures__/run-cli';

// `dra-posture simulate` on the demo: manifests and request documents through the whole chain.
const dir = mkdtempSync(join(tmpdir(), 'dra-simulate-'));
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const RBAC = 'rbac.authorization.k8s.io';
const roleYaml = `apiVersion: ${RBAC}/v1
kind: Role
metadata:
  name: claim-reader
  namespace: tenant-a
rules:
- apiGroups: [resource.k8s.io]
  resources: [resourceclaims]
  verbs: [get, list]
`;
const slice = (nodeName: string) => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceSlice',
  metadata: { name: `fake-${nodeName}` },
  spec: { nodeName, driver: 'gpu.example.com', pool: { name: nodeName, generation: 1, resourceSliceCount: 1 } },
});
const sliceDoc = (nodeName: string) => ({
  user: 'system:node:gpu-dev-01',
  groups: ['system:nodes', 'system:authenticated'],
  verb: 'create',
  group: 'resource.k8s.io',
  resource: 'resourceslices',
  new: slice(nodeName),
});

describe('dra-posture simulate', () => {
  it('a manifest: refused at authorization for a tenant user, accepted for system:masters; exit 1 and 0', async () => {
    const role = file('role.yaml', roleYaml);
    const denied = await runCli('simulate', '-f', role, '--as', 'alice', '--demo');
    expect(denied.code).toBe(1);
    expect(denied.out).toMatch(/^denied by authorization \(as alice\)/);
    const admin = await runCli('simulate', '-f', role, '--as', 'root', '--as-group', 'system:masters', '--demo', '-o', 'json');
    expect(admin.code).toBe(0);
    const r = JSON.parse(admin.out);
    expect(r.allowed).toBe(true);
    expect(r.steps.map((s: { step: string }) => s.step)).toEqual(['authorization', 'admission:rbac-escalation']);
    expect(r.steps[1].reason).toContain('system:masters');
  });

  // The demo's API server runs without NodeRestriction (NODE005): `--node-restriction on` asks how a
  // cluster that runs it would answer.
  it('a request document: with NodeRestriction, a node identity may create its own ResourceSlice, not one for another node', async () => {
    const own = await runCli('simulate', '-f', file('own.json', sliceDoc('gpu-dev-01')), '--demo', '--node-restriction', 'on');
    expect(own.code).toBe(0);
    const other = await runCli('simulate', '-f', file('other.json', sliceDoc('gpu-h100-01')), '--demo', '--node-restriction', 'on');
    expect(other.code).toBe(1);
    expect(other.out).toContain('denied by admission:node-restriction');
    expect(other.out).toContain('can only create ResourceSlice with the same NodeName as the requesting node');
  });

  it('the demo without NodeRestriction: a kubelet patching another node’s status is accepted, as that API server would', async () => {
    const node = (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { conditions: [] } });
    const doc = {
      user: 'system:node:gpu-h100-01',
      groups: ['system:nodes', 'system:authenticated'],
      verb: 'patch',
      resource: 'nodes',
      subresource: 'status',
      name: 'gpu-h100-02',
      new: node('gpu-h100-02'),
      old: node('gpu-h100-02'),
    };
    const off = await runCli('simulate', '-f', file('other-status.json', doc), '--demo', '-o', 'json');
    expect(off.code).toBe(0);
    const r = JSON.parse(off.out);
    expect(r.steps.map((s: { step: string; allowed: boolean }) => `${s.step} ${s.allowed}`)).toEqual(['authorization true', 'admission:node-restriction true']);
    expect(r.steps[1].reason).toContain('NodeRestriction admission is off on this cluster (flags of kube-system/kube-apiserver-cp-01)');
    const on = await runCli('simulate', '-f', file('other-status.json', doc), '--demo', '--node-restriction', 'on');
    expect(on.code).toBe(1);
    expect(on.out).toContain('denied by admission:node-restriction');
  });

  it('--batch answers every document (JSON lines), exit 0, in order', async () => {
    const batch = file('batch.jsonl', [sliceDoc('gpu-dev-01'), sliceDoc('gpu-h100-01')].map((d) => JSON.stringify(d)).join('\n'));
    const r = await runCli('simulate', '--batch', batch, '--demo', '--node-restriction', 'on', '-o', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).map((x: { allowed: boolean; refusedBy?: string }) => x.refusedBy ?? 'allowed')).toEqual(['allowed', 'admission:node-restriction']);
  });

  it('bad input says what and where, with exit 2', async () => {
    expect(await runCli('simulate', '--demo')).toMatchObject({ code: 2 });
    const doc = file('own2.json', sliceDoc('gpu-dev-01'));
    const bad: [string[], string][] = [
      [['--node-restriction', 'maybe'], '--node-restriction expects on or off (got "maybe")'],
      [['--feature-gates', 'ConstrainedImpersonation'], '--feature-gates: missing bool value for ConstrainedImpersonation'],
      [['--feature-gates', 'ConstrainedImpersonation=yes'], '--feature-gates: invalid value of ConstrainedImpersonation: yes'],
      [['--authorizers', 'Node,Webhook'], '--authorizers: the Webhook authorizer'],
    ];
    for (const [flags, message] of bad) {
      const r = await runCli('simulate', '-f', doc, '--demo', ...flags);
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.err).toContain(message);
    }
    const badVerb = await runCli('simulate', '-f', file('bad.json', { ...sliceDoc('x'), verb: 'escalate' }), '--demo');
    expect(badVerb.code).toBe(2);
    expect(badVerb.err).toMatch(/bad\.json: .*verb/);
    const unknownKind = await runCli(
      'simulate',
      '-f',
      file('lease.yaml', 'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: x}\n'),
      '--as',
      'a',
      '--demo',
    );
    expect(unknownKind.code).toBe(2);
    expect(unknownKind.err).toContain('kind "Lease" is not one dra-posture knows; send a request document');
    const update = await runCli('simulate', '-f', file('r2.yaml', roleYaml), '--verb', 'update', '--as', 'a', '--demo');
    expect(update.err).toContain('--verb update needs --old FILE');
    expect((await runCli('simulate', '-f', join(dir, 'missing.yaml'), '--as', 'a', '--demo')).err).toContain('no such file');
  });
});
