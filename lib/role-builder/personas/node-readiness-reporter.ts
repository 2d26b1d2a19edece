import type { Persona } from '../types';
import { attrs, commonDangerous, request, rule } from './persona-helpers';

const NODE = (name: string) => `system:node:${name}`;

/** A node-local reporter (node-readiness-controller) that sets one condition on its own Node through constrained impersonation. */
export const nodeReadinessReporter: Persona = {
  id: 'node-readiness-reporter',
  title: 'Node readiness reporter',
  summary:
    'A DaemonSet that reports a driver-readiness condition on its own Node only, by impersonating that node (constrained impersonation, associated-node).',
  needsDrivers: false,
  serviceAccountOnly: true,
  namespaced: false,
  notes: [
    'The reporter must send Impersonate-User: system:node:<its node> (IMPERSONATE_NODE=true) with a token bound to its pod; the apiserver then allows the pair only for the node named in the token.',
  ],
  rules: () => ({
    cluster: [
      rule(
        'authentication.k8s.io',
        ['nodes'],
        ['impersonate:associated-node'],
        'impersonate the node its token is bound to, and no other (checked with name "*", so it cannot be narrowed further)',
        { since: '1.36' },
      ),
      rule('', ['nodes'], ['impersonate-on:associated-node:get'], 'read its Node while impersonating it', { since: '1.36' }),
      rule('', ['nodes/status'], ['impersonate-on:associated-node:update'], 'update the readiness condition on its Node while impersonating it', {
        since: '1.36',
      }),
    ],
    namespaced: [],
  }),
  intended: (ctx) => [
    {
      kind: 'impersonate',
      label: `update nodes/status of its own node ${ctx.node}, impersonating it`,
      nodeName: ctx.node,
      impersonateUser: NODE(ctx.node),
      resource: attrs('update', '', 'nodes', { subresource: 'status', name: ctx.node }),
    },
    {
      kind: 'impersonate',
      label: `get Node ${ctx.node}, impersonating it`,
      nodeName: ctx.node,
      impersonateUser: NODE(ctx.node),
      resource: attrs('get', '', 'nodes', { name: ctx.node }),
    },
  ],
  dangerous: (ctx) => [
    {
      kind: 'impersonate',
      label: `update nodes/status of another node (${ctx.otherNode}), impersonating it`,
      nodeName: ctx.node,
      impersonateUser: NODE(ctx.otherNode),
      resource: attrs('update', '', 'nodes', { subresource: 'status', name: ctx.otherNode }),
    },
    {
      kind: 'impersonate',
      label: `update Node ${ctx.node} (labels, taints), impersonating it`,
      nodeName: ctx.node,
      impersonateUser: NODE(ctx.node),
      resource: attrs('update', '', 'nodes', { name: ctx.node }),
    },
    request(`patch nodes/status of ${ctx.node} without impersonation`, attrs('patch', '', 'nodes', { subresource: 'status', name: ctx.node }), ctx.node),
    request(
      `update nodes/status of ${ctx.otherNode} without impersonation`,
      attrs('update', '', 'nodes', { subresource: 'status', name: ctx.otherNode }),
      ctx.node,
    ),
    ...commonDangerous(ctx),
  ],
};
