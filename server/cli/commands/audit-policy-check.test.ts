import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as run } from '../__fixtures__/run-cli';

// `audit-policy --check` on the three policies of issue #24: the API server decides a request's level
// by the first rule that matches it (audit/policy/checker.go), namespaces are exact names, and
// resourceclaims/binding and /driver are never a request's subresource (they are checked inside a
// resourceclaims/status write).

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dra-posture-policy-check-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function check(yaml: string, ...flags: string[]) {
  const file = join(dir, `p${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(file, `apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n${yaml}`);
  return run('audit-policy', '--check', file, ...flags);
}

describe('audit-policy --check judges what requests carry', () => {
  it('passes claims and claims/status at RequestResponse without rules for binding or driver', async () => {
    const r = await check(
      [
        '- level: RequestResponse',
        '  resources: [{group: resource.k8s.io, resources: [resourceclaims, resourceclaims/status, resourceclaimtemplates, deviceclasses]}]',
        '- level: Metadata',
        '  resources: [{group: resource.k8s.io, resources: [resourceslices]}, {group: "", resources: [nodes/status]}]',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/resourceclaims\/(binding|driver)/);
  });

  it('fails claim creates a Metadata rule matches first, naming the rule that shadows the one with bodies', async () => {
    const r = await check(
      [
        '- level: Metadata',
        '  resources: [{group: resource.k8s.io}]',
        '- level: RequestResponse',
        '  resources: [{group: resource.k8s.io, resources: [resourceclaims, resourceclaims/status, resourceclaimtemplates, deviceclasses]}]',
        '- level: Metadata',
        '  resources: [{group: "", resources: [nodes/status]}]',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/create resource\.k8s\.io\/resourceclaims .*Metadata \(rules\[0\]\)/);
    expect(r.out).toMatch(/rules\[0\] \(Metadata\) matches create resource\.k8s\.io\/resourceclaims first.*rules\[1\] \(RequestResponse\)/);
  });

  it('warns that a glob namespace matches nothing and fails the tenant claims it was meant to log', async () => {
    const r = await check(
      [
        '- level: RequestResponse',
        '  namespaces: ["tenant-*"]',
        '  resources: [{group: resource.k8s.io, resources: [resourceclaims, resourceclaimtemplates]}]',
        '- level: RequestResponse',
        '  resources: [{group: resource.k8s.io, resources: [deviceclasses, resourceclaims/status]}]',
        '- level: Metadata',
        '  resources: [{group: resource.k8s.io}, {group: "", resources: [nodes/status]}]',
        '',
      ].join('\n'),
      '--tenant-namespace',
      'tenant-a',
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/rules\[0\]\.namespaces: "tenant-\*".*matches nothing/);
    expect(r.out).toMatch(/create resource\.k8s\.io\/resourceclaims in tenant-a.*Metadata \(rules\[2\]\)/);
  });

  it('warns about a rule that only names resourceclaims/binding and /driver', async () => {
    const r = await check(
      [
        '- level: RequestResponse',
        '  resources: [{group: resource.k8s.io, resources: [resourceclaims/binding, resourceclaims/driver]}]',
        '- level: RequestResponse',
        '  resources: [{group: resource.k8s.io, resources: [resourceclaims, resourceclaims/status, resourceclaimtemplates, deviceclasses]}]',
        '- level: Metadata',
        '  resources: [{group: resource.k8s.io, resources: [resourceslices]}, {group: "", resources: [nodes/status]}]',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/rules\[0\] can never match/);
  });
});
