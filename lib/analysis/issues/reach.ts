import { formatCount } from './count-text';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { capability } from '@/lib/analysis/capabilities';
import { isBroadGroup } from '@/lib/analysis/context/identities';
import { userForSubject } from '@/lib/analysis/node-writers/subjects';
import { pinnedByAny } from '@/lib/analysis/context/slice-pinning';
import { daemonSetOwnerName } from '@/lib/analysis/context/pod-facts';
import type { NodeWriterLists } from '@/lib/analysis/node-writers/node-writers';
import { compareStrings, describeRef, refKey } from '@/lib/k8s/refs';
import type { ObjectRef, Pod, ResourceClaim, SubjectRef } from '@/lib/k8s/types';
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

export interface DriverClaim {
  driver: string;
  claim: ResourceClaim;
  at: string;
  /** Position of the claim among the allocated claims, then of the driver among its drivers. */
  order: [number, number];
}

interface DriverClaims {
  count: number;
  /** The first claim allocated on a single node, and the first on another node. */
  first?: DriverClaim;
  other?: DriverClaim;
}

interface DaemonSetPods {
  owner: ObjectRef;
  /** Nodes its pods run on. */
  nodes: Set<string>;
}

interface AccountPods {
  /** Nodes where its DaemonSet pods hold its token. */
  nodes: Set<string>;
  /** The DaemonSets whose pods run as it, in the order of their first such pod. */
  daemonSets: Set<DaemonSetPods>;
}

const BROAD = 3;
const DAEMONSET_NODES = 2;
const TENANT = 2;

export class ReachIndex {
  readonly nodeCount: number;
  /** Per driver: its allocated claims, and the first two on different single nodes (attack paths). */
  private readonly claimsByDriver = new Map<string, DriverClaims>();
  private readonly reach = new Map<string, SubjectReach>();
  /** claims() of the subjects with this one reach. */
  private readonly claimsOfOne = new Map<SubjectReach, number>();
  private readonly sliceWriters = new Map<string, boolean>();
  private readonly pinned = new Map<string, boolean>();
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
    // Each claim's drivers and single node as the claim writers read them, by position: no claim is read again.
    const { allocatedClaims: allocated, allocatedDrivers, strictNodes } = ctx.claimWriters;
    for (let i = 0; i < allocated.length; i++) {
      const claim = allocated[i];
      const drivers = allocatedDrivers[i];
      const at = strictNodes[i];
      for (let j = 0; j < drivers.length; j++) {
        const driver = drivers[j];
        let kept = this.claimsByDriver.get(driver);
        if (!kept) this.claimsByDriver.set(driver, (kept = { count: 0 }));
        kept.count++;
        if (kept.other || at === undefined) continue;
        if (!kept.first) kept.first = { driver, claim, at, order: [i, j] };
        else if (kept.first.at !== at) kept.other = { driver, claim, at, order: [i, j] };
      }
    }
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
    // DaemonSets by namespace and name, read from the pods' own strings, so that no key is built per
    // pod (30,000 DaemonSet pods on a large cluster); keyed by refKey below.
    const daemonSets = new Map<string, Map<string, DaemonSetPods>>();
    // A DaemonSet pod runs as one of the node-local identities (the accounts of DaemonSet and driver
    // pods): only their pods are read (8 accounts' 33,000 of 200,000 pods on the diverse bench
    // cluster). Each account's pods come in the cluster's order, as its DaemonSets are listed.
    for (const sa of ctx.nodeLocalIdentities) {
      const namespace = sa.namespace ?? '';
      // podsOfServiceAccount's pods are in the account's namespace and run as it: its record is
      // looked up once, and a pod's DaemonSet only when it is not the last pod's (pods of one
      // DaemonSet mostly come together).
      let account: AccountPods | undefined;
      let ds: DaemonSetPods | undefined;
      let dsName: string | undefined;
      for (const pod of ctx.podsOfServiceAccount(namespace, sa.name)) {
        const ownerName = daemonSetOwnerName(pod);
        if (ownerName === undefined) continue;
        account ??= { nodes: new Set(), daemonSets: new Set() };
        if (ownerName !== dsName) {
          ds = this.daemonSetOf(daemonSets, namespace, ownerName, pod);
          dsName = ownerName;
          account.daemonSets.add(ds);
        }
        const node = pod.spec?.nodeName;
        if (node) {
          account.nodes.add(node);
          ds!.nodes.add(node);
        }
      }
      if (!account) continue;
      const key = refKey(sa);
      // An account whose DaemonSet pods are all unscheduled holds a token on no node.
      if (account.nodes.size > 0) this.tokenNodes.set(key, account.nodes);
      this.daemonSetsByAccount.set(
        key,
        [...account.daemonSets].map((d) => d.owner),
      );
    }
    for (const inNamespace of daemonSets.values()) for (const d of inNamespace.values()) this.daemonSetNodes.set(refKey(d.owner), d.nodes);
  }

  /** The record of a DaemonSet, made at its first pod with the ref ctx.ownerOf makes of it. */
  private daemonSetOf(daemonSets: Map<string, Map<string, DaemonSetPods>>, namespace: string, name: string, pod: Pod): DaemonSetPods {
    let inNamespace = daemonSets.get(namespace);
    if (!inNamespace) daemonSets.set(namespace, (inNamespace = new Map()));
    let ds = inNamespace.get(name);
    if (!ds) inNamespace.set(name, (ds = { owner: this.ctx.ownerOf(pod), nodes: new Set() }));
    return ds;
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
    // Subjects decided for earlier issues first: one known writer answers without evaluating the
    // policies for the others (an evaluation per identity was most of the issues' risk).
    // The undecided ones, with their keys (made once: most issues' subjects are all decided).
    let undecided: { s: SubjectRef; key: string }[] | undefined;
    for (const s of subjects) {
      const key = refKey(s);
      const known = this.sliceWriters.get(key);
      if (known === true) return true;
      if (known === undefined) (undecided ??= []).push({ s, key });
    }
    if (!undecided) return false;
    return undecided.some(({ s, key }) => {
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
    // Asked by the risk of every issue the subject is in, then by its attack path: evaluated once.
    const key = refKey(s);
    let pinned = this.pinned.get(key);
    if (pinned === undefined) {
      const user = userForSubject(s);
      this.pinned.set(key, (pinned = pinnedByAny(this.ctx.slicePinning, user.name, user.groups)));
    }
    return pinned;
  }

  /** Allocated claims whose status.devices one of the subjects can write. */
  claims(subjects: readonly SubjectRef[]): number {
    const reaches: SubjectReach[] = [];
    for (const s of subjects) {
      const r = this.reach.get(refKey(s));
      if (r && !reaches.includes(r)) reaches.push(r);
    }
    if (reaches.length === 0) return 0;
    if (reaches.length > 1) return this.countClaims(reaches);
    // One identity's count, asked by every issue it is in (a writer on thousands of nodes is read node by node): counted once.
    let n = this.claimsOfOne.get(reaches[0]);
    if (n === undefined) this.claimsOfOne.set(reaches[0], (n = this.countClaims(reaches)));
    return n;
  }

  private countClaims(reaches: readonly SubjectReach[]): number {
    const everywhere = new Set<string>();
    // Each subject's (node, driver) pairs; merged only when several subjects have some.
    const perSubject: Map<string, Set<string>>[] = [];
    for (const r of reaches) {
      for (const d of r.allClaimsOf) everywhere.add(d);
      if (r.claimsOnNodes.size > 0) perSubject.push(r.claimsOnNodes);
    }
    let onNode = perSubject[0];
    if (perSubject.length > 1) {
      onNode = new Map();
      for (const pairs of perSubject)
        for (const [node, drivers] of pairs) {
          const merged = onNode.get(node);
          if (merged) for (const d of drivers) merged.add(d);
          else onNode.set(node, new Set(drivers));
        }
    }
    let total = 0;
    for (const d of everywhere) total += this.claimsByDriver.get(d)?.count ?? 0;
    if (onNode) {
      const { placement } = this.ctx.claimWriters;
      for (const [node, drivers] of onNode) {
        const byDriver = placement.get(node);
        if (byDriver) for (const d of drivers) if (!everywhere.has(d)) total += byDriver.get(d)?.length ?? 0;
      }
    }
    return total;
  }

  /**
   * For each driver, its first allocated claim (in the claim writers' order) on a node other than
   * `node`, in that order: a foothold's node rules out at most one of the two kept per driver, so
   * the answer for any node is read from them (scanning 100,000 claims per identity was not).
   */
  claimsOffNode(node: string | undefined): DriverClaim[] {
    const out: DriverClaim[] = [];
    for (const { first, other } of this.claimsByDriver.values()) {
      const pick = first && first.at !== node ? first : other;
      if (pick) out.push(pick);
    }
    return out.sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1]);
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
