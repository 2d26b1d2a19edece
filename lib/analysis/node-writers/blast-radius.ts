import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { UserInfo } from '@/lib/authz/types';
import { nodeUser, serviceAccountUser } from '@/lib/authz/user-info';
import type { SubjectRef } from '@/lib/k8s/types';
import type { ClaimStatusWriter } from '@/lib/report/types';
import { ClaimWriterAnalysis } from './claim-status-writers';
import { listNodeStatusWriters, type NodeStatusWriterMap } from './node-status-writers';
import { cmp, podServiceAccount, subjectAppliesTo } from './subjects';

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
  /** Every claim (per driver) whose status.devices can be written from here. */
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
  for (const sa of sas) identities.push({ subject: { kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace }, user: serviceAccountUser(sa.namespace, sa.name, node) });

  const out: BlastRadiusIdentity[] = identities.map(({ subject, user }) => {
    const nodes = new Set<string>();
    let allNodes = false;
    for (const [target, writers] of statusWriters) {
      for (const w of writers) {
        if (!subjectAppliesTo(w.subject, user)) continue;
        if (w.scope === 'own-node' && target !== node) continue;
        nodes.add(target);
        if (w.scope === 'all-nodes') allNodes = true;
      }
    }
    return { subject, statusNodes: [...nodes].sort(), allNodes, claims: claimsWritableBy(claims, subject, user) };
  });

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

function claimsWritableBy(analysis: ClaimWriterAnalysis, subject: SubjectRef, user: UserInfo): BlastRadiusClaim[] {
  const out = new Map<string, BlastRadiusClaim>();
  const userKey = `${subject.kind}/${subject.namespace ?? ''}/${subject.name}|${JSON.stringify(user.extra ?? {})}`;
  for (const byDriver of analysis.placement.values()) {
    for (const [driver, claims] of byDriver) {
      for (const claim of claims) {
        const ns = claim.metadata.namespace ?? '';
        const key = `${ns}/${claim.metadata.name}|${driver}`;
        if (out.has(key)) continue;
        const d = analysis.decideFor(userKey, user, claim, driver);
        if (d) out.set(key, { namespace: ns, name: claim.metadata.name, driver, mode: d.mode ?? 'arbitrary-node' });
      }
    }
  }
  return [...out.values()].sort(compareClaims);
}

function compareClaims(a: Omit<BlastRadiusClaim, 'mode'>, b: Omit<BlastRadiusClaim, 'mode'>): number {
  return cmp(a.namespace, b.namespace) || cmp(a.name, b.name) || cmp(a.driver, b.driver);
}
