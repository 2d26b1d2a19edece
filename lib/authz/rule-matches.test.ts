import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '@/lib/k8s/types';
import { ruleAllowsNonResource, ruleAllowsResource } from './rule-matches';
import { res } from './__fixtures__/builders';

// Cases restate authz-semantics.md §3 (evaluation_helpers.go); `allowed` is the expected answer.
const resourceCases: { name: string; rule: PolicyRule; attrs: ReturnType<typeof res>; allowed: boolean }[] = [
  { name: 'exact match', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, attrs: res('get', '', 'pods'), allowed: true },
  { name: 'verbs are case-sensitive', rule: { verbs: ['GET'], apiGroups: [''], resources: ['pods'] }, attrs: res('get', '', 'pods'), allowed: false },
  { name: 'empty verbs match nothing', rule: { verbs: [], apiGroups: ['*'], resources: ['*'] }, attrs: res('get', '', 'pods'), allowed: false },
  {
    name: '* verb matches bind',
    rule: { verbs: ['*'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'] },
    attrs: res('bind', 'rbac.authorization.k8s.io', 'clusterroles'),
    allowed: true,
  },
  {
    name: '* verb matches associated-node:update',
    rule: { verbs: ['*'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'] },
    attrs: res('associated-node:update', 'resource.k8s.io', 'resourceclaims', { subresource: 'driver', namespace: 'ns', name: 'gpu.example.com' }),
    allowed: true,
  },
  {
    name: 'associated-node:* is a literal, not a prefix wildcard',
    rule: { verbs: ['associated-node:*'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'] },
    attrs: res('associated-node:update', 'resource.k8s.io', 'resourceclaims', { subresource: 'driver', namespace: 'ns', name: 'd' }),
    allowed: false,
  },
  {
    name: '"" group is only core',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['deployments'] },
    attrs: res('get', 'apps', 'deployments'),
    allowed: false,
  },
  { name: '* group includes core', rule: { verbs: ['get'], apiGroups: ['*'], resources: ['pods'] }, attrs: res('get', '', 'pods'), allowed: true },
  { name: 'empty apiGroups match nothing', rule: { verbs: ['get'], apiGroups: [], resources: ['pods'] }, attrs: res('get', '', 'pods'), allowed: false },
  {
    name: 'pods does not match pods/log',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
    attrs: res('get', '', 'pods', { subresource: 'log' }),
    allowed: false,
  },
  {
    name: 'pods/status does not match pods',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['pods/status'] },
    attrs: res('get', '', 'pods'),
    allowed: false,
  },
  {
    name: '* resource matches any subresource',
    rule: { verbs: ['update'], apiGroups: ['resource.k8s.io'], resources: ['*'] },
    attrs: res('update', 'resource.k8s.io', 'resourceclaims', { subresource: 'binding' }),
    allowed: true,
  },
  {
    name: '*/scale matches deployments/scale',
    rule: { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] },
    attrs: res('update', 'apps', 'deployments', { subresource: 'scale' }),
    allowed: true,
  },
  {
    name: '*/scale never matches a request without subresource',
    rule: { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] },
    attrs: res('update', 'apps', 'scale'),
    allowed: false,
  },
  {
    name: '*/status does not match resourceclaims/driver',
    rule: { verbs: ['*'], apiGroups: ['*'], resources: ['*/status'] },
    attrs: res('update', 'resource.k8s.io', 'resourceclaims', { subresource: 'driver' }),
    allowed: false,
  },
  {
    name: 'pods/* is not a wildcard',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['pods/*'] },
    attrs: res('get', '', 'pods', { subresource: 'log' }),
    allowed: false,
  },
  {
    name: 'pods/* matches the literal subresource *',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['pods/*'] },
    attrs: res('get', '', 'pods', { subresource: '*' }),
    allowed: true,
  },
  {
    name: '*/* is not a wildcard',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['*/*'] },
    attrs: res('get', '', 'pods', { subresource: 'log' }),
    allowed: false,
  },
  {
    name: 'resourceNames restricts to the named object',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] },
    attrs: res('get', '', 'secrets', { namespace: 'ns', name: 'b' }),
    allowed: false,
  },
  {
    name: 'resourceNames allows the named object',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] },
    attrs: res('get', '', 'secrets', { namespace: 'ns', name: 'a' }),
    allowed: true,
  },
  {
    name: 'resourceNames never match create (no name)',
    rule: { verbs: ['create'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
    attrs: res('create', '', 'configmaps', { namespace: 'ns' }),
    allowed: false,
  },
  {
    name: 'resourceNames never match an unfiltered list',
    rule: { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
    attrs: res('list', '', 'configmaps', { namespace: 'ns' }),
    allowed: false,
  },
  {
    name: 'resourceNames match a list filtered by metadata.name',
    rule: { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
    attrs: res('list', '', 'configmaps', { namespace: 'ns', name: 'a' }),
    allowed: true,
  },
  {
    name: 'resourceNames "*" is literal',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['*'] },
    attrs: res('get', '', 'secrets', { namespace: 'ns', name: 'x' }),
    allowed: false,
  },
  {
    name: 'resourceNames "" matches a nameless request',
    rule: { verbs: ['create'], apiGroups: [''], resources: ['configmaps'], resourceNames: [''] },
    attrs: res('create', '', 'configmaps', { namespace: 'ns' }),
    allowed: true,
  },
  {
    name: 'driver name scoping: other driver denied',
    rule: { verbs: ['associated-node:update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'], resourceNames: ['gpu.example.com'] },
    attrs: res('associated-node:update', 'resource.k8s.io', 'resourceclaims', { subresource: 'driver', namespace: 'ns', name: 'gpu.nvidia.com' }),
    allowed: false,
  },
  {
    name: 'an audience resource with "/" is compared whole',
    rule: { verbs: ['request-serviceaccounts-token-audience'], apiGroups: [''], resources: ['api://vault'] },
    attrs: res('request-serviceaccounts-token-audience', '', 'api://vault', { namespace: 'ns', name: 'sa' }),
    allowed: true,
  },
  { name: 'a nonResourceURL-only rule never matches resources', rule: { verbs: ['*'], nonResourceURLs: ['*'] }, attrs: res('get', '', 'pods'), allowed: false },
];

const urlCases: { rule: PolicyRule; verb: string; path: string; allowed: boolean }[] = [
  { rule: { verbs: ['get'], nonResourceURLs: ['/healthz'] }, verb: 'get', path: '/healthz', allowed: true },
  { rule: { verbs: ['get'], nonResourceURLs: ['/healthz*'] }, verb: 'get', path: '/healthzfoo', allowed: true },
  { rule: { verbs: ['get'], nonResourceURLs: ['/apis/*'] }, verb: 'get', path: '/apis/v1', allowed: true },
  { rule: { verbs: ['get'], nonResourceURLs: ['/apis/*'] }, verb: 'get', path: '/apis', allowed: false },
  { rule: { verbs: ['get'], nonResourceURLs: ['/api/*/*'] }, verb: 'get', path: '/api/v1', allowed: false },
  { rule: { verbs: ['get'], nonResourceURLs: ['/*'] }, verb: 'get', path: '/', allowed: true },
  { rule: { verbs: ['get'], nonResourceURLs: ['*'] }, verb: 'get', path: '/metrics', allowed: true },
  { rule: { verbs: ['post'], nonResourceURLs: ['/metrics'] }, verb: 'get', path: '/metrics', allowed: false },
  { rule: { verbs: ['get'], apiGroups: ['*'], resources: ['*'] }, verb: 'get', path: '/healthz', allowed: false },
];

describe('RBAC rule matching', () => {
  it.each(resourceCases)('$name → $allowed', ({ rule, attrs, allowed }) => {
    expect(ruleAllowsResource(rule, attrs)).toBe(allowed);
  });
  it.each(urlCases)('$verb $path with $rule.nonResourceURLs → $allowed', ({ rule, verb, path, allowed }) => {
    expect(ruleAllowsNonResource(rule, { verb, path })).toBe(allowed);
  });
});
