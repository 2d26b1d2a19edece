import { describe, expect, it } from 'vitest';
import { runCli } from './__fixtures__/run-cli';
import { targetFromArgs } from './request-target';

// resourceclaims/binding is a synthetic subresource the API server checks at the cluster scope with
// no name (pkg/registry/resource/utils.go AuthorizedForBinding), so a RoleBinding never grants it.

describe('targetFromArgs: resourceclaims/binding', () => {
  it('asks at the cluster scope with no name, and says what it ignored', () => {
    const warnings: string[] = [];
    const t = targetFromArgs('update', 'resourceclaims/c1', undefined, { subresource: 'binding', namespace: 'tenant-a' }, (w) => warnings.push(w));
    expect(t.resource).toMatchObject({ group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'binding', namespace: '', name: '' });
    expect(warnings).toEqual([expect.stringContaining('--namespace is ignored'), expect.stringContaining('the name "c1" is ignored')]);
  });
  it('leaves other claim subresources in their namespace (status, driver)', () => {
    for (const subresource of ['status', 'driver'])
      expect(targetFromArgs('update', 'resourceclaims', undefined, { subresource }, () => {}).resource?.namespace).toBe('default');
  });
});

describe('who-can update resourceclaims --subresource binding', () => {
  it('is asked at the cluster scope: the request has no namespace and only ClusterRoleBindings grant it', async () => {
    const r = await runCli('who-can', 'update', 'resourceclaims', '--subresource', 'binding', '-n', 'tenant-a', '--demo', '-o', 'json');
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.out) as { request: { namespace: string }; subjects: { grants?: { binding: { kind: string } }[] }[] };
    expect(answer.request.namespace).toBe('');
    for (const s of answer.subjects) for (const g of s.grants ?? []) expect(g.binding.kind).toBe('ClusterRoleBinding');
    expect(answer.subjects.length).toBeGreaterThan(0);
  });
});
