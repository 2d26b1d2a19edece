import { describe, expect, it } from 'vitest';
import type { Namespace, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '@/lib/k8s/types';
import { clusterPolicies, namespaceEquivalence } from './cluster-policies';
import { claimRequest } from './__fixtures__/claim-request';

// namespaceEquivalence may merge namespaces only where the policies cannot tell them apart: checked
// against the evaluator itself on every namespace.

const ns = (name: string, labels: Record<string, string> = {}): Namespace => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } },
});
const rule = { apiGroups: ['resource.k8s.io'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['resourceclaims'] };
const policy = (name: string, expression: string, namespaceSelector?: object): ValidatingAdmissionPolicy => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec: { matchConstraints: { resourceRules: [rule], ...(namespaceSelector ? { namespaceSelector } : {}) }, validations: [{ expression }] },
});
const binding = (name: string, policyName: string, namespaceSelector?: object): ValidatingAdmissionPolicyBinding => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name },
  spec: { policyName, validationActions: ['Deny'], ...(namespaceSelector ? { matchResources: { namespaceSelector } } : {}) },
});
const request = (namespace: string) =>
  claimRequest(
    { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'c', namespace }, spec: { devices: { requests: [] } } },
    { namespace },
  );
const namespaces = [ns('a', { tier: 'gold' }), ns('b', { tier: 'gold', team: 'x' }), ns('c', { tier: 'free' }), ns('d'), ns('e', { tier: 'free' })];

function state(policies: ValidatingAdmissionPolicy[], bindings: ValidatingAdmissionPolicyBinding[]) {
  return { validatingAdmissionPolicies: policies, validatingAdmissionPolicyBindings: bindings, namespaces, pods: [] };
}

/** Every pair of namespaces with one key gets one outcome from the evaluator. */
function agrees(s: ReturnType<typeof state>): Map<string, string[]> {
  const keyOf = namespaceEquivalence(s);
  const evaluator = clusterPolicies(s);
  const groups = new Map<string, string[]>();
  const outcome = new Map<string, string>();
  for (const n of namespaces) {
    const key = keyOf(n.metadata.name);
    const got = evaluator.admit(request(n.metadata.name)).outcome;
    if (outcome.has(key)) expect(got, `namespace ${n.metadata.name}`).toBe(outcome.get(key));
    outcome.set(key, got);
    groups.set(key, [...(groups.get(key) ?? []), n.metadata.name]);
  }
  return groups;
}

describe('namespaceEquivalence', () => {
  it('groups namespaces by the selectors of the policies and bindings that select them', () => {
    const s = state(
      [policy('deny-all', 'false', { matchLabels: { tier: 'free' } }), policy('deny-gold', 'false')],
      [binding('deny-all', 'deny-all'), binding('deny-gold', 'deny-gold', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold'] }] })],
    );
    const groups = [...agrees(s).values()].map((g) => g.join(','));
    expect(groups.sort()).toEqual(['a,b', 'c,e', 'd']);
  });

  it('keeps every namespace apart when an expression reads the namespace or a policy takes params', () => {
    const reads = state([policy('by-name', "request.namespace != 'c'")], [binding('by-name', 'by-name')]);
    expect([...agrees(reads).values()].every((g) => g.length === 1)).toBe(true);
    const withParams = { ...policy('p', 'true'), spec: { ...policy('p', 'true').spec, paramKind: { apiVersion: 'v1', kind: 'ServiceAccount' } } };
    const keyOf = namespaceEquivalence(state([withParams], [binding('p', 'p')]));
    expect(keyOf('c')).not.toBe(keyOf('e'));
  });

  it('gives a namespace the state does not hold a key of its own', () => {
    const keyOf = namespaceEquivalence(state([policy('p', 'false')], [binding('p', 'p')]));
    expect(keyOf('missing')).not.toBe(keyOf('d'));
    expect(keyOf('a')).toBe(keyOf('d'));
  });
});

describe('the name label the API server sets on every namespace', () => {
  // kubernetes.io/metadata.name is set by the API server on every namespace (GA in 1.22); a snapshot
  // written by hand may leave it out, and a selector on it must still select by name.
  const bare = (name: string): Namespace => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const byName = { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['platform'] }] };
  const s = {
    validatingAdmissionPolicies: [policy('deny', 'false')],
    validatingAdmissionPolicyBindings: [binding('deny', 'deny', byName)],
    namespaces: [bare('platform'), bare('tenant')],
    pods: [],
  };

  it('is read by a namespaceSelector, and namespaceEquivalence tells the namespaces apart by it', () => {
    const evaluator = clusterPolicies(s);
    expect(evaluator.admit(request('tenant')).outcome).toBe('deny');
    expect(evaluator.admit(request('platform')).outcome).toBe('admit');
    const keyOf = namespaceEquivalence(s);
    expect(keyOf('tenant')).not.toBe(keyOf('platform'));
  });
});
