// Builders of audit.k8s.io/v1 Events as the log backend writes them, for tests and the benchmark.

export interface EventInput {
  verb: string;
  user: string;
  groups?: string[];
  node?: string;
  impersonate?: string;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  code?: number;
  decision?: 'allow' | 'forbid';
  reason?: string;
  time?: string;
  level?: 'Metadata' | 'Request' | 'RequestResponse';
  stage?: string;
  requestObject?: unknown;
  id?: string;
}

export function auditEvent(e: EventInput): Record<string, unknown> {
  const user: Record<string, unknown> = { username: e.user, groups: e.groups ?? ['system:authenticated'] };
  if (e.node) user.extra = { 'authentication.kubernetes.io/node-name': [e.node] };
  const objectRef: Record<string, unknown> = { resource: e.resource ?? 'resourceclaims', apiGroup: e.group ?? 'resource.k8s.io', apiVersion: 'v1' };
  if (e.namespace) objectRef.namespace = e.namespace;
  if (e.name) objectRef.name = e.name;
  if (e.subresource) objectRef.subresource = e.subresource;
  const code = e.code ?? (e.decision === 'forbid' ? 403 : 200);
  const ev: Record<string, unknown> = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: e.level ?? 'Metadata',
    auditID: e.id ?? '00000000-0000-0000-0000-000000000000',
    stage: e.stage ?? 'ResponseComplete',
    requestURI: `/apis/${objectRef.apiGroup}/v1/${e.namespace ? `namespaces/${e.namespace}/` : ''}${objectRef.resource}${e.name ? `/${e.name}` : ''}${e.subresource ? `/${e.subresource}` : ''}`,
    verb: e.verb,
    user,
    sourceIPs: ['10.0.0.1'],
    userAgent: 'test/v0',
    objectRef,
    responseStatus: code >= 400 ? { metadata: {}, status: 'Failure', message: e.reason ?? 'forbidden', reason: 'Forbidden', code } : { metadata: {}, code },
    requestReceivedTimestamp: e.time ?? '2026-11-20T10:00:00.000000Z',
    stageTimestamp: e.time ?? '2026-11-20T10:00:00.001000Z',
    annotations: { 'authorization.k8s.io/decision': e.decision ?? 'allow', 'authorization.k8s.io/reason': e.reason ?? '' },
  };
  if (e.impersonate)
    ev.impersonatedUser = {
      username: e.impersonate,
      groups: e.impersonate.startsWith('system:node:') ? ['system:nodes', 'system:authenticated'] : ['system:authenticated'],
    };
  if (e.requestObject !== undefined) ev.requestObject = e.requestObject;
  return ev;
}

export const jsonLines = (events: readonly Record<string, unknown>[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';
