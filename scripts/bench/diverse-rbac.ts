import type { ClusterSize } from './generate-cluster';
import { createRandom } from './prng';

// The diverse-RBAC shape of the large bench cluster (issue #23): tenant RBAC written by many hands
// rather than stamped out by a chart. Thousands of distinct ClusterRoles with varied rules (wildcard
// verbs, several groups, subresources, some resourceNames, some aggregated into view/edit/admin or
// into aggregating roles of their own), thousands of ClusterRoleBindings to groups, users and service
// accounts, and tens of thousands of RoleBindings with varied subjects, service accounts of other
// namespaces included. Where stamped RBAC is a handful of distinct roles, here nearly every role and
// binding differs, which is what makes per-namespace questions expensive.

const RBAC = 'rbac.authorization.k8s.io';

/** Counts of the generated RBAC; with the platform layer and the operators, the cluster (3,222 ClusterRoles, 4,002 ClusterRoleBindings). */
export const DIVERSE_RBAC = {
  clusterRoles: 3_087,
  clusterRoleBindings: 3_852,
  roles: 10_000,
  /** One per tenant namespace, then this many more. */
  extraRoleBindings: 12_000,
  users: 5_000,
  teams: 500,
  /** Aggregating ClusterRoles of the platform's own (label example.com/aggregate-to-<k>). */
  aggregators: 30,
  crdGroups: 200,
};

type Rnd = ReturnType<typeof createRandom>;
type Rule = { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] };
type Write = (obj: Record<string, unknown>) => Promise<void>;

const READ = ['get', 'list', 'watch'];
const WRITE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
const ALL_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const DRIVERS = ['gpu.nvidia.com', 'gpu.intel.com', 'gpu.example.com'];

/** Resources per group; cluster-scoped ones are left out of namespaced Roles. */
const CORE = ['pods', 'pods/log', 'pods/exec', 'pods/status', 'pods/portforward', 'services', 'endpoints', 'configmaps', 'secrets'];
const CORE_MORE = ['serviceaccounts', 'serviceaccounts/token', 'persistentvolumeclaims', 'events', 'limitranges', 'resourcequotas'];
const CORE_CLUSTER = ['namespaces', 'namespaces/status', 'nodes', 'nodes/status', 'persistentvolumes'];
/**
 * A group's resources; a ClusterRole's rule names its cluster-scoped ones (nodes, namespaces,
 * slices...) with the chance `clusterChance`, and any rule its `rare` ones with the chance 0.03.
 * What only DRA drivers and controllers should hold (claim status, slices, classes, binding, driver)
 * is rare, as in a real cluster: a DRA component is an exception, not every tenant's account.
 */
const GROUPS: { group: string; weight: number; resources: string[]; rare?: string[]; clusterResources?: string[]; clusterChance?: number }[] = [
  { group: '', weight: 30, resources: [...CORE, ...CORE_MORE], clusterResources: CORE_CLUSTER, clusterChance: 0.15 },
  { group: 'apps', weight: 14, resources: ['deployments', 'deployments/scale', 'statefulsets', 'daemonsets', 'replicasets'] },
  { group: 'batch', weight: 7, resources: ['jobs', 'cronjobs', 'jobs/status'] },
  {
    group: 'resource.k8s.io',
    weight: 12,
    resources: ['resourceclaims', 'resourceclaimtemplates'],
    rare: ['resourceclaims/status'],
    clusterResources: ['resourceslices', 'deviceclasses', 'resourceclaims/binding', 'resourceclaims/driver'],
    clusterChance: 0.03,
  },
  { group: 'networking.k8s.io', weight: 5, resources: ['networkpolicies', 'ingresses'] },
  { group: 'coordination.k8s.io', weight: 3, resources: ['leases'] },
  { group: RBAC, weight: 2, resources: ['roles', 'rolebindings'], clusterResources: ['clusterroles', 'clusterrolebindings'], clusterChance: 0.15 },
  { group: 'crd', weight: 25, resources: ['widgets', 'widgets/status', 'gadgets', 'gizmos', 'gizmos/scale'] },
];
const TOTAL_WEIGHT = GROUPS.reduce((n, g) => n + g.weight, 0);

const crdGroup = (rnd: Rnd) => `team-${rnd.int(DIVERSE_RBAC.crdGroups)}.example.com`;

function pickSome<T>(rnd: Rnd, list: readonly T[], max: number): T[] {
  const n = 1 + rnd.int(Math.min(max, list.length));
  const out: T[] = [];
  for (let tries = 0; out.length < n && tries < 4 * n; tries++) {
    const x = rnd.pick(list);
    if (!out.includes(x)) out.push(x);
  }
  return out;
}

function verbsFor(rnd: Rnd, group: string): string[] {
  const r = rnd.next();
  if (r < 0.45) return READ;
  if (r < 0.7) return WRITE;
  if (r < 0.8) return ['*'];
  if (r < 0.97) return pickSome(rnd, ALL_VERBS, 4);
  return group === RBAC ? ['bind', 'escalate'] : ['*'];
}

/** One rule: a group (sometimes `*`), a few of its resources (sometimes `*`), verbs, now and then resourceNames. */
function randomRule(rnd: Rnd, namespaced: boolean, names: DiverseNames, namespaces: number): Rule {
  let w = rnd.int(TOTAL_WEIGHT);
  let g = GROUPS[0];
  for (const x of GROUPS) {
    if (w < x.weight) {
      g = x;
      break;
    }
    w -= x.weight;
  }
  const pool = !namespaced && g.clusterResources && rnd.chance(g.clusterChance ?? 0) ? g.clusterResources : g.rare && rnd.chance(0.03) ? g.rare : g.resources;
  let group = g.group === 'crd' ? crdGroup(rnd) : g.group;
  let resources = pickSome(rnd, pool, 4);
  const odd = rnd.next();
  if (odd < 0.015) group = '*';
  else if (odd < 0.03) resources = ['*'];
  else if (odd < 0.035) resources = ['*/status'];
  const rule: Rule = { apiGroups: [group], resources, verbs: verbsFor(rnd, g.group) };
  if (rnd.chance(0.1) && !resources.includes('*')) {
    const r0 = resources[0];
    rule.resourceNames = r0.startsWith('namespaces')
      ? pickSome(
          rnd,
          Array.from({ length: 5 }, () => names.ns(rnd.int(namespaces))),
          3,
        )
      : r0 === 'resourceclaims/driver'
        ? [rnd.pick(DRIVERS)]
        : pickSome(rnd, ['app-config', 'tls', 'main', 'worker', 'gpu', `obj-${rnd.int(1000)}`], 3);
  }
  return rule;
}

/** A handful of rules; one role in ~300 also has everything on everything. */
function randomRules(rnd: Rnd, names: DiverseNames, namespaces: number, namespace?: string): Rule[] {
  const rules = Array.from({ length: 1 + rnd.int(6) }, () => randomRule(rnd, namespace !== undefined, names, namespaces));
  // A Role that lets its namespace's team relabel the namespace itself (CLAIM003).
  if (namespace && rnd.chance(0.02)) rules.push({ apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'patch'], resourceNames: [namespace] });
  if (rnd.chance(1 / 300)) rules.push({ apiGroups: ['*'], resources: ['*'], verbs: ['*'] });
  return rules;
}

const group = (name: string) => ({ kind: 'Group', apiGroup: RBAC, name });
const user = (name: string) => ({ kind: 'User', apiGroup: RBAC, name });
const sa = (name: string, namespace: string) => ({ kind: 'ServiceAccount', name, namespace });

export interface DiverseNames {
  ns: (i: number) => string;
  saName: (i: number) => string;
}

/**
 * A tenant identity: a service account (of namespace i, or another), a team group, a user, now and
 * then all service accounts of a namespace. Never everyone (system:authenticated): a few such
 * bindings would hand every identity of the cluster a random role.
 */
function randomSubject(rnd: Rnd, size: ClusterSize, names: DiverseNames, home?: number): Record<string, string> {
  const r = rnd.next();
  const anyNs = () => rnd.int(size.namespaces);
  const saOf = (i: number) => sa(names.saName(i + size.namespaces * rnd.int(2)), names.ns(i));
  if (home !== undefined && r < 0.3) return saOf(home);
  if (r < 0.45) return saOf(anyNs());
  if (r < 0.7) return user(`user-${rnd.int(DIVERSE_RBAC.users)}`);
  if (r < 0.94) return group(`team-${rnd.int(DIVERSE_RBAC.teams)}-${rnd.pick(['devs', 'ops', 'ml'])}`);
  if (r < 0.97) return group(`system:serviceaccounts:${names.ns(home !== undefined && rnd.chance(0.5) ? home : anyNs())}`);
  // A service account written as a User subject by its username.
  const i = anyNs();
  return user(`system:serviceaccount:${names.ns(i)}:${names.saName(i)}`);
}

const subjects = (rnd: Rnd, size: ClusterSize, names: DiverseNames, home?: number) =>
  Array.from({ length: 1 + rnd.int(4) }, () => randomSubject(rnd, size, names, home));

const binding = (kind: string, name: string, namespace: string | undefined, roleRef: [string, string], subs: object[]) => ({
  apiVersion: `${RBAC}/v1`,
  kind,
  metadata: { name, ...(namespace ? { namespace } : {}) },
  roleRef: { apiGroup: RBAC, kind: roleRef[0], name: roleRef[1] },
  subjects: subs,
});

/**
 * Writes the diverse tenant RBAC with its own PRNG stream (seed + 1), so the rest of the cluster is
 * the same as the stamped shape's. ClusterRoles `gen-cr-<k>`, ClusterRoleBindings `gen-crb-<k>`,
 * Roles `gen-role-<k>`, RoleBindings `gen-rb-<k>` (and `tenant-<i>` for each namespace's own).
 */
export async function writeDiverseRbac(write: Write, size: ClusterSize, names: DiverseNames, seed: number): Promise<void> {
  const rnd = createRandom(seed + 1);
  const D = DIVERSE_RBAC;
  const crName = (k: number) => `gen-cr-${k}`;

  for (let m = 0; m < D.aggregators; m++) {
    await write({
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: `gen-aggregate-${m}` },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`example.com/aggregate-to-${m}`]: 'true' } }] },
      rules: [],
    });
  }
  for (let k = 0; k < D.clusterRoles - D.aggregators; k++) {
    const labels: Record<string, string> = { 'app.kubernetes.io/managed-by': rnd.pick(['helm', 'kustomize', 'hand']) };
    let rules: Rule[];
    const a = rnd.next();
    if (a < 0.1) {
      // A CRD's roles, aggregated into the built-in view/edit/admin as operators ship them.
      const level = rnd.pick(['view', 'edit', 'admin']);
      labels[`${RBAC}/aggregate-to-${level}`] = 'true';
      rules = [
        { apiGroups: [crdGroup(rnd)], resources: pickSome(rnd, ['widgets', 'gadgets', 'gizmos', 'widgets/status'], 3), verbs: level === 'view' ? READ : WRITE },
      ];
    } else {
      if (a < 0.15) labels[`example.com/aggregate-to-${rnd.int(D.aggregators)}`] = 'true';
      rules = randomRules(rnd, names, size.namespaces);
    }
    await write({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: crName(k), labels }, rules });
  }
  // A few roles are bound far more often than the rest (a platform's favourites).
  const someClusterRole = () => {
    const r = rnd.next();
    if (r < 0.03) return rnd.pick(['view', 'view', 'edit']);
    if (r < 0.06) return `gen-aggregate-${rnd.int(D.aggregators)}`;
    if (r < 0.3) return crName(rnd.int(100));
    return crName(rnd.int(D.clusterRoles - D.aggregators));
  };

  for (let k = 0; k < D.clusterRoleBindings; k++) {
    const subs = rnd.chance(0.01) ? [] : subjects(rnd, size, names);
    await write(binding('ClusterRoleBinding', `gen-crb-${k}`, undefined, ['ClusterRole', someClusterRole()], subs));
  }

  // Roles in random tenant namespaces; each is bound below in its namespace.
  const roleNs = new Int32Array(D.roles);
  for (let k = 0; k < D.roles; k++) {
    const i = rnd.int(size.namespaces);
    roleNs[k] = i;
    await write({
      apiVersion: `${RBAC}/v1`,
      kind: 'Role',
      metadata: { name: `gen-role-${k}`, namespace: names.ns(i) },
      rules: randomRules(rnd, names, size.namespaces, names.ns(i)),
    });
  }

  // Each tenant namespace: its own binding, to the claim-user role, edit, view or a generated ClusterRole.
  for (let i = 0; i < size.namespaces; i++) {
    const r = rnd.next();
    const role = r < 0.4 ? 'tenant-claim-user' : r < 0.55 ? 'edit' : r < 0.65 ? 'view' : someClusterRole();
    await write(binding('RoleBinding', `tenant-${i}`, names.ns(i), ['ClusterRole', role], subjects(rnd, size, names, i)));
  }
  // Then every Role bound where it lives (one in a hundred refers to a Role that is not there), and more ClusterRole grants.
  for (let k = 0; k < D.extraRoleBindings; k++) {
    if (k < D.roles) {
      const i = roleNs[k];
      const role = rnd.chance(0.01) ? `gen-role-missing-${k}` : `gen-role-${k}`;
      await write(binding('RoleBinding', `gen-rb-${k}`, names.ns(i), ['Role', role], subjects(rnd, size, names, i)));
    } else {
      const i = rnd.int(size.namespaces);
      await write(binding('RoleBinding', `gen-rb-${k}`, names.ns(i), ['ClusterRole', someClusterRole()], subjects(rnd, size, names, i)));
    }
  }
}
