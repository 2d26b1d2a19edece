import type { AnalysisContext } from '@/lib/analysis/context-types';
import { decisionEvidence } from '@/lib/analysis/evidence';
import { allocatedNodeName } from '@/lib/authz/dra-status';
import type { ResourceAttributes, UserInfo } from '@/lib/authz/types';
import { serviceAccountUser } from '@/lib/authz/user-info';
import { describeSubject, refKey } from '@/lib/k8s/refs';
import type { SubjectRef } from '@/lib/k8s/types';
import { driversOf } from '@/lib/analysis/node-writers/claim-placement';
import type { AttackPath, AttackStep, Finding, Issue } from '@/lib/analysis/types';
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
}

/** Where an identity's credentials can be taken from, most likely first. */
function footholdOf(ctx: AnalysisContext, reach: ReachIndex, subject: SubjectRef): Foothold | undefined {
  if (subject.kind === 'ServiceAccount') {
    const ns = subject.namespace ?? '';
    const nodes = ctx.podIndex.nodesOfServiceAccount(ns, subject.name);
    const sa = describeSubject(subject);
    if (nodes.length === 0) return { user: serviceAccountUser(ns, subject.name), steps: [{ text: `a leaked token of ${sa} (no pod of it runs now)` }] };
    const node = nodes[0];
    const daemonSets = reach.daemonSetsOf(subject);
    const where =
      daemonSets.length > 0
        ? `a compromised node, e.g. ${node}: ${daemonSets[0]} runs there (and on every other node)`
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
function impactsFor(ctx: AnalysisContext, foothold: Foothold): Impact[] {
  const out: Impact[] = [
    { text: 'do anything to anything in the cluster (cluster-admin)', request: res('*', '*', '*') },
    {
      text: 'act as system:masters (legacy impersonation): full control of the cluster',
      request: res('impersonate', '', 'groups', { name: 'system:masters' }),
    },
  ];
  const nodes = ctx.engine.nodeNames;
  const other = nodes.find((n) => n !== foothold.node);
  if (other)
    out.push({
      text: `rewrite the status of node ${other} (steer workloads onto or off it)`,
      request: res('patch', '', 'nodes', { subresource: 'status', name: other }),
    });
  for (const claim of ctx.claimWriters.allocatedClaims) {
    const at = allocatedNodeName(claim);
    if (at === undefined || at === foothold.node) continue;
    const ns = claim.metadata.namespace ?? '';
    for (const driver of driversOf(claim)) {
      out.push({
        text: `forge the device status (${driver}) of claim ${ns}/${claim.metadata.name}, allocated on node ${at}`,
        request: res('arbitrary-node:update', 'resource.k8s.io', 'resourceclaims', { subresource: 'driver', namespace: ns, name: driver }),
      });
    }
    break;
  }
  out.push(
    {
      text: 'forge the allocation of any ResourceClaim (resourceclaims/binding)',
      request: res('update', 'resource.k8s.io', 'resourceclaims', { subresource: 'binding' }),
    },
    { text: 'advertise fake devices (create ResourceSlices)', request: res('create', 'resource.k8s.io', 'resourceslices') },
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
  for (const impact of impactsFor(ctx, foothold)) {
    const decision = ctx.engine.authorize({ user: foothold.user, resource: impact.request });
    if (!decision.allowed) continue;
    const step: AttackStep = {
      text: impact.text,
      review: { user: foothold.user.name, groups: foothold.user.groups, extra: foothold.user.extra ?? {}, resourceAttributes: impact.request },
      evidence: decisionEvidence(decision),
    };
    return { subject, foothold: foothold.steps[0].text, impact: impact.text, steps: [...foothold.steps, step] };
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
