import { formatCount } from './count-text';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { capability } from '@/lib/analysis/capabilities';
import { isBroadGroup } from '@/lib/analysis/context/identities';
import { userForSubject } from '@/lib/analysis/node-writers/subjects';
import { pinningFor } from '@/lib/analysis/context/slice-pinning';
import { driversOf } from '@/lib/analysis/node-writers/claim-placement';
import type { NodeWriterLists } from '@/lib/analysis/node-writers/node-writers';
import { pushTo } from '@/lib/k8s/push-to';
import { compareStrings, describeRef, refKey } from '@/lib/k8s/refs';
import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';
import { FullControlIndex } from '@/lib/analysis/full-control';
import { OwnClaimWrites } from './own-claim-writes';

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
  private readonly sliceWriters = new Map<string, boolean>();
  private readonly daemonSetsByAccount = new Map<string, ObjectRef[]>();
  /** Nodes where a DaemonSet pod holds the service account's token. */
  private readonly tokenNodes = new Map<string, Set<string>>();
  /** Per DaemonSet (refKey): the nodes its observed pods run on (spec.nodeName); empty when none of its pods is in the state. */
  private readonly daemonSetNodes = new Map<string, Set<string>>();
  readonly ownClaims: OwnClaimWrites;
  /** Which identities hold full control of the cluster, and how (lazy per subject). */
  readonly fullControl: FullControlIndex;
  /** Every allocated claim: what full control reaches. */
  readonly claimCount: number;

  constructor(
    private readonly ctx: AnalysisContext,
    writers: NodeWriterLists,
  ) {
    this.nodeCount = writers.nodes.length;
    this.ownClaims = new OwnClaimWrites(ctx);
    this.fullControl = new FullControlIndex(ctx);
    this.claimCount = ctx.claimWriters.allocatedClaims.length;
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
    // A driver writing its own driver's claims (on its own node, or as its multi-node controller) forges nothing.
    for (const w of writers.allNodes.claimStatusWriters) if (!this.ownClaims.isOwn(w)) of(w.subject).allClaimsOf.add(w.driver);
    for (const n of writers.nodes) {
      for (const w of n.statusWriters) if (w.mode !== 'node-authorizer') of(w.subject).nodes.add(n.name);
      for (const w of n.claimStatusWriters) {
        if (this.ownClaims.isOwn(w)) continue;
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
      let onNodes = this.daemonSetNodes.get(refKey(owner));
      if (!onNodes) this.daemonSetNodes.set(refKey(owner), (onNodes = new Set()));
      if (node) {
        let nodes = this.tokenNodes.get(sa);
        if (!nodes) this.tokenNodes.set(sa, (nodes = new Set()));
        nodes.add(node);
        onNodes.add(node);
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

  /**
   * Whether one of the subjects can write the ResourceSlices of nodes other than its own: it may write
   * slices (by RBAC) and no bound policy, evaluated for it, pins its writes to the node in its token
   * (ctx.slicePinning; an outcome the evaluator cannot decide pins nothing). A pinned driver publishing its own node's slices is doing its job.
   */
  writesOtherNodesSlices(subjects: readonly SubjectRef[]): boolean {
    return subjects.some((s) => {
      const key = refKey(s);
      let hit = this.sliceWriters.get(key);
      if (hit === undefined) this.sliceWriters.set(key, (hit = this.writesSlices(s) && !this.pinnedToOwnNode(s)));
      return hit;
    });
  }

  private writesSlices(s: SubjectRef): boolean {
    return capability('write-resourceslices').questions.some((q) => this.ctx.access.entriesFor(this.ctx.access.rbacWhoCan(q), s).length > 0);
  }

  /**
   * Whether a bound policy pins the subject's slice writes to its own node, by evaluating the policies
   * for it (a group: a member known by no other name, carrying the group); an undecided outcome pins nothing.
   */
  pinnedToOwnNode(s: SubjectRef): boolean {
    const user = userForSubject(s);
    return pinningFor(this.ctx.slicePinning, user.name, user.groups).pinnedBy.length > 0;
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

  /**
   * The DaemonSets whose pods run as this service account, each with the nodes its pods were seen on
   * (sorted), the widest first: what a compromised node gives an attacker, counted from the pods, never assumed.
   */
  daemonSetsOf(subject: SubjectRef): { daemonSet: ObjectRef; nodes: string[] }[] {
    return (this.daemonSetsByAccount.get(refKey(subject)) ?? [])
      .map((daemonSet) => ({ daemonSet, nodes: [...(this.daemonSetNodes.get(refKey(daemonSet)) ?? [])].sort() }))
      .sort((a, b) => b.nodes.length - a.nodes.length || compareStrings(refKey(a.daemonSet), refKey(b.daemonSet)));
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
