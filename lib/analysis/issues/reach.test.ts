import { describe, expect, it } from 'vitest';
import { claimAllocatedTo, clusterRole, crb, Group, node, pod, SA, singleNodeSelector, stateOf } from '@/lib/authz/__fixtures__/builders';
import { allocatedNodeName } from '@/lib/authz/dra-status';
import { compareStrings, describeRef, refKey } from '@/lib/k8s/refs';
import type {
  ObjectRef,
  Pod,
  PolicyRule,
  ResourceClaim,
  Subject,
  SubjectRef,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { contextOf, dsPod } from '@/lib/analysis/__fixtures__/builders';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { slicePinningPolicies } from '@/lib/analysis/context/slice-pinning';
import { driversOf } from '@/lib/analysis/node-writers/claim-placement';
import { listNodeWriters, type NodeWriterLists } from '@/lib/analysis/node-writers/node-writers';
import { formatCount } from './count-text';
import { OwnClaimWrites } from './own-claim-writes';
import { ReachIndex } from './reach';

// Whether a Group's ResourceSlice writes reach other nodes' slices is decided by evaluating the bound
// policies (lib/admission) for a member of the group, not by their form. A ValidatingAdmissionPolicy
// applies to a request only when every matchCondition is true, and a Deny binding refuses it when a
// validation is false (ValidatingAdmissionPolicy docs); a member of a group carries the group in
// request.userInfo.groups. An outcome the evaluator cannot decide pins nothing.

const GROUP = 'slice-publishers';
const NODE_NAME = `request.userInfo.extra[?'authentication.kubernetes.io/node-name'][0].orValue('')`;
const SLICE_NODE = `(request.operation == "DELETE" ? oldObject : object).spec.?nodeName.orValue("")`;

function policy(matchConditions: { name: string; expression: string }[], validations: { expression: string }[]): ValidatingAdmissionPolicy {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'slices' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        resourceRules: [{ apiGroups: ['resource.k8s.io'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['resourceslices'] }],
      },
      matchConditions,
      validations,
    },
  } as ValidatingAdmissionPolicy;
}

const binding: ValidatingAdmissionPolicyBinding = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: 'slices' },
  spec: { policyName: 'slices', validationActions: ['Deny'] },
} as ValidatingAdmissionPolicyBinding;

/** Whether Group slice-publishers (create, update, delete ResourceSlices by RBAC) writes other nodes' slices under this policy. */
function groupReachesOtherNodes(p?: ValidatingAdmissionPolicy): boolean {
  const ctx = contextOf({
    nodes: [node('worker-1'), node('worker-2')],
    clusterRoles: [clusterRole('slice-publisher', [{ apiGroups: ['resource.k8s.io'], resources: ['resourceslices'], verbs: ['create', 'update', 'delete'] }])],
    clusterRoleBindings: [crb('slice-publishers', { kind: 'ClusterRole', name: 'slice-publisher' }, [Group(GROUP)])],
    validatingAdmissionPolicies: p ? [p] : [],
    validatingAdmissionPolicyBindings: p ? [binding] : [],
  });
  return new ReachIndex(ctx, listNodeWriters(ctx)).writesOtherNodesSlices([{ kind: 'Group', name: GROUP }]);
}

/** How the evaluator decides the policy for a member of the group: pinned, unknown (why) or let through. */
function memberVerdict(p: ValidatingAdmissionPolicy) {
  const [entry] = slicePinningPolicies(
    stateOf({ nodes: [node('worker-1'), node('worker-2')], validatingAdmissionPolicies: [p], validatingAdmissionPolicyBindings: [binding] }),
  );
  return entry.verdict('a-member', [GROUP]);
}

const MEMBERS = { name: 'members', expression: `"${GROUP}" in request.userInfo.groups` };

describe('ReachIndex.writesOtherNodesSlices for a Group, by evaluating the policies', () => {
  it('with no policy, the group writes every node’s slices', () => {
    expect(groupReachesOtherNodes()).toBe(true);
  });

  it('a policy whose condition names no username but whose validation lets another node’s slice through pins nothing', () => {
    // It applies to the group's members, and only checks that a driver is named.
    const p = policy([MEMBERS], [{ expression: '(request.operation == "DELETE" ? oldObject : object).spec.driver != ""' }]);
    expect(groupReachesOtherNodes(p)).toBe(true);
  });

  it('a policy that refuses a member every slice but its own node’s pins the group (a member’s token names no node: every write is refused)', () => {
    const p = policy([MEMBERS], [{ expression: `${NODE_NAME} != ""` }, { expression: `${NODE_NAME} == ${SLICE_NODE}` }]);
    expect(memberVerdict(p)).toEqual({ pinned: true });
    expect(groupReachesOtherNodes(p)).toBe(false);
  });

  it('the same validation, applied only to service accounts, leaves a (human) member of the group unpinned', () => {
    const p = policy([{ name: 'sas', expression: `"system:serviceaccounts" in request.userInfo.groups` }], [{ expression: `${NODE_NAME} == ${SLICE_NODE}` }]);
    expect(groupReachesOtherNodes(p)).toBe(true);
  });

  it('an expression the evaluator cannot decide does not count as pinning', () => {
    const p = policy([MEMBERS], [{ expression: `dra_posture_no_such_function(object) && ${NODE_NAME} == ${SLICE_NODE}` }]);
    expect(memberVerdict(p)).toMatchObject({ pinned: false, unknown: expect.any(String) });
    expect(groupReachesOtherNodes(p)).toBe(true);
  });
});

// ReachIndex keeps per driver its claim count and two first claims, and reads DaemonSet pods without
// a key per pod; claims() reads the claim writers' placement. Held here, on random clusters, to the
// plain readings: every allocated claim scanned per question, per-pod keys, (node|driver) key strings.
describe('ReachIndex on random clusters: the same answers as plain scans', () => {
  const DRIVERS = ['a.example.com', 'b.example.com', 'c.example.com'];
  const NODES = ['n0', 'n1', 'n2', 'n3'];
  const NAMESPACES = ['drivers', 'team-a', 'team-b'];
  const ACCOUNTS = ['plugin', 'app', 'ctl'];
  const DRA = 'resource.k8s.io';
  const RULES: PolicyRule[] = [
    { verbs: ['update', 'patch'], apiGroups: [DRA], resources: ['resourceclaims/status'] },
    { verbs: ['arbitrary-node:update', 'arbitrary-node:patch'], apiGroups: [DRA], resources: ['resourceclaims/driver'] },
    ...DRIVERS.map((d) => ({
      verbs: ['associated-node:update', 'associated-node:patch'],
      apiGroups: [DRA],
      resources: ['resourceclaims/driver'],
      resourceNames: [d],
    })),
    { verbs: ['arbitrary-node:update'], apiGroups: [DRA], resources: ['resourceclaims/driver'], resourceNames: [DRIVERS[1]] },
    { verbs: ['update'], apiGroups: [''], resources: ['nodes/status'] },
  ];
  let withClaimWriters = 0;

  for (let seed = 1; seed <= 40; seed++) {
    it(`seed ${seed}`, () => {
      const r = createRandom(seed);
      const some = <T>(list: readonly T[], max: number) => Array.from({ length: 1 + r.int(max) }, () => r.pick(list));
      const claims: ResourceClaim[] = Array.from({ length: 5 + r.int(30) }, (_, i) => {
        const single = r.chance(0.8);
        const c = claimAllocatedTo(
          r.pick(NAMESPACES),
          `claim-${i}`,
          single
            ? singleNodeSelector(r.pick(NODES))
            : { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n0', 'n1'] }] }] },
        );
        // Some allocations name no node at all (devices every node reaches).
        if (!single && r.chance(0.5)) delete c.status!.allocation!.nodeSelector;
        c.status!.allocation!.devices!.results = some(DRIVERS, 2).map((driver, j) => ({ request: 'gpu', driver, pool: 'p', device: `d${j}` }));
        return c;
      });
      // Some pods carry an owner reference besides their controller's, or none marked controller:
      // ownerOf names the controller's owner, else the first reference's.
      const withOtherOwner = (p: Pod): Pod => {
        if (!r.chance(0.3)) return p;
        const refs = p.metadata.ownerReferences ?? [];
        if (refs.length > 0 && r.chance(0.3)) p.metadata.ownerReferences = refs.map(({ controller: _, ...ref }) => ref);
        const other = { apiVersion: 'apps/v1', kind: r.pick(['DaemonSet', 'ReplicaSet']), name: r.pick(['ds-x', 'ds-z', 'web-abc']) };
        p.metadata.ownerReferences = r.chance(0.5) ? [other, ...(p.metadata.ownerReferences ?? [])] : [...(p.metadata.ownerReferences ?? []), other];
        return p;
      };
      const pods: Pod[] = Array.from({ length: 4 + r.int(20) }, (_, i) => {
        const spec = { serviceAccountName: r.pick(ACCOUNTS), ...(r.chance(0.85) ? { nodeName: r.pick(NODES) } : {}) };
        const ns = r.pick(NAMESPACES);
        if (r.chance(0.7)) return withOtherOwner(dsPod(ns, r.pick(['ds-x', 'ds-y']), `${i}`, spec));
        const p = pod(ns, `p${i}`, spec);
        if (r.chance(0.5)) p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', controller: true }];
        return withOtherOwner(p);
      });
      const pool: Subject[] = NAMESPACES.flatMap((ns) => ACCOUNTS.map((a) => SA(ns, a)));
      // Writing status.devices takes resourceclaims/status and the driver's grant: most roles hold both.
      const roles = RULES.map((rule, i) => clusterRole(`r${i}`, i === 0 || r.chance(0.2) ? [rule] : [RULES[0], rule]));
      const ctx = contextOf({
        nodes: NODES.map((n) => node(n)),
        pods,
        resourceClaims: claims,
        clusterRoles: roles,
        clusterRoleBindings: Array.from({ length: 1 + r.int(5) }, (_, i) =>
          crb(`crb${i}`, { kind: 'ClusterRole', name: r.pick(roles).metadata.name }, some(pool, 3)),
        ),
      });
      const writers = listNodeWriters(ctx);
      if (writers.allNodes.claimStatusWriters.length + writers.nodes.reduce((n, w) => n + w.claimStatusWriters.length, 0) > 0) withClaimWriters++;
      const reach = new ReachIndex(ctx, writers);
      const plain = plainReach(ctx, writers, reach);
      for (const n of [...NODES, undefined]) expect(reach.claimsOffNode(n), `claims off ${n}`).toEqual(plain.claimsOffNode(n));
      const subjects: SubjectRef[] = pool.map(({ name, namespace }) => ({ kind: 'ServiceAccount', name, namespace }));
      for (const s of subjects) {
        expect(reach.daemonSetsOf(s), refKey(s)).toEqual(plain.daemonSetsOf(s));
        expect(reach.exposure(s), refKey(s)).toEqual(plain.exposure(s));
        expect(reach.claims([s]), refKey(s)).toBe(plain.claims([s]));
      }
      for (let i = 0; i < 10; i++) {
        const group = some(subjects, 3);
        expect(reach.claims(group)).toBe(plain.claims(group));
      }
    });
  }

  it('the random clusters had claim status writers to count', () => {
    expect(withClaimWriters).toBeGreaterThan(20);
  });
});

/** The plain readings ReachIndex's indexes replace (the writers' reach per subject is not under test: read as ReachIndex does). */
function plainReach(ctx: AnalysisContext, writers: NodeWriterLists, reach: ReachIndex) {
  const claims = ctx.claimWriters.allocatedClaims;
  const byDriver = new Map<string, number>();
  for (const c of claims) for (const d of driversOf(c)) byDriver.set(d, (byDriver.get(d) ?? 0) + 1);
  const byNodeDriver = new Map<string, number>();
  for (const [n, drivers] of ctx.claimWriters.placement) for (const [d, list] of drivers) byNodeDriver.set(`${n}|${d}`, list.length);
  const own = new OwnClaimWrites(ctx);
  const everywhereOf = (s: SubjectRef) =>
    writers.allNodes.claimStatusWriters.filter((w) => refKey(w.subject) === refKey(s) && !own.isOwn(w)).map((w) => w.driver);
  const onNodesOf = (s: SubjectRef) =>
    writers.nodes.flatMap((n) => n.claimStatusWriters.filter((w) => refKey(w.subject) === refKey(s) && !own.isOwn(w)).map((w) => `${n.name}|${w.driver}`));
  const dsPods = ctx.pods.flatMap((p) => {
    const owner = ctx.ownerOf(p);
    return owner.kind === 'DaemonSet' ? [{ pod: p, owner, sa: `ServiceAccount/${p.metadata.namespace ?? ''}/${p.spec?.serviceAccountName || 'default'}` }] : [];
  });
  const daemonSetsOf = (s: SubjectRef) => {
    const owners = new Map<string, ObjectRef>();
    for (const d of dsPods) if (d.sa === refKey(s) && !owners.has(refKey(d.owner))) owners.set(refKey(d.owner), d.owner);
    return [...owners.values()]
      .map((daemonSet) => ({
        daemonSet,
        nodes: [...new Set(dsPods.filter((d) => refKey(d.owner) === refKey(daemonSet) && d.pod.spec?.nodeName).map((d) => d.pod.spec!.nodeName!))].sort(),
      }))
      .sort((a, b) => b.nodes.length - a.nodes.length || compareStrings(refKey(a.daemonSet), refKey(b.daemonSet)));
  };
  return {
    claimsOffNode(n: string | undefined) {
      const out: { driver: string; claim: ResourceClaim; at: string; order: [number, number] }[] = [];
      const picked = new Set<string>();
      claims.forEach((claim, i) => {
        const at = allocatedNodeName(claim);
        if (at === undefined || at === n) return;
        driversOf(claim).forEach((driver, j) => {
          if (!picked.has(driver)) out.push({ driver, claim, at, order: [i, j] });
          picked.add(driver);
        });
      });
      return out;
    },
    claims(subjects: readonly SubjectRef[]) {
      const everywhere = new Set(subjects.flatMap(everywhereOf));
      const onNode = new Set(subjects.flatMap(onNodesOf));
      let total = 0;
      for (const d of everywhere) total += byDriver.get(d) ?? 0;
      for (const key of onNode) if (!everywhere.has(key.slice(key.indexOf('|') + 1))) total += byNodeDriver.get(key) ?? 0;
      return total;
    },
    daemonSetsOf,
    exposure(s: SubjectRef) {
      if (s.kind !== 'ServiceAccount') return reach.exposure(s);
      const found = dsPods.filter((d) => d.sa === refKey(s));
      if (found.length === 0)
        return ctx.isTenantNamespace(s.namespace ?? '') ? { factor: 2, text: `token in tenant namespace ${s.namespace}` } : { factor: 1, text: '' };
      const n = new Set(found.filter((d) => d.pod.spec?.nodeName).map((d) => d.pod.spec!.nodeName)).size;
      const nodeCount = writers.nodes.length;
      const where =
        n === 0 ? 'the nodes of' : n === nodeCount ? `every node (${formatCount(n)}) through` : `${formatCount(n)} of ${formatCount(nodeCount)} nodes through`;
      const owners = new Map<string, ObjectRef>();
      for (const d of found) if (!owners.has(refKey(d.owner))) owners.set(refKey(d.owner), d.owner);
      return { factor: 2, text: `token on ${where} ${[...owners.values()].map(describeRef).join(', ')}` };
    },
  };
}
