import { describe, expect, it } from 'vitest';
import { parseCustomRule, parseCustomRules } from './custom-rules';

describe('custom rules', () => {
  it('parses kubectl-style lines with group, subresource, names and reason', () => {
    expect(parseCustomRule('get,list resourceclaims.resource.k8s.io # read claims', 'x')).toEqual({
      rule: { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'], verbs: ['get', 'list'] },
      reason: 'read claims',
    });
    expect(parseCustomRule('associated-node:update resourceclaims.resource.k8s.io/driver gpu.example.com', 'x').rule).toEqual({
      apiGroups: ['resource.k8s.io'],
      resources: ['resourceclaims/driver'],
      verbs: ['associated-node:update'],
      resourceNames: ['gpu.example.com'],
    });
    expect(parseCustomRule('get nodes', 'x').rule).toEqual({ apiGroups: [''], resources: ['nodes'], verbs: ['get'] });
  });

  it('refuses wildcards and malformed lines, naming the line', () => {
    expect(() => parseCustomRules('get nodes\n* pods')).toThrow('rule line 2: wildcards (*) are not allowed in a least-privilege role');
    expect(() => parseCustomRules('\n\nget')).toThrow(/^rule line 3: expected/);
    expect(() => parseCustomRule('get pods/', 'line 1')).toThrow('line 1: verbs and a resource are required');
  });
});
