import type { Persona } from '../types';
import { attrs, bindingDangerous, commonDangerous, DRA, READ, request, rule, WRITE_STATUS } from './persona-helpers';

/** A DRA kubelet plugin (DaemonSet): publishes its node's slices and the device status of claims on its node. */
export const nodeLocalDriver: Persona = {
  id: 'node-local-driver',
  title: 'Node-local driver (kubelet plugin)',
  summary: 'The DaemonSet half of a driver: publishes ResourceSlices for its own node and writes status.devices of claims allocated on that node.',
  needsDrivers: true,
  serviceAccountOnly: true,
  namespaced: false,
  notes: [
    'The companion ValidatingAdmissionPolicy needs service-account tokens bound to the plugin pod with node information (ServiceAccountTokenPodNodeInfo): the token then carries authentication.kubernetes.io/node-name, and writes with any other token are refused.',
  ],
  rules: (input) => ({
    cluster: [
      rule(
        DRA,
        ['resourceslices'],
        [...READ, 'create', 'update', 'patch', 'delete'],
        'publish the node’s devices; the companion admission policy pins every write to the plugin’s own node',
      ),
      rule(DRA, ['resourceclaims'], READ, 'read the claims kubelet asks the plugin to prepare'),
      rule(DRA, ['resourceclaims/status'], WRITE_STATUS, 'write status.devices (conditions, network data) of prepared devices'),
      rule(
        DRA,
        ['resourceclaims/driver'],
        ['associated-node:update', 'associated-node:patch'],
        'status.devices writes for its own driver only, and only for claims allocated on the node its token is bound to',
        {
          resourceNames: [...input.drivers],
          since: '1.36',
        },
      ),
      rule('', ['nodes'], ['get'], 'read its own Node (labels, UID) to fill in ResourceSlices'),
    ],
    namespaced: [],
  }),
  intended: (ctx) => [
    request('create ResourceSlices', attrs('create', DRA, 'resourceslices'), ctx.node),
    request('list ResourceClaims in all namespaces', attrs('list', DRA, 'resourceclaims'), ctx.node),
    request(
      `update resourceclaims/status in ${ctx.namespace}`,
      attrs('update', DRA, 'resourceclaims', { subresource: 'status', namespace: ctx.namespace, name: 'any-claim' }),
      ctx.node,
    ),
    ...ctx.drivers.map((d) =>
      request(
        `associated-node:update resourceclaims/driver for ${d}`,
        attrs('associated-node:update', DRA, 'resourceclaims', { subresource: 'driver', namespace: ctx.namespace, name: d }),
        ctx.node,
      ),
    ),
    request(`get Node ${ctx.node}`, attrs('get', '', 'nodes', { name: ctx.node }), ctx.node),
  ],
  dangerous: (ctx) => [
    ...ctx.drivers.map((d) =>
      request(
        `arbitrary-node:update resourceclaims/driver for ${d} (claims on other nodes)`,
        attrs('arbitrary-node:update', DRA, 'resourceclaims', { subresource: 'driver', namespace: ctx.namespace, name: d }),
        ctx.node,
      ),
    ),
    request(
      `associated-node:update resourceclaims/driver for another driver (${ctx.otherDriver})`,
      attrs('associated-node:update', DRA, 'resourceclaims', { subresource: 'driver', namespace: ctx.namespace, name: ctx.otherDriver }),
      ctx.node,
    ),
    ...bindingDangerous(),
    request(`update Node ${ctx.otherNode} (labels, taints)`, attrs('update', '', 'nodes', { name: ctx.otherNode }), ctx.node),
    request(`patch nodes/status of ${ctx.otherNode}`, attrs('patch', '', 'nodes', { subresource: 'status', name: ctx.otherNode }), ctx.node),
    request('create DeviceClasses', attrs('create', DRA, 'deviceclasses'), ctx.node),
    ...commonDangerous(ctx),
  ],
};
