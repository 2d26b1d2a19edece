import { pushTo } from '@/lib/k8s/push-to';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { UserInfo } from '@/lib/authz/types';
import { nodeUser, serviceAccountUser, serviceAccountUsername } from '@/lib/authz/user-info';
import type { ResourceClaim, SubjectRef } from '@/lib/k8s/types';
import type { ClaimStatusWriter, NodeStatusWriter } from '@/lib/analysis/types';
import { driversOf } from './claim-placement';
import type { ClaimWriterAnalysis } from './claim-status-writers';
import type { NodeWriterLists } from './node-writers';
import { compareStrings } from '@/lib/k8s/refs';

export interface BlastRadiusClaim {
  namespace: string;
  name: string;
  driver: string;
  mode: ClaimStatusWriter['mode'];
}

export interface BlastRadiusIdentity {
  subject: SubjectRef;
  /** Nodes whose nodes/status this identity can write with the credentials found on the node, sorted. */
  statusNodes: string[];
  /** It can write the status of every node. */
  allNodes: boolean;
  /** Claims whose status.devices entries of `driver` it can write. */
  claims: BlastRadiusClaim[];
}

export interface BlastRadius {
  node: string;
  /** The node's own identity first, then the service accounts of the pods running there. */
  identities: BlastRadiusIdentity[];
  /** Nodes other than this one whose status can be written from here. */
  otherNodes: string[];
  allNodes: boolean;
  /** Every allocated claim (per driver, wherever it is allocated) whose status.devices can be written from here. */
  claims: Omit<BlastRadiusClaim, 'mode'>[];
}

/**
 * If `node` is compromised, its kubelet credentials and the tokens of every pod running there are
 * exposed. Pod tokens name this node, so associated-node grants (constrained node impersonation,
 * resourceclaims/driver associated-node verbs) reach only this node; everything else reaches as far
 * as the grants do.
 */
export function computeBlastRadius(ctx: AnalysisContext, node: string, writers: NodeWriterLists): BlastRadius {
  const claims = ctx.claimWriters;

  const identities: { subject: SubjectRef; user: UserInfo }[] = [{ subject: { kind: 'User', name: `system:node:${node}` }, user: nodeUser(node) }];
  for (const sa of ctx.podIndex.serviceAccountsOnNode(node))
    identities.push({ subject: { kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace }, user: serviceAccountUser(sa.namespace, sa.name, node) });

  // One pass over every node's writers: which exposed identities does each writer subject cover?
  const byName = new Map<string, number[]>();
  const byGroup = new Map<string, number[]>();
  identities.forEach(({ user }, i) => {
    pushTo(byName, user.name, i);
    for (const g of user.groups) pushTo(byGroup, g, i);
  });
  const statusNodes = identities.map(() => new Set<string>());
  const allNodes = identities.map(() => false);
  const hitsOf = (w: NodeStatusWriter) => {
    const s = w.subject;
    return s.kind === 'Group' ? byGroup.get(s.name) : byName.get(s.kind === 'ServiceAccount' ? serviceAccountUsername(s.namespace ?? '', s.name) : s.name);
  };
  for (const w of writers.allNodes.statusWriters) for (const i of hitsOf(w) ?? []) allNodes[i] = true;
  // One that writes every node shares one sorted list of the node names (10,000 names sorted per
  // identity and node switch on the bench cluster), plus any writer list's node that it lacks.
  const every = allNodes.some(Boolean) ? sortedNodeNames(ctx.engine.nodeNames) : undefined;
  for (const { name: target, statusWriters } of writers.nodes) {
    for (const w of statusWriters) {
      if (w.scope === 'own-node' && target !== node) continue;
      for (const i of hitsOf(w) ?? []) if (!allNodes[i] || !every!.set.has(target)) statusNodes[i].add(target);
    }
  }
  const writable = claimsWritableBy(claims, identities);
  const out: BlastRadiusIdentity[] = identities.map(({ subject }, i) => ({
    subject,
    statusNodes: allNodes[i] && statusNodes[i].size === 0 ? every!.sorted : [...(allNodes[i] ? every!.sorted : []), ...statusNodes[i]].sort(),
    allNodes: allNodes[i],
    claims: writable[i],
  }));

  const otherNodes = new Set<string>();
  const allClaims = new Map<string, Omit<BlastRadiusClaim, 'mode'>>();
  for (const id of out) {
    for (const n of id.statusNodes) if (n !== node) otherNodes.add(n);
    for (const c of id.claims) allClaims.set(`${c.namespace}/${c.name}|${c.driver}`, { namespace: c.namespace, name: c.name, driver: c.driver });
  }
  return {
    node,
    identities: out,
    otherNodes: [...otherNodes].sort(),
    allNodes: out.some((i) => i.allNodes),
    claims: [...allClaims.values()].sort(compareClaims),
  };
}

/** Per identity, the claims (with an allocation, wherever it is) whose status.devices of a driver it can write. */
function claimsWritableBy(analysis: ClaimWriterAnalysis, identities: { subject: SubjectRef; user: UserInfo }[]): BlastRadiusClaim[][] {
  const out = identities.map((): BlastRadiusClaim[] => []);
  const keys = identities.map(({ subject, user }) => `${subject.kind}/${subject.namespace ?? ''}/${subject.name}|${JSON.stringify(user.extra ?? {})}`);
  // Without a cluster-wide grant an identity writes claims only where a RoleBinding names it: on a
  // large cluster asking about every claim for every exposed identity was 2 million questions a node.
  const bound = identities.map(({ user }) => analysis.namespacesBinding(user));
  const push = (i: number, claim: ResourceClaim, driver: string, mode: BlastRadiusClaim['mode']) =>
    out[i].push({ namespace: claim.metadata.namespace ?? '', name: claim.metadata.name, driver, mode });
  for (const [driver, byNamespace] of allocatedClaimsByDriver(analysis)) {
    identities.forEach(({ user }, i) => {
      const hit = analysis.clusterApplies(user, driver);
      const decide = (claims: readonly ResourceClaim[]) => {
        for (const claim of claims) {
          const d = analysis.decideFor(keys[i], user, claim, driver, hit);
          if (d) push(i, claim, driver, d.mode ?? 'arbitrary-node');
        }
      };
      if (!hit) {
        for (const ns of bound[i]) decide(byNamespace.get(ns) ?? []);
        return;
      }
      // One that writes every claim of the driver (a driver's or an admin's grant) is not asked claim by claim.
      const first = byNamespace.values().next().value!;
      if (analysis.writesEveryClaim(keys[i], user, driver, first[0])) {
        for (const claims of byNamespace.values()) for (const claim of claims) push(i, claim, driver, 'arbitrary-node');
        return;
      }
      for (const claims of byNamespace.values()) decide(claims);
    });
  }
  return out.map((list) => list.sort(compareClaims));
}

/** The cluster's node names, sorted once per set of names (identities that write every node share the list). */
const sortedNames = new WeakMap<readonly string[], { sorted: string[]; set: Set<string> }>();
function sortedNodeNames(names: readonly string[]): { sorted: string[]; set: Set<string> } {
  let out = sortedNames.get(names);
  if (!out) sortedNames.set(names, (out = { sorted: [...names].sort(), set: new Set(names) }));
  return out;
}

/** The allocated claims of each driver by namespace; worked out once per analysis. */
const claimsByDriverCache = new WeakMap<ClaimWriterAnalysis, Map<string, Map<string, ResourceClaim[]>>>();
function allocatedClaimsByDriver(analysis: ClaimWriterAnalysis): Map<string, Map<string, ResourceClaim[]>> {
  let by = claimsByDriverCache.get(analysis);
  if (!by) {
    by = new Map();
    for (const claim of analysis.allocatedClaims)
      for (const driver of driversOf(claim)) {
        let byNs = by.get(driver);
        if (!byNs) by.set(driver, (byNs = new Map()));
        pushTo(byNs, claim.metadata.namespace ?? '', claim);
      }
    claimsByDriverCache.set(analysis, by);
  }
  return by;
}

function compareClaims(a: Omit<BlastRadiusClaim, 'mode'>, b: Omit<BlastRadiusClaim, 'mode'>): number {
  return compareStrings(a.namespace, b.namespace) || compareStrings(a.name, b.name) || compareStrings(a.driver, b.driver);
}
