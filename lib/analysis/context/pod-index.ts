import type { Pod } from '@/lib/k8s/types';
import { compareStrings } from '@/lib/k8s/refs';
import { podServiceAccount } from './pod-facts';

// Which service accounts run where: a pod's token names its node, so this decides which nodes an
// identity's associated-node grants reach. Built once per analysis from the scheduled pods.

export interface ServiceAccountName {
  namespace: string;
  name: string;
}

const compareServiceAccounts = (a: ServiceAccountName, b: ServiceAccountName) => compareStrings(a.namespace, b.namespace) || compareStrings(a.name, b.name);

export class PodIndex {
  private readonly accountsByNode = new Map<string, ServiceAccountName[]>();
  /** namespace → name → the account: nested, so that no key string is built per pod (200,000 on a large cluster). */
  private readonly accounts = new Map<string, Map<string, ServiceAccountName>>();
  /** An account's nodes: one node as a string (most accounts), a Set from the second. */
  private readonly nodesByAccount = new Map<ServiceAccountName, string | Set<string>>();
  private readonly sortedNodes = new Map<ServiceAccountName, string[]>();
  /** Service accounts with at least one scheduled pod, sorted by namespace and name. */
  readonly scheduledServiceAccounts: ServiceAccountName[];

  constructor(pods: readonly Pod[]) {
    // One object per account, shared by every node it runs on (callers may key maps by it).
    const byNode = new Map<string, Set<ServiceAccountName>>();
    const all: ServiceAccountName[] = [];
    for (const pod of pods) {
      const node = pod.spec?.nodeName;
      if (!node) continue;
      const namespace = pod.metadata.namespace ?? '';
      const name = podServiceAccount(pod);
      let inNamespace = this.accounts.get(namespace);
      if (!inNamespace) this.accounts.set(namespace, (inNamespace = new Map()));
      let account = inNamespace.get(name);
      if (!account) {
        inNamespace.set(name, (account = { namespace, name }));
        this.nodesByAccount.set(account, node);
        all.push(account);
      } else {
        const nodes = this.nodesByAccount.get(account)!;
        if (typeof nodes !== 'string') nodes.add(node);
        else if (nodes !== node) this.nodesByAccount.set(account, new Set([nodes, node]));
      }
      let onNode = byNode.get(node);
      if (!onNode) byNode.set(node, (onNode = new Set()));
      onNode.add(account);
    }
    for (const [node, onNode] of byNode) this.accountsByNode.set(node, [...onNode].sort(compareServiceAccounts));
    this.scheduledServiceAccounts = all.sort(compareServiceAccounts);
  }

  /** Service accounts of the pods running on a node, sorted; the same object for an account on every node. */
  serviceAccountsOnNode(node: string): readonly ServiceAccountName[] {
    return this.accountsByNode.get(node) ?? [];
  }

  /** Nodes where pods of this service account run, sorted. */
  nodesOfServiceAccount(namespace: string, name: string): readonly string[] {
    const account = this.accounts.get(namespace)?.get(name);
    if (!account) return [];
    let nodes = this.sortedNodes.get(account);
    if (!nodes) {
      const found = this.nodesByAccount.get(account)!;
      this.sortedNodes.set(account, (nodes = typeof found === 'string' ? [found] : [...found].sort()));
    }
    return nodes;
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
