import type { AnalysisContext } from '@/lib/analysis/context-types';
import { decisionEvidence } from '@/lib/analysis/evidence';
import type { ResourceAttributes, UserInfo } from '@/lib/authz/types';
import { serviceAccountUser } from '@/lib/authz/user-info';
import { describeRef, describeSubject, refKey } from '@/lib/k8s/refs';
import type { SubjectRef } from '@/lib/k8s/types';
import type { AttackPath, AttackStep, Finding, Issue } from '@/lib/analysis/types';
import { formatCount, plural } from './count-text';
import type { ReachIndex } from './reach';

// For the highest-risk issues, the chain from a foothold an attacker can plausibly get (a compromised
// node running a DaemonSet, a pod in a tenant namespace, a leaked token, a member's credentials) to
// an impact (act as system:masters, rewrite another node's status, forge device status or
// allocations, advertise fake devices...). Each step that is a request carries the exact
// SubjectAccessReview the engine allowed, so the path can be checked against the API server.

/** Issues ranked this high or higher get a path (when one exists). */
export const ATTACK_PATH_ISSUES = 10;

interface Foothold {
  user: UserInfo;
  steps: AttackStep[];
  /** The node the identity's token is bound to, when it is a pod's. */
  node?: string;
}

interface Impact {
  text: string;
  request: ResourceAttributes;
  /** Requests the impact needs first, each a step of its own (all must be allowed). */
  before?: { text: string; request: ResourceAttributes }[];
  /** What rules the impact out though every request is allowed; asked only then (it can cost an admission policy evaluation). */
  unless?: () => boolean;
}

const RBAC = 'rbac.authorization.k8s.io';

/** Where an identity's credentials can be taken from, most likely first. */
function footholdOf(ctx: AnalysisContext, reach: ReachIndex, subject: SubjectRef): Foothold | undefined {
  if (subject.kind === 'ServiceAccount') {
    const ns = subject.namespace ?? '';
    const nodes = ctx.podIndex.nodesOfServiceAccount(ns, subject.name);
    const sa = describeSubject(subject);
    if (nodes.length === 0) return { user: serviceAccountUser(ns, subject.name), steps: [{ text: `a leaked token of ${sa} (no pod of it runs now)` }] };
    // A DaemonSet's token is on the nodes its pods run on (counted from the pods in the state), not on every node.
    const daemonSet = reach.daemonSetsOf(subject).find((d) => d.nodes.length > 0);
    const node = daemonSet?.nodes[0] ?? nodes[0];
    const where = daemonSet
      ? daemonSetFoothold(describeRef(daemonSet.daemonSet), daemonSet.nodes, reach.nodeCount)
      : ctx.isTenantNamespace(ns)
        ? `code execution in a pod of tenant namespace ${ns} (on node ${node})`
        : `code execution in a pod of ${ns} (on node ${node})`;
    return {
      user: serviceAccountUser(ns, subject.name, node),
      node,
      steps: [{ text: where }, { text: `the pod's token: ${sa}, bound to node ${node}` }],
    };
  }
  if (subject.kind === 'User')
    return { user: { name: subject.name, groups: ['system:authenticated'] }, steps: [{ text: `the credentials of user ${subject.name}` }] };
  return {
    user: { name: 'dra-posture-attack-path-member', groups: [subject.name, 'system:authenticated'] },
    steps: [{ text: `the credentials of any member of group ${subject.name}` }],
  };
}

/** "a compromised node, e.g. n1: DaemonSet x runs there and on 1 other node (2 of 7 nodes)". */
function daemonSetFoothold(daemonSet: string, nodes: readonly string[], nodeCount: number): string {
  const n = nodes.length;
  if (n === 1) return `a compromised node, ${nodes[0]}: ${daemonSet} runs there only (1 of ${plural(nodeCount, 'node')})`;
  const others =
    n >= nodeCount
      ? `on every other node (${formatCount(n)} of ${formatCount(nodeCount)})`
      : `on ${plural(n - 1, 'other node')} (${formatCount(n)} of ${plural(nodeCount, 'node')})`;
  return `a compromised node, e.g. ${nodes[0]}: ${daemonSet} runs there and ${others}`;
}

const res = (verb: string, group: string, resource: string, extra: Partial<ResourceAttributes> = {}): ResourceAttributes => ({
  verb,
  group,
  resource,
  subresource: '',
  namespace: '',
  name: '',
  ...extra,
});

/** What the identity could do, most damaging first. */
function impactsFor(ctx: AnalysisContext, reach: ReachIndex, subject: SubjectRef, foothold: Foothold): Impact[] {
  const out: Impact[] = [
    { text: 'do anything to anything in the cluster (cluster-admin)', request: res('*', '*', '*') },
    {
      text: 'act as system:masters (legacy impersonation): full control of the cluster',
      request: res('impersonate', '', 'groups', { name: 'system:masters' }),
    },
  ];
  // The storage layer lets a binding to a role through when the requester may `bind` it (authz-semantics §5).
  if (ctx.engine.rbac.clusterRoles.has('cluster-admin'))
    out.push({
      text: 'bind ClusterRole cluster-admin to itself: full control of the cluster',
      before: [{ text: 'create a ClusterRoleBinding', request: res('create', RBAC, 'clusterrolebindings') }],
      request: res('bind', RBAC, 'clusterroles', { name: 'cluster-admin' }),
    });
  const nodes = ctx.engine.nodeNames;
  const other = nodes.find((n) => n !== foothold.node);
  if (other)
    out.push({
      text: `rewrite the status of node ${other} (steer workloads onto or off it)`,
      request: res('patch', '', 'nodes', { subresource: 'status', name: other }),
    });
  // Another node's claim, of a driver the identity does not run as (its multi-node controller writes its own driver's claims anywhere).
  // One claim per driver, the first in the state: the identity may hold the write for some drivers only.
  for (const { driver, claim, at } of reach.claimsOffNode(foothold.node)) {
    if (reach.ownClaims.isOwn({ subject, driver, mode: 'arbitrary-node' })) continue;
    const ns = claim.metadata.namespace ?? '';
    out.push({
      text: `forge the device status (${driver}) of claim ${ns}/${claim.metadata.name}, allocated on node ${at}`,
      request: res('arbitrary-node:update', 'resource.k8s.io', 'resourceclaims', { subresource: 'driver', namespace: ns, name: driver }),
    });
  }
  out.push({
    text: 'forge the allocation of any ResourceClaim (resourceclaims/binding)',
    request: res('update', 'resource.k8s.io', 'resourceclaims', { subresource: 'binding' }),
  });
  // A policy that pins the identity's slice writes to the node in its token leaves it its own node's slices: its job.
  out.push({
    text: 'advertise fake devices on any node (create ResourceSlices)',
    request: res('create', 'resource.k8s.io', 'resourceslices'),
    unless: () => reach.pinnedToOwnNode(subject),
  });
  out.push(
    {
      text: 'change which devices every tenant gets (update DeviceClasses)',
      request: res('update', 'resource.k8s.io', 'deviceclasses', { name: ctx.state.deviceClasses[0]?.metadata.name ?? '' }),
    },
    { text: 'read every Secret in the cluster', request: res('list', '', 'secrets') },
  );
  return out;
}

/** The first impact the foothold's identity is allowed, as an attack path, or undefined when it reaches none. */
export function attackPathFor(ctx: AnalysisContext, reach: ReachIndex, subject: SubjectRef): Omit<AttackPath, 'issueId'> | undefined {
  const foothold = footholdOf(ctx, reach, subject);
  if (!foothold) return undefined;
  const stepOf = (text: string, request: ResourceAttributes): AttackStep | undefined => {
    const decision = ctx.engine.authorize({ user: foothold.user, resource: request });
    if (!decision.allowed) return undefined;
    return {
      text,
      review: { user: foothold.user.name, groups: foothold.user.groups, extra: foothold.user.extra ?? {}, resourceAttributes: request },
      evidence: decisionEvidence(decision),
    };
  };
  for (const impact of impactsFor(ctx, reach, subject, foothold)) {
    const steps = [...(impact.before ?? []), impact].map((s) => stepOf(s.text, s.request));
    if (steps.some((s) => s === undefined) || impact.unless?.()) continue;
    return { subject, foothold: foothold.steps[0].text, impact: impact.text, steps: [...foothold.steps, ...(steps as AttackStep[])] };
  }
  return undefined;
}

/** Paths for the top issues: from the first of their identities that reaches an impact. */
export function attackPaths(ctx: AnalysisContext, reach: ReachIndex, issues: readonly Issue[], findingsById: ReadonlyMap<string, Finding>): AttackPath[] {
  const out: AttackPath[] = [];
  const tried = new Map<string, Omit<AttackPath, 'issueId'> | undefined>();
  for (const issue of issues.slice(0, ATTACK_PATH_ISSUES)) {
    const subjects = new Map<string, SubjectRef>();
    for (const id of issue.findingIds) for (const s of findingsById.get(id)?.subjects ?? []) subjects.set(refKey(s), s);
    // Pod identities first: their tokens are what an attacker actually finds on a node or in a pod.
    const ordered = [...subjects.values()].sort((a, b) => Number(b.kind === 'ServiceAccount') - Number(a.kind === 'ServiceAccount'));
    for (const s of ordered) {
      const key = refKey(s);
      if (!tried.has(key)) tried.set(key, attackPathFor(ctx, reach, s));
      const path = tried.get(key);
      if (path) {
        out.push({ issueId: issue.id, ...path });
        break;
      }
    }
  }
  return out;
}
