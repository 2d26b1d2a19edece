import { describe, expect, it } from 'vitest';
import { createActivityAggregator } from './aggregate-activity';
import { auditFindings } from './audit-findings';
import { parseAuditEvent } from './parse-event';
import { auditEvent, type EventInput } from './__fixtures__/events';

const SA = 'system:serviceaccount:gpu:plugin';
const SA_GROUPS = ['system:serviceaccounts', 'system:serviceaccounts:gpu', 'system:authenticated'];

function aggregate(inputs: EventInput[]) {
  const agg = createActivityAggregator();
  agg.startFile('test.log', false);
  inputs.forEach((e, i) => {
    const parsed = parseAuditEvent(auditEvent(e));
    if (parsed.kind === 'event') agg.add(parsed.record);
    else if (parsed.kind === 'skip') agg.skipStage();
    else agg.malformed({ file: 'test.log', line: i + 1, error: parsed.error });
  });
  return agg.finish();
}

describe('parseAuditEvent', () => {
  it('names the field that is wrong', () => {
    expect(parseAuditEvent({ ...auditEvent({ verb: 'get', user: 'a' }), verb: 3 })).toEqual({ kind: 'error', error: 'verb must be a string' });
    expect(parseAuditEvent({ ...auditEvent({ verb: 'get', user: 'a' }), user: { username: 'a', groups: 'x' } })).toEqual({
      kind: 'error',
      error: 'user.groups must be a list of strings',
    });
    expect(parseAuditEvent({ ...auditEvent({ verb: 'get', user: 'a' }), stageTimestamp: 'yesterday' }).kind).toBe('error');
    expect(parseAuditEvent([1])).toEqual({ kind: 'error', error: 'not a JSON object' });
  });

  it('skips earlier stages and reads request bodies of claims', () => {
    expect(parseAuditEvent(auditEvent({ verb: 'get', user: 'a', stage: 'RequestReceived' }))).toEqual({ kind: 'skip' });
    const parsed = parseAuditEvent(
      auditEvent({
        verb: 'create',
        user: 'a',
        namespace: 't',
        name: 'c',
        level: 'Request',
        requestObject: {
          spec: {
            devices: {
              requests: [{ name: 'r', exactly: { deviceClassName: 'gpu', adminAccess: true } }],
              config: [{ opaque: { driver: 'd', parameters: { blob: 'x'.repeat(20000) } } }],
            },
          },
        },
      }),
    );
    expect(parsed.kind === 'event' && parsed.record).toMatchObject({ adminAccess: true, opaqueBytes: 20011 });
  });
});

describe('createActivityAggregator', () => {
  const t = (m: number) => `2026-11-20T10:${String(m).padStart(2, '0')}:00Z`;
  const events: EventInput[] = [
    {
      verb: 'update',
      user: SA,
      groups: SA_GROUPS,
      node: 'n-17',
      namespace: 't',
      name: 'c1',
      subresource: 'driver',
      decision: 'forbid',
      reason: 'no RBAC policy matched',
      time: t(1),
    },
    {
      verb: 'update',
      user: SA,
      groups: SA_GROUPS,
      node: 'n-17',
      namespace: 't',
      name: 'c2',
      subresource: 'driver',
      decision: 'forbid',
      reason: 'no RBAC policy matched',
      time: t(2),
    },
    { verb: 'update', user: SA, groups: SA_GROUPS, node: 'n-17', namespace: 't', name: 'c3', subresource: 'driver', time: t(3) },
    {
      verb: 'patch',
      user: SA,
      groups: SA_GROUPS,
      node: 'n-17',
      group: '',
      resource: 'nodes',
      subresource: 'status',
      name: 'n-9',
      impersonate: 'system:node:n-9',
      time: t(4),
    },
    {
      verb: 'patch',
      user: SA,
      groups: SA_GROUPS,
      node: 'n-17',
      group: '',
      resource: 'nodes',
      subresource: 'status',
      name: 'n-17',
      impersonate: 'system:node:n-17',
      time: t(5),
    },
    { verb: 'update', user: 'alice', resource: 'deviceclasses', name: 'gpu', time: t(6) },
    { verb: 'create', user: 'alice', resource: 'resourceslices', name: 's', time: t(7) },
    { verb: 'get', user: 'alice', resource: 'deviceclasses', name: 'gpu', stage: 'RequestReceived', time: t(7) },
  ];
  const result = aggregate(events);

  it('counts writes per identity, node and category with the denial reason', () => {
    const driverRow = result.activity.writes.find((w) => w.category === 'claim-driver');
    expect(driverRow).toMatchObject({
      identity: SA,
      node: 'n-17',
      verb: 'update',
      allowed: 1,
      denied: 2,
      deniedReason: 'no RBAC policy matched',
      first: '2026-11-20T10:01:00.000Z',
      last: '2026-11-20T10:03:00.000Z',
    });
    expect(result.activity.events).toBe(7);
    expect(result.activity.skippedStages).toBe(1);
    expect(result.activity.window).toEqual({ first: '2026-11-20T10:01:00.000Z', last: '2026-11-20T10:07:00.000Z' });
    expect(result.activity.denied.map((d) => d.name)).toEqual(['c1', 'c2']);
    expect(result.activity.impersonation.map((r) => [r.impersonated, r.relation])).toEqual([
      ['system:node:n-17', 'own-node'],
      ['system:node:n-9', 'other-node'],
    ]);
  });

  it('records what each identity used, impersonation included', () => {
    const used = result.usage.get(SA)!.used;
    expect(used.has(['update', 'resource.k8s.io', 'resourceclaims', 'driver', 't', 'c3'].join('\u001f'))).toBe(true);
    expect(used.has(['update', 'resource.k8s.io', 'resourceclaims', 'driver', 't', 'c1'].join('\u001f'))).toBe(false);
    expect(used.has(['impersonate:associated-node', 'authentication.k8s.io', 'nodes', '', '', 'n-17'].join('\u001f'))).toBe(true);
    expect(result.usage.get('system:node:n-9')!.used.has(['patch', '', 'nodes', 'status', '', 'n-9'].join('\u001f'))).toBe(true);
  });

  it('raises alerts as findings with stable IDs', () => {
    const findings = auditFindings(result.alerts, { isDriver: () => false });
    expect(findings.map((f) => [f.check, f.objects.map((o) => `${o.kind}/${o.name}`).join()])).toEqual([
      ['AUDIT003', 'DeviceClass/gpu'],
      ['AUDIT003', 'ResourceSlice/s'],
      ['AUDIT004', 'Node/n-17'],
      ['AUDIT005', 'Node/n-9'],
    ]);
    const denied = findings.find((f) => f.check === 'AUDIT004')!;
    expect(denied.message).toContain('2 event(s)');
    expect(denied.subjects).toEqual([{ kind: 'ServiceAccount', namespace: 'gpu', name: 'plugin' }]);
    // Another window with the same facts gives the same IDs.
    const again = auditFindings(aggregate([...events].reverse()).alerts, { isDriver: () => false });
    expect(again.map((f) => f.id).sort()).toEqual(findings.map((f) => f.id).sort());
  });
});

describe('claim status writes as the v1.36 server logs them', () => {
  const message =
    'ResourceClaim.resource.k8s.io "c" is invalid: status.devices: Forbidden: changing status.devices requires associated-node:update permission on resourceclaims/driver for driver "gpu.example.com"';
  const status = (node: string) => ({
    status: {
      allocation: {
        devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: node, device: 'gpu-0' }] },
        nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] },
      },
      devices: [{ driver: 'gpu.example.com', pool: node, device: 'gpu-0' }],
    },
  });
  const result = aggregate([
    {
      verb: 'update',
      user: SA,
      groups: SA_GROUPS,
      node: 'n-1',
      namespace: 't',
      name: 'c',
      subresource: 'status',
      code: 422,
      reason: message,
      level: 'Request',
      requestObject: status('n-2'),
    },
    {
      verb: 'update',
      user: SA,
      groups: SA_GROUPS,
      node: 'n-1',
      namespace: 't',
      name: 'd',
      subresource: 'status',
      level: 'Request',
      requestObject: status('n-1'),
    },
    {
      verb: 'update',
      user: 'system:serviceaccount:kube-system:scheduler',
      namespace: 't',
      name: 'e',
      subresource: 'status',
      level: 'Request',
      requestObject: { status: { allocation: {} } },
    },
  ]);

  it('a 422 from the granular check is a denied driver write with its message; bodies tell driver from binding writes', () => {
    expect(result.activity.writes.map((w) => [w.identity.split(':').pop(), w.category, w.allowed, w.denied])).toEqual([
      ['plugin', 'claim-driver', 1, 1],
      ['scheduler', 'claim-binding', 1, 0],
    ]);
    expect(result.activity.writes[0].deniedReason).toBe(message);
    expect(auditFindings(result.alerts).map((f) => f.check)).toEqual(['AUDIT004']);
  });

  it('records the synthetic checks the successful writes passed', () => {
    expect([...result.usage.get(SA)!.used].filter((k) => k.includes('driver'))).toEqual([
      ['associated-node:update', 'resource.k8s.io', 'resourceclaims', 'driver', 't', 'gpu.example.com'].join('\u001f'),
    ]);
    expect(
      result.usage
        .get('system:serviceaccount:kube-system:scheduler')!
        .used.has(['update', 'resource.k8s.io', 'resourceclaims', 'binding', '', ''].join('\u001f')),
    ).toBe(true);
  });
});
