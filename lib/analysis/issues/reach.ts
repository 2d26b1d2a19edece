import { formatCount } from './count-text';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { isBroadGroup } from '@/lib/analysis/context/identities';
import { driversOf } from '@/lib/analysis/node-writers/claim-placement';
import type { NodeWriterLists } from '@/lib/analysis/node-writers/node-writers';
import { pushTo } from '@/lib/k8s/push-to';
import { describeRef, refKey } from '@/lib/k8s/refs';
import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';

// What the identities behind an issue can reach (nodes whose status they write, claims whose device
// status they can forge) and how exposed their credentials are (a token on the nodes a DaemonSet runs on, in a tenant
// namespace, or a group every identity carries). Read from the report's node writers and the context.

export interface Exposure {
  factor: number;
  text: string;
}

export interface SubjectReach {
  /** Every node's status (an all-nodes writer), else the nodes it writes. */
  allNodes: boolean;
  nodes: Set<string>;
  /** Per driver: every claim of it (an all-nodes writer), else claims counted per node. */
  allClaimsOf: Set<string>;
  claimsOnNodes: Map<string, Set<string>>;
}

const BROAD = 3;
const DAEMONSET_NODES = 2;
const TENANT = 2;

export class ReachIndex {
  readonly nodeCount: number;
  private readonly claimsByDriver = new Map<string, number>();
  private readonly claimsByNodeDriver = new Map<string, number>();
  private readonly reach = new Map<string, SubjectReach>();
  private readonly daemonSetsByAccount = new Map<string, ObjectRef[]>();
  /** Nodes where a DaemonSet pod holds the service account's token. */
  private readonly tokenNodes = new Map<string, Set<string>>();

  constructor(
    private readonly ctx: AnalysisContext,
    writers: NodeWriterLists,
  ) {
    this.nodeCount = writers.nodes.length;
    for (const claim of ctx.claimWriters.allocatedClaims) for (const d of driversOf(claim)) this.claimsByDriver.set(d, (this.claimsByDriver.get(d) ?? 0) + 1);
    for (const [node, byDriver] of ctx.claimWriters.placement) for (const [d, claims] of byDriver) this.claimsByNodeDriver.set(`${node}|${d}`, claims.length);
    const of = (s: SubjectRef) => {
      const key = refKey(s);
      let r = this.reach.get(key);
      if (!r) this.reach.set(key, (r = { allNodes: false, nodes: new Set(), allClaimsOf: new Set(), claimsOnNodes: new Map() }));
      return r;
    };
    // A Node-authorizer entry reaches every node only when NodeRestriction is off (Group system:nodes): it counts.
    for (const w of writers.allNodes.statusWriters) of(w.subject).allNodes = true;
    for (const w of writers.allNodes.claimStatusWriters) of(w.subject).allClaimsOf.add(w.driver);
    for (const n of writers.nodes) {
      for (const w of n.statusWriters) if (w.mode !== 'node-authorizer') of(w.subject).nodes.add(n.name);
      for (const w of n.claimStatusWriters) {
        const r = of(w.subject);
        let drivers = r.claimsOnNodes.get(n.name);
        if (!drivers) r.claimsOnNodes.set(n.name, (drivers = new Set()));
        drivers.add(w.driver);
      }
    }
    const seen = new Set<string>();
    for (const pod of ctx.pods) {
      const owner = ctx.ownerOf(pod);
      if (owner.kind !== 'DaemonSet') continue;
      const sa = `ServiceAccount/${pod.metadata.namespace ?? ''}/${pod.spec?.serviceAccountName || pod.spec?.serviceAccount || 'default'}`;
      const key = `${sa}|${refKey(owner)}`;
      const node = pod.spec?.nodeName;
      if (node) {
        let nodes = this.tokenNodes.get(sa);
        if (!nodes) this.tokenNodes.set(sa, (nodes = new Set()));
        nodes.add(node);
      }
      if (!seen.has(key)) {
        seen.add(key);
        pushTo(this.daemonSetsByAccount, sa, owner);
      }
    }
  }

  /** Nodes whose nodes/status one of the subjects can write (all nodes when one writes every node's). */
  statusNodes(subjects: readonly SubjectRef[]): number {
    const nodes = new Set<string>();
    for (const s of subjects) {
      const r = this.reach.get(refKey(s));
      if (!r) continue;
      if (r.allNodes) return this.nodeCount;
      for (const n of r.nodes) nodes.add(n);
    }
    return nodes.size;
  }

  /** Allocated claims whose status.devices one of the subjects can write. */
  claims(subjects: readonly SubjectRef[]): number {
    const everywhere = new Set<string>();
    const onNode = new Set<string>();
    for (const s of subjects) {
      const r = this.reach.get(refKey(s));
      if (!r) continue;
      for (const d of r.allClaimsOf) everywhere.add(d);
      for (const [node, drivers] of r.claimsOnNodes) for (const d of drivers) onNode.add(`${node}|${d}`);
    }
    let total = 0;
    for (const d of everywhere) total += this.claimsByDriver.get(d) ?? 0;
    for (const key of onNode) if (!everywhere.has(key.slice(key.indexOf('|') + 1))) total += this.claimsByNodeDriver.get(key) ?? 0;
    return total;
  }

  /** The DaemonSets whose pods run as this service account, described. */
  daemonSetsOf(subject: SubjectRef): string[] {
    return (this.daemonSetsByAccount.get(refKey(subject)) ?? []).map(describeRef);
  }

  /** How exposed a subject's credentials are; factor 1 when nothing applies. */
  exposure(subject: SubjectRef): Exposure {
    if (subject.kind === 'Group' && isBroadGroup(subject.name)) return { factor: BROAD, text: `bound to group ${subject.name}: every such identity holds it` };
    if (subject.kind !== 'ServiceAccount') return { factor: 1, text: '' };
    const daemonSets = this.daemonSetsByAccount.get(refKey(subject)) ?? [];
    if (daemonSets.length > 0) {
      const n = this.tokenNodes.get(refKey(subject))?.size ?? 0;
      const where =
        n === 0
          ? 'the nodes of'
          : n === this.nodeCount
            ? `every node (${formatCount(n)}) through`
            : `${formatCount(n)} of ${formatCount(this.nodeCount)} nodes through`;
      return { factor: DAEMONSET_NODES, text: `token on ${where} ${daemonSets.map(describeRef).join(', ')}` };
    }
    if (this.ctx.isTenantNamespace(subject.namespace ?? '')) return { factor: TENANT, text: `token in tenant namespace ${subject.namespace}` };
    return { factor: 1, text: '' };
  }
}
