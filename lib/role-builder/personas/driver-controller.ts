import type { Persona } from '../types';
import { attrs, bindingDangerous, commonDangerous, DRA, READ, request, rule } from './persona-helpers';

/** The control-plane Deployment of a driver: publishes pools that are not tied to one node, with leader election. */
export const driverController: Persona = {
  id: 'driver-controller',
  title: 'Driver controller',
  summary:
    'The control-plane Deployment of a driver: publishes ResourceSlices for pools that are not node-local, watches claims and nodes, elects a leader; never writes claim status.',
  needsDrivers: true,
  serviceAccountOnly: false,
  namespaced: true,
  notes: [
    'ResourceSlice writes cannot be limited to one driver by RBAC (slices have generated names): keep the writer in the driver’s own namespace and review what it publishes.',
  ],
  rules: (input) => ({
    cluster: [
      rule(
        DRA,
        ['resourceslices'],
        [...READ, 'create', 'update', 'patch', 'delete'],
        `publish the pools of ${input.drivers.join(', ') || 'its driver'} that span several nodes or the whole cluster`,
      ),
      rule(DRA, ['resourceclaims', 'deviceclasses'], READ, 'see which devices are allocated and which classes select the driver'),
      rule('', ['nodes'], READ, 'compute node selectors of multi-node pools'),
    ],
    namespaced: [
      rule('coordination.k8s.io', ['leases'], ['get', 'create', 'update'], 'leader election between controller replicas, in its own namespace only'),
    ],
  }),
  intended: (ctx) => [
    request('create ResourceSlices', attrs('create', DRA, 'resourceslices')),
    request('list ResourceClaims in all namespaces', attrs('list', DRA, 'resourceclaims')),
    request('list Nodes', attrs('list', '', 'nodes')),
    request(`update Leases in ${ctx.namespace}`, attrs('update', 'coordination.k8s.io', 'leases', { namespace: ctx.namespace, name: 'leader' })),
  ],
  dangerous: (ctx) => [
    request(
      `update resourceclaims/status in ${ctx.namespace}`,
      attrs('update', DRA, 'resourceclaims', { subresource: 'status', namespace: ctx.namespace, name: 'any-claim' }),
    ),
    ...bindingDangerous(),
    request(`update Leases in ${ctx.otherNamespace}`, attrs('update', 'coordination.k8s.io', 'leases', { namespace: ctx.otherNamespace, name: 'leader' })),
    request('create DeviceClasses', attrs('create', DRA, 'deviceclasses')),
    request(`update Node ${ctx.node}`, attrs('update', '', 'nodes', { name: ctx.node })),
    ...commonDangerous(ctx),
  ],
};
