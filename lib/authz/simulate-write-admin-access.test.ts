import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from './authz-engine';
import { res, stateOf } from './__fixtures__/builders';
import { simulateWrite } from './simulate-write';

// The API server stores a ResourceClaim or ResourceClaimTemplate asking for adminAccess only in a
// namespace labelled resource.kubernetes.io/admin-access=true (AuthorizedForAdmin,
// pkg/registry/resource/utils.go), for every requester, system:masters included; the legacy 1.33 key
// does not count. v1beta1 objects carry adminAccess flat on the request.

const ns = (name: string, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Namespace' as const,
  metadata: { name, ...(labels ? { labels } : {}) },
});
const state = stateOf({
  namespaces: [ns('labelled', { 'resource.kubernetes.io/admin-access': 'true' }), ns('plain'), ns('legacy', { 'resource.k8s.io/admin-access': 'true' })],
});
const admin = { name: 'a', groups: ['system:masters'] };
const request = (exactly: Record<string, unknown>) => ({ name: 'r', exactly: { deviceClassName: 'gpu.example.com', ...exactly } });

function create(resource: 'resourceclaims' | 'resourceclaimtemplates', namespace: string, object: Record<string, unknown>) {
  return simulateWrite(createAuthzEngine(state), { user: admin, attributes: res('create', 'resource.k8s.io', resource, { namespace }), object });
}
const claim = (namespace: string, r: Record<string, unknown>, apiVersion = 'resource.k8s.io/v1') => ({
  apiVersion,
  kind: 'ResourceClaim',
  metadata: { name: 'c', namespace },
  spec: { devices: { requests: [r] } },
});

describe('simulateWrite: adminAccess needs the namespace label', () => {
  it('refuses a claim or template asking for adminAccess outside a labelled namespace, even for system:masters', () => {
    expect(create('resourceclaims', 'labelled', claim('labelled', request({ adminAccess: true }))).allowed).toBe(true);
    const plain = create('resourceclaims', 'plain', claim('plain', request({ adminAccess: true })));
    expect(plain.allowed).toBe(false);
    expect(plain.refusedBy).toBe('admission:dra-admin-access');
    expect(create('resourceclaims', 'legacy', claim('legacy', request({ adminAccess: true }))).allowed).toBe(false);
    const template = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaimTemplate',
      metadata: { name: 't', namespace: 'plain' },
      spec: { spec: claim('plain', request({ adminAccess: true })).spec },
    };
    expect(create('resourceclaimtemplates', 'plain', template).refusedBy).toBe('admission:dra-admin-access');
  });
  it('reads the flat v1beta1 field, and leaves claims without adminAccess alone', () => {
    const beta = claim('plain', { name: 'r', deviceClassName: 'gpu.example.com', adminAccess: true }, 'resource.k8s.io/v1beta1');
    expect(create('resourceclaims', 'plain', beta).allowed).toBe(false);
    const ordinary = create('resourceclaims', 'plain', claim('plain', request({})));
    expect(ordinary.allowed).toBe(true);
    expect(ordinary.steps.map((s) => s.step)).not.toContain('admission:dra-admin-access');
  });
});
