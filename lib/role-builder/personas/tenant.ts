import type { Persona } from '../types';
import { attrs, bindingDangerous, commonDangerous, DRA, READ, request, rule } from './persona-helpers';

const CRUD = [...READ, 'create', 'update', 'patch', 'delete'];

/** A team that runs workloads with devices in its own namespace. */
export const tenant: Persona = {
  id: 'tenant',
  title: 'Tenant',
  summary: 'A team using devices in one namespace: manages its ResourceClaims and ResourceClaimTemplates there, reads DeviceClasses.',
  needsDrivers: false,
  serviceAccountOnly: false,
  namespaced: true,
  notes: [
    'Never grant a tenant update/patch on its own Namespace: it could set resource.kubernetes.io/admin-access and reach devices in use by other tenants (CLAIM003).',
  ],
  rules: () => ({
    cluster: [
      rule(DRA, ['deviceclasses'], READ, 'choose a DeviceClass for requests; DeviceClasses are cluster-scoped, so this read needs a ClusterRoleBinding'),
    ],
    namespaced: [
      rule(DRA, ['resourceclaims'], CRUD, 'manage the namespace’s ResourceClaims (status stays read-only)'),
      rule(DRA, ['resourceclaimtemplates'], CRUD, 'manage templates that generate per-pod claims'),
    ],
  }),
  intended: (ctx) => [
    request(`create ResourceClaims in ${ctx.namespace}`, attrs('create', DRA, 'resourceclaims', { namespace: ctx.namespace })),
    request(`list ResourceClaimTemplates in ${ctx.namespace}`, attrs('list', DRA, 'resourceclaimtemplates', { namespace: ctx.namespace })),
    request('list DeviceClasses', attrs('list', DRA, 'deviceclasses')),
  ],
  dangerous: (ctx) => [
    request(`create ResourceClaims in ${ctx.otherNamespace}`, attrs('create', DRA, 'resourceclaims', { namespace: ctx.otherNamespace })),
    request(
      `update resourceclaims/status in ${ctx.namespace}`,
      attrs('update', DRA, 'resourceclaims', { subresource: 'status', namespace: ctx.namespace, name: 'any-claim' }),
    ),
    ...bindingDangerous(),
    request(
      `patch its own Namespace ${ctx.namespace} (admin-access label)`,
      attrs('patch', '', 'namespaces', { namespace: ctx.namespace, name: ctx.namespace }),
    ),
    request('create DeviceClasses', attrs('create', DRA, 'deviceclasses')),
    request('create ResourceSlices', attrs('create', DRA, 'resourceslices')),
    ...commonDangerous(ctx),
  ],
};
