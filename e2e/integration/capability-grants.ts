// Seeded random RBAC for the capability differential test (issue #23): who may write nodes/status
// (plain grants with and without resourceNames, legacy impersonation of users, groups and service
// accounts, constrained impersonation in every mode with its impersonate-on action grants) and the
// status.devices of claims (resourceclaims/status with resourceclaims/driver associated-node and
// arbitrary-node verbs, with and without resourceNames), bound to service accounts, users and groups
// by ClusterRoleBindings and RoleBindings. A few fixed grants make sure every path occurs; the rest
// is random, each grant sometimes missing its identity or action half.
import { createRandom } from '../../scripts/bench/prng';

type Rnd = ReturnType<typeof createRandom>;
type Rule = { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] };
export type Subject = { kind: 'User' | 'Group'; name: string } | { kind: 'ServiceAccount'; name: string; namespace: string };

const RBAC = 'rbac.authorization.k8s.io';
const AUTHN = 'authentication.k8s.io';
const DRA = 'resource.k8s.io';

export const CAP_NODES = ['node-a', 'node-b', 'node-c'];
export const CAP_NAMESPACES = ['cd-x', 'cd-y', 'cd-z'];
export const CAP_SERVICE_ACCOUNTS = ['s0', 's1', 's2'];
/** The fixed grants' accounts, in a namespace of their own (see anchorGrants). */
export const ANCHOR_NAMESPACE = 'cd-anchor';
export const ANCHOR_SERVICE_ACCOUNTS = ['agent', 'arbiter', 'legacy', 'named', 'infoer', 'hopper', 'plugin', 'controller'];
export const CAP_DRIVERS = ['gpu.example.com', 'nic.example.com'];
/** Users with no token: they exist only as binding subjects and impersonation targets. */
export const GHOST_USER = 'ghost-writer';
/** A group nobody authenticates into. */
export const GHOST_GROUP = 'ghosts';

/** Claim names per node: c-<node>-0 and c-<node>-1. */
export const claimNames = (node: string) => [`c-${node}-0`, `c-${node}-1`];

const sa = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', namespace, name });
const user = (name: string): Subject => ({ kind: 'User', name });
const group = (name: string): Subject => ({ kind: 'Group', name });

/** Every service account of the test namespaces. */
const ALL_SAS = CAP_NAMESPACES.flatMap((ns) => CAP_SERVICE_ACCOUNTS.map((n) => sa(ns, n)));
/**
 * Subjects some requester authenticates as (or into): impersonation grants go only to these. Groups
 * only where the cluster's objects tell their members (a service-account group): the model cannot
 * know who is in a group of the token file (viewer is in dra-posture:viewers), so a write that needs
 * a user's grant and that group's together is beyond it.
 */
const REQUESTERS: Subject[] = [...ALL_SAS, user('viewer'), user('ns-viewer'), group('system:serviceaccounts:cd-y')];
/** Any subject, including those nobody authenticates as (writer grants only). */
const ANYONE: Subject[] = [...REQUESTERS, user(GHOST_USER), group(GHOST_GROUP)];

interface Grant {
  name: string;
  rules: Rule[];
  subject: Subject;
  /** A RoleBinding in this namespace; a ClusterRoleBinding when absent. */
  namespace?: string;
}

const verbsOf = (rnd: Rnd): string[] => rnd.pick([['update'], ['patch'], ['update', 'patch']]);
const named = (names: string[] | undefined): Partial<Rule> => (names ? { resourceNames: names } : {});

const nodeStatus = (verbs: string[], names?: string[]): Rule => ({ apiGroups: [''], resources: ['nodes/status'], verbs, ...named(names) });
const legacy = (resource: string, names?: string[]): Rule => ({ apiGroups: [''], resources: [resource], verbs: ['impersonate'], ...named(names) });
const identity = (mode: string, resources: string[], names?: string[]): Rule => ({
  apiGroups: [AUTHN],
  resources,
  verbs: [`impersonate:${mode}`],
  ...named(names),
});
const action = (mode: string, verbs: string[], names?: string[]): Rule =>
  nodeStatus(
    verbs.map((v) => `impersonate-on:${mode}:${v}`),
    names,
  );
const claimStatus = (verbs: string[], names?: string[]): Rule => ({ apiGroups: [DRA], resources: ['resourceclaims/status'], verbs, ...named(names) });
const claimDriver = (kind: 'associated-node' | 'arbitrary-node', verbs: string[], drivers?: string[]): Rule => ({
  apiGroups: [DRA],
  resources: ['resourceclaims/driver'],
  verbs: verbs.map((v) => `${kind}:${v}`),
  ...named(drivers),
});

/**
 * Fixed grants: one sure path per mode, so the minimum counts hold for any seed. They go to accounts
 * of their own namespace that random grants never name (a random grant could otherwise give an
 * anchor a broader path that hides the one it stands for: an arbitrary-node writer is not listed
 * again as associated-node).
 */
function anchorGrants(): Grant[] {
  const a = (name: string) => sa(ANCHOR_NAMESPACE, name);
  return [
    // Node agent: associated-node impersonation (own node with NodeRestriction; every node without).
    { name: 'anchor-associated', subject: a('agent'), rules: [identity('associated-node', ['nodes']), action('associated-node', ['patch'])] },
    // arbitrary-node for node-b only (identity named), any action.
    {
      name: 'anchor-arbitrary',
      subject: a('arbiter'),
      rules: [identity('arbitrary-node', ['nodes'], ['node-b']), action('arbitrary-node', ['update', 'patch'])],
    },
    // Legacy impersonation of node-c's kubelet identity.
    { name: 'anchor-legacy-node', subject: a('legacy'), rules: [legacy('users', ['system:node:node-c']), legacy('groups', ['system:nodes'])] },
    // Plain grants: one named node, and a tokenless user writing every node.
    { name: 'anchor-plain-named', subject: a('named'), rules: [nodeStatus(['patch'], ['node-a'])] },
    { name: 'anchor-plain-ghost', subject: user(GHOST_USER), rules: [nodeStatus(['update', 'patch'])] },
    // user-info impersonation of that user; serviceaccount impersonation of the named writer.
    { name: 'anchor-user-info', subject: a('infoer'), rules: [identity('user-info', ['users'], [GHOST_USER]), action('user-info', ['patch'])] },
    {
      name: 'anchor-serviceaccount',
      subject: a('hopper'),
      rules: [identity('serviceaccount', ['serviceaccounts'], ['named']), action('serviceaccount', ['patch'])],
    },
    // Device status: a node-local plugin (associated-node, one driver) and a controller (arbitrary-node, one namespace).
    {
      name: 'anchor-claim-associated',
      subject: a('plugin'),
      rules: [claimStatus(['update', 'patch']), claimDriver('associated-node', ['update', 'patch'], [CAP_DRIVERS[0]])],
    },
    {
      name: 'anchor-claim-arbitrary',
      subject: a('controller'),
      rules: [claimStatus(['patch']), claimDriver('arbitrary-node', ['patch'], [CAP_DRIVERS[1]])],
      namespace: 'cd-y',
    },
    // resourceclaims/status alone: a writer only where granular status authorization is off.
    { name: 'anchor-claim-status-only', subject: group('system:serviceaccounts:cd-z'), rules: [claimStatus(['update'])] },
  ];
}

function randomGrant(rnd: Rnd, i: number): Grant {
  const maybe = <T>(p: number, f: () => T): T | undefined => (rnd.chance(p) ? f() : undefined);
  const someNodes = () => [rnd.pick(CAP_NODES)];
  const kind = rnd.int(9);
  let rules: Rule[];
  let pool = REQUESTERS;
  if (kind === 0) {
    rules = [nodeStatus(verbsOf(rnd), maybe(0.5, someNodes))];
    pool = ANYONE;
  } else if (kind === 1) {
    rules = [
      legacy(
        'users',
        maybe(0.7, () => [rnd.pick([GHOST_USER, 'system:node:node-b', 'system:node:node-a', 'viewer'])]),
      ),
    ];
    if (rnd.chance(0.6))
      rules.push(
        legacy(
          'groups',
          maybe(0.7, () => [rnd.pick(['system:nodes', GHOST_GROUP, 'system:masters'])]),
        ),
      );
  } else if (kind === 2) {
    rules = [
      legacy(
        'serviceaccounts',
        maybe(0.7, () => [rnd.pick(CAP_SERVICE_ACCOUNTS)]),
      ),
    ];
  } else if (kind <= 6) {
    const mode = rnd.pick(['arbitrary-node', 'associated-node', 'serviceaccount', 'user-info']);
    const resources =
      mode === 'serviceaccount' ? ['serviceaccounts'] : mode === 'user-info' ? rnd.pick([['users'], ['groups'], ['users', 'groups']]) : ['nodes'];
    const names =
      mode === 'serviceaccount'
        ? [rnd.pick(CAP_SERVICE_ACCOUNTS)]
        : mode === 'user-info'
          ? [rnd.pick([GHOST_USER, GHOST_GROUP, 'dra-posture:viewers'])]
          : someNodes();
    rules = [];
    // Now and then only one half of the pair: the identity grant or the action grant.
    const half = rnd.int(8);
    if (half !== 0) rules.push(identity(mode, resources, mode === 'serviceaccount' || rnd.chance(0.4) ? names : undefined));
    if (half !== 1) rules.push(action(mode, verbsOf(rnd), maybe(0.25, someNodes)));
  } else {
    const driverKind = rnd.pick(['associated-node', 'arbitrary-node'] as const);
    rules = [];
    if (rnd.chance(0.85))
      rules.push(
        claimStatus(
          verbsOf(rnd),
          maybe(0.3, () => [rnd.pick(CAP_NODES.flatMap(claimNames))]),
        ),
      );
    if (rnd.chance(0.85))
      rules.push(
        claimDriver(
          driverKind,
          verbsOf(rnd),
          maybe(0.6, () => [rnd.pick(CAP_DRIVERS)]),
        ),
      );
    if (rules.length === 0) rules.push(claimStatus(['update', 'patch']));
    pool = ANYONE;
  }
  const subject = rnd.pick(pool);
  const namespace = rnd.chance(0.35) ? rnd.pick(CAP_NAMESPACES) : undefined;
  return { name: `rnd-${i}`, rules, subject, namespace };
}

const bindingSubject = (s: Subject) =>
  s.kind === 'ServiceAccount' ? { kind: s.kind, name: s.name, namespace: s.namespace } : { kind: s.kind, apiGroup: RBAC, name: s.name };

/** ClusterRoles and their bindings: the fixed grants plus `count` random ones. */
export function capabilityGrantObjects(seed: number, count: number): Record<string, unknown>[] {
  const rnd = createRandom(seed);
  const grants = [...anchorGrants(), ...Array.from({ length: count }, (_, i) => randomGrant(rnd, i))];
  const objects: Record<string, unknown>[] = [];
  for (const g of grants) {
    const role = `cap-${g.name}`;
    objects.push({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: role }, rules: g.rules });
    objects.push({
      apiVersion: `${RBAC}/v1`,
      kind: g.namespace ? 'RoleBinding' : 'ClusterRoleBinding',
      metadata: g.namespace ? { name: role, namespace: g.namespace } : { name: role },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
      subjects: [bindingSubject(g.subject)],
    });
  }
  return objects;
}

/**
 * Nodes where each service account runs pods: random (none, one or two nodes) for the random grants'
 * accounts; for the fixed grants' accounts, the node agent on node-a and node-b, the plugin on node-a.
 */
export function podPlacement(seed: number): Map<string, string[]> {
  const rnd = createRandom(seed ^ 0x5bd1e995);
  const out = new Map<string, string[]>();
  for (const ns of CAP_NAMESPACES)
    for (const name of CAP_SERVICE_ACCOUNTS) {
      const n = rnd.int(3);
      const nodes = new Set<string>();
      while (nodes.size < n) nodes.add(rnd.pick(CAP_NODES));
      out.set(`${ns}/${name}`, [...nodes].sort());
    }
  for (const name of ANCHOR_SERVICE_ACCOUNTS) out.set(`${ANCHOR_NAMESPACE}/${name}`, []);
  out.set(`${ANCHOR_NAMESPACE}/agent`, ['node-a', 'node-b']);
  out.set(`${ANCHOR_NAMESPACE}/plugin`, ['node-a']);
  return out;
}

/** Claims on each node: c-<node>-0 with devices of both drivers, c-<node>-1 of one driver. */
export function claimLayout(seed: number): { node: string; name: string; namespace: string; drivers: string[] }[] {
  const rnd = createRandom(seed ^ 0x27d4eb2d);
  return CAP_NODES.flatMap((node) => {
    const [first, second] = claimNames(node);
    // The first claim of node i is in namespace i (a claim of both drivers in each namespace: the fixed
    // RoleBinding grants have one to write); the second anywhere.
    return [
      { node, name: first, namespace: CAP_NAMESPACES[CAP_NODES.indexOf(node)], drivers: [...CAP_DRIVERS] },
      { node, name: second, namespace: rnd.pick(CAP_NAMESPACES), drivers: [rnd.pick(CAP_DRIVERS)] },
    ];
  });
}
