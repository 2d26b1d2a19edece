import { describe, expect, it } from 'vitest';
import { buildBundle } from '@/lib/role-builder/build-bundle';
import { createActivityAggregator } from './aggregate-activity';
import { observedRole } from './observed-role';
import { parseAuditEvent } from './parse-event';
import { auditEvent, type EventInput } from './__fixtures__/events';

const SA = 'system:serviceaccount:gpu:plugin';
const status = (node: string) => ({
  status: {
    allocation: {
      devices: { results: [] },
      nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] },
    },
    devices: [{ driver: 'gpu.example.com', pool: node, device: 'gpu-0' }],
  },
});

function usageOf(inputs: EventInput[]) {
  const agg = createActivityAggregator();
  for (const e of inputs) {
    const p = parseAuditEvent(auditEvent(e));
    if (p.kind === 'event') agg.add(p.record);
  }
  return agg.finish();
}

describe('observedRole', () => {
  const result = usageOf([
    { verb: 'get', user: SA, node: 'n-1', namespace: 't', name: 'c', time: '2026-11-20T10:00:00Z' },
    {
      verb: 'update',
      user: SA,
      node: 'n-1',
      namespace: 't',
      name: 'c',
      subresource: 'status',
      level: 'Request',
      requestObject: status('n-1'),
      time: '2026-11-20T10:01:00Z',
    },
    {
      verb: 'patch',
      user: SA,
      node: 'n-1',
      group: '',
      resource: 'nodes',
      subresource: 'status',
      name: 'n-1',
      impersonate: 'system:node:n-1',
      time: '2026-11-20T10:02:00Z',
    },
    { verb: 'delete', user: SA, node: 'n-1', namespace: 't', name: 'x', decision: 'forbid', time: '2026-11-20T10:03:00Z' },
  ]);
  const { input, notes } = observedRole(SA, result.usage.get(SA)!.used, result.activity.window);

  it('covers exactly the successful requests: associated-node driver writes pinned to the driver, constrained node impersonation', () => {
    expect(input.customRules!.map((r) => r.rule)).toEqual([
      { apiGroups: [''], resources: ['nodes/status'], verbs: ['impersonate-on:associated-node:patch'] },
      { apiGroups: ['authentication.k8s.io'], resources: ['nodes'], verbs: ['impersonate:associated-node'] },
      { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'], verbs: ['get'] },
      { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'], verbs: ['associated-node:update'], resourceNames: ['gpu.example.com'] },
      { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: ['update'] },
    ]);
    expect(input.identity).toEqual({ kind: 'ServiceAccount', namespace: 'gpu', name: 'plugin', create: false });
    expect(input.namespace).toBe('t');
    expect(notes[0]).toContain('2026-11-20T10:00:00.000Z to 2026-11-20T10:03:00.000Z');
  });

  it('builds into a ClusterRole for cluster-scoped rules and a Role in the one namespace used', () => {
    const bundle = buildBundle(input);
    const kinds = bundle.objects.map((o) => `${o.object.kind}${o.object.metadata.namespace ? `/${o.object.metadata.namespace}` : ''}`);
    expect(kinds).toEqual(['ClusterRole', 'ClusterRoleBinding', 'Role/t', 'RoleBinding/t']);
  });
});
