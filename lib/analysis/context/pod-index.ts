import type { Pod } from '@/lib/k8s/types';
import { compareStrings } from '@/lib/k8s/refs';
import { NamePositions } from '@/lib/k8s/name-positions';
import { podServiceAccount } from './pod-facts';

// Which service accounts run where: a pod's token names its node, so this decides which nodes an
// identity's associated-node grants reach. Built once per analysis from the scheduled pods.
//
// Accounts are numbered through a NamePositions table (typed arrays), and each account's nodes
// and each node's accounts are ranges of typed arrays: a Map per namespace of account objects, each
// with a Set of nodes, and a Map of per-node lists took ~0.2 s of CPU and promoted ~22 MiB on the 200,000
// pods and 40,000 accounts of the diverse bench cluster (here: ~0.14 s, ~4 MiB).

export interface ServiceAccountName {
  namespace: string;
  name: string;
}

export class PodIndex {
  /** Service accounts with at least one scheduled pod, sorted by namespace and name: the index of one is its rank. */
  readonly scheduledServiceAccounts: ServiceAccountName[];
  /** Each account's id (order of first pod), and the rank of each id. */
  private readonly ids: NamePositions;
  private readonly rankOfId: Int32Array;
  /** The distinct nodes of the account ranked r are node ids nodesOfRank[nodeStarts[r] .. nodeStarts[r + 1]). */
  private readonly nodeStarts: Int32Array;
  private readonly nodesOfRank: Int32Array;
  /** The accounts on node id v are ranks accountsOfNode[accountStarts[v] .. accountStarts[v + 1]), ascending. */
  private readonly accountStarts: Int32Array;
  private readonly accountsOfNode: Int32Array;
  private readonly nodeIds: Map<string, number>;
  private readonly nodeNames: string[];
  /** Answers built on first ask and kept (callers get the same array each time). */
  private readonly sortedNodes: (string[] | undefined)[];
  private readonly onNode: (ServiceAccountName[] | undefined)[];

  constructor(pods: readonly Pod[]) {
    // Pass 1: number accounts in order of first pod and nodes in order of first sight; remember each
    // scheduled pod's pair. A list from the API server groups a workload's pods, so a pod with the
    // last pod's account or node needs no lookup.
    const accountOfPod = new Int32Array(pods.length);
    const nodeOfPod = new Int32Array(pods.length);
    const nodeIds = new Map<string, number>();
    const nodeNames: string[] = [];
    const namespaces: string[] = [];
    const names: string[] = [];
    const ids = new NamePositions((id, ns, name) => names[id] === name && namespaces[id] === ns);
    let scheduled = 0;
    let lastNamespace: string | undefined;
    let lastName: string | undefined;
    let lastAccount = -1;
    let lastNode: string | undefined;
    let lastNodeId = -1;
    for (const pod of pods) {
      const node = pod.spec?.nodeName;
      if (!node) continue;
      const namespace = pod.metadata.namespace ?? '';
      const name = podServiceAccount(pod);
      if (name !== lastName || namespace !== lastNamespace) {
        lastAccount = ids.findOrAdd(namespace, name, names.length);
        if (lastAccount === -1) {
          lastAccount = names.length;
          namespaces.push(namespace);
          names.push(name);
        }
        lastNamespace = namespace;
        lastName = name;
      }
      if (node !== lastNode) {
        let id = nodeIds.get(node);
        if (id === undefined) {
          nodeIds.set(node, (id = nodeNames.length));
          nodeNames.push(node);
        }
        lastNode = node;
        lastNodeId = id;
      }
      accountOfPod[scheduled] = lastAccount;
      nodeOfPod[scheduled++] = lastNodeId;
    }

    // Rank the accounts by namespace and name.
    const accountCount = names.length;
    const byRank = Array.from({ length: accountCount }, (_, id) => id).sort(
      (a, b) => compareStrings(namespaces[a], namespaces[b]) || compareStrings(names[a], names[b]),
    );
    const rankOf = new Int32Array(accountCount);
    for (let r = 0; r < accountCount; r++) rankOf[byRank[r]] = r;
    this.scheduledServiceAccounts = byRank.map((id) => ({ namespace: namespaces[id], name: names[id] }));
    this.ids = ids;
    this.rankOfId = rankOf;

    // Each account's pods' nodes, grouped by rank (a counting sort), then made distinct.
    const podStarts = new Int32Array(accountCount + 1);
    for (let p = 0; p < scheduled; p++) podStarts[rankOf[accountOfPod[p]] + 1]++;
    for (let r = 0; r < accountCount; r++) podStarts[r + 1] += podStarts[r];
    const fill = podStarts.slice(0, accountCount);
    const podNodes = new Int32Array(scheduled);
    for (let p = 0; p < scheduled; p++) podNodes[fill[rankOf[accountOfPod[p]]]++] = nodeOfPod[p];
    const nodeCount = nodeNames.length;
    // seenBy[v] = rank + 1 of the last account that listed node v.
    const seenBy = new Int32Array(nodeCount);
    const accountStarts = new Int32Array(nodeCount + 1);
    this.nodeStarts = new Int32Array(accountCount + 1);
    let distinct = 0;
    for (let r = 0; r < accountCount; r++) {
      for (let at = podStarts[r]; at < podStarts[r + 1]; at++) {
        const v = podNodes[at];
        if (seenBy[v] === r + 1) continue;
        seenBy[v] = r + 1;
        podNodes[distinct++] = v; // distinct <= at: compacts in place
        accountStarts[v + 1]++;
      }
      this.nodeStarts[r + 1] = distinct;
    }
    this.nodesOfRank = podNodes.slice(0, distinct);

    // Each node's accounts in rank order: appended while the ranks ascend.
    for (let v = 0; v < nodeCount; v++) accountStarts[v + 1] += accountStarts[v];
    const nodeFill = accountStarts.slice(0, nodeCount);
    this.accountsOfNode = new Int32Array(distinct);
    for (let r = 0; r < accountCount; r++)
      for (let at = this.nodeStarts[r]; at < this.nodeStarts[r + 1]; at++) this.accountsOfNode[nodeFill[this.nodesOfRank[at]]++] = r;
    this.accountStarts = accountStarts;
    this.nodeIds = nodeIds;
    this.nodeNames = nodeNames;
    this.sortedNodes = new Array<string[] | undefined>(accountCount);
    this.onNode = new Array<ServiceAccountName[] | undefined>(nodeCount);
  }

  /** Service accounts of the pods running on a node, sorted; the same object for an account on every node. */
  serviceAccountsOnNode(node: string): readonly ServiceAccountName[] {
    const v = this.nodeIds.get(node);
    if (v === undefined) return [];
    let found = this.onNode[v];
    if (!found) {
      found = [];
      for (let at = this.accountStarts[v]; at < this.accountStarts[v + 1]; at++) found.push(this.scheduledServiceAccounts[this.accountsOfNode[at]]);
      this.onNode[v] = found;
    }
    return found;
  }

  /** Nodes where pods of this service account run, sorted. */
  nodesOfServiceAccount(namespace: string, name: string): readonly string[] {
    const r = this.rankOf(namespace, name);
    if (r < 0) return [];
    let found = this.sortedNodes[r];
    if (!found) {
      found = [];
      for (let at = this.nodeStarts[r]; at < this.nodeStarts[r + 1]; at++) found.push(this.nodeNames[this.nodesOfRank[at]]);
      this.sortedNodes[r] = found.sort();
    }
    return found;
  }

  /** The rank of the account (namespace, name), or -1 when no scheduled pod runs as it. */
  private rankOf(namespace: string, name: string): number {
    const id = this.ids.find(namespace, name);
    return id < 0 ? -1 : this.rankOfId[id];
  }
}

// One index per pod list: the analysis context and the slice-pinning probes (which read the node a
// writer's token names) ask it about the same pods.
const indexes = new WeakMap<readonly Pod[], PodIndex>();

/** The PodIndex of these pods, built on first use. */
export function podIndexOf(pods: readonly Pod[]): PodIndex {
  let index = indexes.get(pods);
  if (!index) indexes.set(pods, (index = new PodIndex(pods)));
  return index;
}
