import type { Persona } from '../types';
import { attrs, bindingDangerous, commonDangerous, DRA, READ, request, rule, WRITE_STATUS } from './persona-helpers';

/** A central driver component that writes device status for claims on many nodes (network devices, compute domains). */
export const multiNodeController: Persona = {
  id: 'multi-node-controller',
  title: 'Multi-node controller',
  summary:
    'A central (Deployment) driver component that writes status.devices of its driver’s claims on any node, e.g. for network-attached or multi-node devices.',
  needsDrivers: true,
  serviceAccountOnly: false,
  namespaced: false,
  notes: [
    'Never run this identity in a DaemonSet: arbitrary-node verbs are not tied to a node, so a compromised node could rewrite the device status of claims on every other node (DRA005).',
  ],
  rules: (input) => ({
    cluster: [
      rule(DRA, ['resourceclaims'], READ, 'watch the claims allocated to its driver’s devices'),
      rule(DRA, ['resourceslices'], READ, 'look up the allocated devices in the driver’s pools'),
      rule(DRA, ['resourceclaims/status'], WRITE_STATUS, 'write status.devices (conditions, network data)'),
      rule(
        DRA,
        ['resourceclaims/driver'],
        ['arbitrary-node:update', 'arbitrary-node:patch'],
        'status.devices writes for its own driver, for claims on any node (multi-node allocations have no single associated node)',
        {
          resourceNames: [...input.drivers],
          since: '1.36',
        },
      ),
    ],
    namespaced: [],
  }),
  intended: (ctx) => [
    request('list ResourceClaims in all namespaces', attrs('list', DRA, 'resourceclaims')),
    request(
      `update resourceclaims/status in ${ctx.namespace}`,
      attrs('update', DRA, 'resourceclaims', { subresource: 'status', namespace: ctx.namespace, name: 'any-claim' }),
    ),
    ...ctx.drivers.map((d) =>
      request(
        `arbitrary-node:patch resourceclaims/driver for ${d}`,
        attrs('arbitrary-node:patch', DRA, 'resourceclaims', { subresource: 'driver', namespace: ctx.namespace, name: d }),
      ),
    ),
  ],
  dangerous: (ctx) => [
    request(
      `arbitrary-node:update resourceclaims/driver for another driver (${ctx.otherDriver})`,
      attrs('arbitrary-node:update', DRA, 'resourceclaims', { subresource: 'driver', namespace: ctx.namespace, name: ctx.otherDriver }),
    ),
    ...bindingDangerous(),
    request('create ResourceSlices', attrs('create', DRA, 'resourceslices')),
    request(`update Node ${ctx.node}`, attrs('update', '', 'nodes', { name: ctx.node })),
    ...commonDangerous(ctx),
  ],
};
