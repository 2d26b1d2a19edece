import type { Persona } from '../types';
import { attrs, commonDangerous, DRA, READ, request, rule, WRITE_STATUS } from './persona-helpers';

/** A custom allocator (Volcano, KAI, a second scheduler): writes allocations, never device status. */
export const scheduler: Persona = {
  id: 'scheduler',
  title: 'Scheduler / custom allocator',
  summary: 'Allocates devices to ResourceClaims: reads inventory and claims, writes status.allocation and status.reservedFor.',
  needsDrivers: false,
  serviceAccountOnly: false,
  namespaced: false,
  notes: [
    'DRA007 reports every holder of resourceclaims/binding that is not listed in settings.allocatorIdentities: add this identity there. The validation below assumes you did.',
  ],
  rules: () => ({
    cluster: [
      rule(DRA, ['resourceslices', 'deviceclasses'], READ, 'the device inventory and the class selectors an allocation is computed from'),
      rule(
        DRA,
        ['resourceclaims'],
        [...READ, 'update', 'patch'],
        'read pending claims; add the delete-protection finalizer before allocating (as system:kube-scheduler does)',
      ),
      rule(DRA, ['resourceclaims/status'], WRITE_STATUS, 'write status.allocation and status.reservedFor'),
      rule(
        DRA,
        ['resourceclaims/binding'],
        WRITE_STATUS,
        'checked in addition to resourceclaims/status when allocation or reservedFor change; cluster scope only, hence a ClusterRoleBinding',
        { since: '1.36' },
      ),
      rule('', ['pods'], READ, 'find the pods whose claims need an allocation and the nodes they can run on'),
      rule('', ['nodes'], READ, 'evaluate node selectors of ResourceSlices against node labels'),
    ],
    namespaced: [],
  }),
  intended: (ctx) => [
    request('list ResourceSlices', attrs('list', DRA, 'resourceslices')),
    request(`patch ResourceClaims in ${ctx.namespace}`, attrs('patch', DRA, 'resourceclaims', { namespace: ctx.namespace, name: 'any-claim' })),
    request(
      `update resourceclaims/status in ${ctx.namespace}`,
      attrs('update', DRA, 'resourceclaims', { subresource: 'status', namespace: ctx.namespace, name: 'any-claim' }),
    ),
    request('update resourceclaims/binding (cluster scope)', attrs('update', DRA, 'resourceclaims', { subresource: 'binding' })),
  ],
  dangerous: (ctx) => [
    request(
      `write status.devices of ${ctx.drivers[0] ?? ctx.otherDriver} (arbitrary-node)`,
      attrs('arbitrary-node:update', DRA, 'resourceclaims', { subresource: 'driver', namespace: ctx.namespace, name: ctx.drivers[0] ?? ctx.otherDriver }),
    ),
    request('create ResourceSlices (advertise devices)', attrs('create', DRA, 'resourceslices')),
    request('create DeviceClasses', attrs('create', DRA, 'deviceclasses')),
    request(`bind pods to nodes in ${ctx.namespace}`, attrs('create', '', 'pods', { subresource: 'binding', namespace: ctx.namespace, name: 'any-pod' })),
    ...commonDangerous(ctx),
  ],
};
