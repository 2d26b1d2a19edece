import type { Persona } from '../types';
import { attrs, commonDangerous, DRA, READ, request, rule } from './persona-helpers';

/** Read-only access to what a DRA posture review reads; never Secrets or ConfigMaps. */
export const auditor: Persona = {
  id: 'auditor',
  title: 'Auditor (read-only)',
  summary: 'Reads DRA objects, RBAC, admission policies and the workloads that use devices, cluster-wide; never Secrets or ConfigMaps, never writes.',
  needsDrivers: false,
  serviceAccountOnly: false,
  namespaced: false,
  notes: ['ConfigMaps are left out on purpose (they often hold credentials); dra-posture then notes that it could not read them.'],
  rules: () => ({
    cluster: [
      rule(
        DRA,
        ['deviceclasses', 'resourceclaims', 'resourceclaimtemplates', 'resourceslices', 'devicetaintrules'],
        READ,
        'every DRA object (claim status is part of the claim)',
      ),
      rule('rbac.authorization.k8s.io', ['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings'], READ, 'who can do what: the RBAC graph'),
      rule(
        'admissionregistration.k8s.io',
        ['validatingadmissionpolicies', 'validatingadmissionpolicybindings'],
        READ,
        'the admission policies that guard claims and slices',
      ),
      rule(
        '',
        ['namespaces', 'nodes', 'pods', 'serviceaccounts', 'resourcequotas', 'persistentvolumeclaims', 'persistentvolumes'],
        READ,
        'tenants, nodes, the pods that use devices and DRA quotas',
      ),
      rule('apps', ['daemonsets', 'deployments', 'statefulsets', 'replicasets'], READ, 'the workloads that run drivers and consume devices'),
    ],
    namespaced: [],
  }),
  intended: (ctx) => [
    request('list ResourceSlices', attrs('list', DRA, 'resourceslices')),
    request('list ClusterRoleBindings', attrs('list', 'rbac.authorization.k8s.io', 'clusterrolebindings')),
    request(`get ResourceClaims in ${ctx.namespace}`, attrs('get', DRA, 'resourceclaims', { namespace: ctx.namespace, name: 'any-claim' })),
    request('list Pods in all namespaces', attrs('list', '', 'pods')),
  ],
  dangerous: (ctx) => [
    request('list Secrets in all namespaces', attrs('list', '', 'secrets')),
    request(`get ConfigMaps in ${ctx.namespace}`, attrs('get', '', 'configmaps', { namespace: ctx.namespace, name: 'any' })),
    request(`create ResourceClaims in ${ctx.namespace}`, attrs('create', DRA, 'resourceclaims', { namespace: ctx.namespace })),
    request('update ClusterRoles', attrs('update', 'rbac.authorization.k8s.io', 'clusterroles', { name: 'view' })),
    request(`delete ResourceSlices`, attrs('delete', DRA, 'resourceslices', { name: 'any-slice' })),
    ...commonDangerous(ctx),
  ],
};
