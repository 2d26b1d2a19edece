// Seeded random RBAC objects and SubjectAccessReviews for the differential test: wildcards,
// subresources, resourceNames, aggregation, all subject kinds, RoleBinding → ClusterRole.
import { createRandom } from '../../scripts/bench/prng';

type Rnd = ReturnType<typeof createRandom>;

export const DIFF_NAMESPACES = ['diff-a', 'diff-b', 'diff-c'];
const GROUPS = ['', 'apps', 'resource.k8s.io', 'rbac.authorization.k8s.io', 'authentication.k8s.io', '*'];
const RESOURCES = [
  'pods',
  'pods/log',
  'pods/status',
  'nodes',
  'nodes/status',
  'secrets',
  'configmaps',
  'deployments',
  'deployments/scale',
  'resourceclaims',
  'resourceclaims/status',
  'resourceclaims/binding',
  'resourceclaims/driver',
  'resourceslices',
  'deviceclasses',
  'clusterroles',
  'users',
  'groups',
  'serviceaccounts',
  'serviceaccounts/token',
  '*',
  '*/status',
  '*/scale',
  'pods/*',
  '*/driver',
];
const VERBS = [
  'get',
  'list',
  'watch',
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
  'impersonate',
  'bind',
  'escalate',
  'associated-node:update',
  'arbitrary-node:patch',
  'associated-node:*',
  'impersonate:associated-node',
  'impersonate-on:user-info:get',
  'GET',
  '*',
];
const NAMES = ['a', 'b', 'gpu.example.com', 'gpu.nvidia.com', '*', 'n1'];
const URLS = ['/healthz', '/healthz*', '/apis/*', '/metrics', '*', '/api/*/*', '/version'];
export const DIFF_USERS = ['u0', 'u1', 'u2', 'u3', 'u4', 'u5', '*'];
export const DIFF_GROUPS = ['g0', 'g1', 'g2', 'g3'];
const SAS = ['sa0', 'sa1', 'sa2'];

const some = <T>(rnd: Rnd, list: readonly T[], max: number): T[] => {
  const n = 1 + rnd.int(max);
  const out = new Set<T>();
  while (out.size < n) out.add(rnd.pick(list));
  return [...out];
};

function resourceRule(rnd: Rnd) {
  const rule: Record<string, unknown> = { apiGroups: some(rnd, GROUPS, 2), resources: some(rnd, RESOURCES, 3), verbs: some(rnd, VERBS, 3) };
  if (rnd.chance(0.25)) rule.resourceNames = some(rnd, NAMES, 2);
  return rule;
}

function subject(rnd: Rnd, bindingNamespace?: string) {
  const k = rnd.int(10);
  if (k < 3) return { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: rnd.pick(DIFF_USERS) };
  if (k < 5) return { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: rnd.chance(0.15) ? 'system:authenticated' : rnd.pick(DIFF_GROUPS) };
  const sa: Record<string, string> = { kind: 'ServiceAccount', name: rnd.pick(SAS) };
  // Inside a RoleBinding the namespace may be left out (it defaults to the binding's).
  if (!bindingNamespace || rnd.chance(0.6)) sa.namespace = rnd.pick(DIFF_NAMESPACES);
  return sa;
}

const meta = (name: string, namespace?: string, labels?: Record<string, string>) => ({
  name,
  ...(namespace ? { namespace } : {}),
  ...(labels ? { labels } : {}),
});

export function randomRbacObjects(seed: number, count: number) {
  const rnd = createRandom(seed);
  const objects: Record<string, unknown>[] = [];
  const clusterRoles: string[] = [];
  const roles: [string, string][] = [];
  const nClusterRoles = Math.round(count * 0.3);
  const nRoles = Math.round(count * 0.2);
  for (let i = 0; i < nClusterRoles; i++) {
    const name = `diff-cr-${i}`;
    clusterRoles.push(name);
    const labels: Record<string, string> = {};
    if (rnd.chance(0.4)) labels[`diff.example.com/agg-${rnd.int(4)}`] = 'true';
    if (rnd.chance(0.2)) labels['diff.example.com/tier'] = rnd.pick(['gold', 'silver']);
    const cr: Record<string, unknown> = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: meta(name, undefined, labels) };
    if (i % 12 === 5) {
      const selectors = [
        { matchLabels: { [`diff.example.com/agg-${rnd.int(4)}`]: 'true' } },
        {
          matchExpressions: [{ key: 'diff.example.com/tier', operator: rnd.pick(['In', 'NotIn', 'Exists']), ...(rnd.chance(0.5) ? {} : { values: ['gold'] }) }],
        },
      ];
      const chosen = selectors.slice(0, 1 + rnd.int(2)).map((s) => {
        const expr = (s as { matchExpressions?: { operator: string; values?: string[] }[] }).matchExpressions?.[0];
        if (expr && expr.operator !== 'Exists' && !expr.values) expr.values = ['gold'];
        if (expr && expr.operator === 'Exists') delete expr.values;
        return s;
      });
      cr.aggregationRule = { clusterRoleSelectors: chosen };
      cr.rules = rnd.chance(0.5) ? [resourceRule(rnd)] : [];
    } else {
      const rules = Array.from({ length: 1 + rnd.int(3) }, () => resourceRule(rnd));
      if (rnd.chance(0.2)) rules.push({ nonResourceURLs: some(rnd, URLS, 2), verbs: some(rnd, ['get', 'post', '*'], 2) });
      cr.rules = rules;
    }
    objects.push(cr);
  }
  for (let i = 0; i < nRoles; i++) {
    const ns = rnd.pick(DIFF_NAMESPACES);
    roles.push([ns, `diff-role-${i}`]);
    objects.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: meta(`diff-role-${i}`, ns),
      rules: Array.from({ length: 1 + rnd.int(3) }, () => resourceRule(rnd)),
    });
  }
  const nBindings = count - nClusterRoles - nRoles;
  for (let i = 0; i < nBindings; i++) {
    if (rnd.chance(0.35)) {
      objects.push({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: meta(`diff-crb-${i}`),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: rnd.chance(0.05) ? 'diff-missing' : rnd.pick(clusterRoles) },
        subjects: Array.from({ length: 1 + rnd.int(2) }, () => subject(rnd)),
      });
    } else {
      const ns = rnd.pick(DIFF_NAMESPACES);
      const toRole = rnd.chance(0.4);
      const sameNsRoles = roles.filter(([rns]) => rns === ns);
      const roleName = toRole
        ? sameNsRoles.length && rnd.chance(0.8)
          ? rnd.pick(sameNsRoles)[1]
          : rnd.pick(roles)[1]
        : rnd.chance(0.05)
          ? 'diff-missing'
          : rnd.pick(clusterRoles);
      objects.push({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: meta(`diff-rb-${i}`, ns),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: toRole ? 'Role' : 'ClusterRole', name: roleName },
        subjects: Array.from({ length: 1 + rnd.int(2) }, () => subject(rnd, ns)),
      });
    }
  }
  return objects;
}

export interface SarUniverse {
  namespaces: string[];
  names: string[];
  nodes: string[];
  serviceAccounts: string[];
}

export function randomSubjectAccessReviews(seed: number, count: number, u: SarUniverse) {
  const rnd = createRandom(seed);
  const reviews: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const spec: Record<string, unknown> = {};
    const k = rnd.int(10);
    let groups: string[] = [];
    if (k < 3) spec.user = rnd.pick(DIFF_USERS.filter((x) => x !== '*').concat('*', 'system:masters'));
    else if (k < 6) {
      const [ns, name] = rnd.pick(u.serviceAccounts).split('/');
      spec.user = `system:serviceaccount:${ns}:${name}`;
      if (rnd.chance(0.7)) groups = ['system:serviceaccounts', `system:serviceaccounts:${ns}`];
    } else if (k < 8) {
      spec.user = `system:node:${rnd.pick(u.nodes)}`;
      if (rnd.chance(0.85)) groups = ['system:nodes'];
    } else spec.user = `other-${rnd.int(3)}`;
    if (rnd.chance(0.5)) groups.push(...some(rnd, DIFF_GROUPS, 2));
    if (rnd.chance(0.6)) groups.push('system:authenticated');
    if (rnd.chance(0.02)) groups.push('system:masters');
    if (groups.length) spec.groups = [...new Set(groups)];
    if (rnd.chance(0.12)) {
      spec.nonResourceAttributes = {
        verb: rnd.pick(['get', 'post', 'GET']),
        path: rnd.pick(['/healthz', '/healthzfoo', '/apis', '/apis/v1', '/api/v1', '/metrics', '/', '/version', '/api']),
      };
    } else {
      const combined = rnd.pick(
        RESOURCES.filter((r) => !r.startsWith('*') && !r.endsWith('/*')).concat('leases', 'events', 'services', 'persistentvolumeclaims'),
      );
      const [resource, subresource] = combined.split('/');
      const group = rnd.chance(0.8) ? groupOf(resource) : rnd.pick(GROUPS.filter((g) => g !== '*'));
      const verb = rnd.pick(
        VERBS.filter((v) => v !== '*' && v !== 'associated-node:*').concat('associated-node:patch', 'arbitrary-node:update', 'impersonate:arbitrary-node'),
      );
      const ra: Record<string, unknown> = {
        verb,
        group,
        resource,
        namespace: rnd.chance(0.3) ? '' : rnd.pick(u.namespaces),
        name: rnd.chance(0.3) ? '' : rnd.pick(u.names),
      };
      if (subresource) ra.subresource = subresource;
      if (resource === 'leases') ra.group = 'coordination.k8s.io';
      if ((resource === 'pods' || resource === 'resourceslices') && (verb === 'list' || verb === 'watch') && rnd.chance(0.5)) {
        ra.fieldSelector = { rawSelector: `spec.nodeName=${rnd.pick(u.nodes)}` };
      }
      spec.resourceAttributes = ra;
    }
    reviews.push({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec });
  }
  return reviews;
}

function groupOf(resource: string): string {
  if (resource.startsWith('resource')) return 'resource.k8s.io';
  if (resource === 'deviceclasses') return 'resource.k8s.io';
  if (resource === 'deployments') return 'apps';
  if (resource === 'clusterroles') return 'rbac.authorization.k8s.io';
  if (resource === 'users' || resource === 'groups') return 'authentication.k8s.io';
  return '';
}
