import { pushTo } from '@/lib/k8s/push-to';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { UserInfo } from '@/lib/authz/types';
import { nodeUser, serviceAccountUser, serviceAccountUsername } from '@/lib/authz/user-info';
import type { SubjectRef } from '@/lib/k8s/types';
import type { ClaimStatusWriter, NodeStatusWriter } from '@/lib/report/types';
import { ClaimWriterAnalysis, driversOf } from './claim-status-writers';
import { listNodeStatusWriters, type NodeStatusWriterMap } from './node-status-writers';
import { cmp, podServiceAccount } from './subjects';

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

export interface BlastRadiusInputs {
  statusWriters?: NodeStatusWriterMap;
  claimAnalysis?: ClaimWriterAnalysis;
}

/**
 * If `node` is compromised, its kubelet credentials and the tokens of every pod running there are
 * exposed. Pod tokens name this node, so associated-node grants (constrained node impersonation,
 * resourceclaims/driver associated-node verbs) reach only this node; everything else reaches as far
 * as the grants do.
 */
export function computeBlastRadius(ctx: AnalysisContext, node: string, inputs: BlastRadiusInputs = {}): BlastRadius {
  const statusWriters = inputs.statusWriters ?? listNodeStatusWriters(ctx);
  const claims = inputs.claimAnalysis ?? new ClaimWriterAnalysis(ctx);

  const identities: { subject: SubjectRef; user: UserInfo }[] = [{ subject: { kind: 'User', name: `system:node:${node}` }, user: nodeUser(node) }];
  const seen = new Set<string>();
  const sas: { namespace: string; name: string }[] = [];
  for (const pod of ctx.state.pods) {
    if (pod.spec?.nodeName !== node) continue;
    const namespace = pod.metadata.namespace ?? '';
    const name = podServiceAccount(pod);
    const key = `${namespace}/${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    sas.push({ namespace, name });
  }
  sas.sort((a, b) => cmp(a.namespace, b.namespace) || cmp(a.name, b.name));
  for (const sa of sas)
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
  for (const w of statusWriters.allNodes) {
    for (const i of hitsOf(w) ?? []) {
      allNodes[i] = true;
      for (const target of ctx.engine.nodeNames) statusNodes[i].add(target);
    }
  }
  for (const [target, writers] of statusWriters.byNode) {
    for (const w of writers) {
      if (w.scope === 'own-node' && target !== node) continue;
      for (const i of hitsOf(w) ?? []) statusNodes[i].add(target);
    }
  }
  const writable = claimsWritableBy(claims, identities);
  const out: BlastRadiusIdentity[] = identities.map(({ subject }, i) => ({
    subject,
    statusNodes: [...statusNodes[i]].sort(),
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
  const clusterHit = identities.map(() => new Map<string, boolean>());
  for (const claim of analysis.allocatedClaims) {
    const ns = claim.metadata.namespace ?? '';
    for (const driver of driversOf(claim)) {
      identities.forEach(({ user }, i) => {
        let hit = clusterHit[i].get(driver);
        if (hit === undefined) clusterHit[i].set(driver, (hit = analysis.clusterApplies(user, driver)));
        const d = analysis.decideFor(keys[i], user, claim, driver, hit);
        if (d) out[i].push({ namespace: ns, name: claim.metadata.name, driver, mode: d.mode ?? 'arbitrary-node' });
      });
    }
  }
  return out.map((list) => list.sort(compareClaims));
}

function compareClaims(a: Omit<BlastRadiusClaim, 'mode'>, b: Omit<BlastRadiusClaim, 'mode'>): number {
  return cmp(a.namespace, b.namespace) || cmp(a.name, b.name) || cmp(a.driver, b.driver);
}
