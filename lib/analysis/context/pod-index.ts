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

/** An account and its nodes: one node as a string (most accounts), a Set from the second; sorted on first ask. */
interface AccountNodes {
  readonly account: ServiceAccountName;
  nodes: string | Set<string>;
  sorted?: string[];
}

export class PodIndex {
  private readonly accountsByNode = new Map<string, ServiceAccountName[]>();
  /** namespace → name → the account: nested, so that no key string is built per pod (200,000 on a large cluster). */
  private readonly accounts = new Map<string, Map<string, AccountNodes>>();
  /** Service accounts with at least one scheduled pod, sorted by namespace and name. */
  readonly scheduledServiceAccounts: ServiceAccountName[];

  constructor(pods: readonly Pod[]) {
    // One object per account, shared by every node it runs on (callers may key maps by it).
    const all: AccountNodes[] = [];
    // A list from the API server is in key order (namespace, then name) and a workload's pods share an
    // account: the last namespace and account are kept, so such runs of pods cost no map lookup.
    let lastNamespace: string | undefined;
    let inNamespace: Map<string, AccountNodes> | undefined;
    let last: AccountNodes | undefined;
    for (const pod of pods) {
      const node = pod.spec?.nodeName;
      if (!node) continue;
      const namespace = pod.metadata.namespace ?? '';
      const name = podServiceAccount(pod);
      if (namespace !== lastNamespace || !inNamespace) {
        lastNamespace = namespace;
        inNamespace = this.accounts.get(namespace);
        if (!inNamespace) this.accounts.set(namespace, (inNamespace = new Map()));
        last = undefined;
      }
      if (!last || last.account.name !== name) {
        last = inNamespace.get(name);
        if (!last) {
          inNamespace.set(name, (last = { account: { namespace, name }, nodes: node }));
          all.push(last);
          continue;
        }
      }
      const nodes = last.nodes;
      if (typeof nodes !== 'string') nodes.add(node);
      else if (nodes !== node) last.nodes = new Set([nodes, node]);
    }
    all.sort((a, b) => compareServiceAccounts(a.account, b.account));
    // Each node's accounts from the sorted accounts: already sorted and distinct, with no set per node.
    const onNode = (node: string, account: ServiceAccountName) => {
      const list = this.accountsByNode.get(node);
      if (list) list.push(account);
      else this.accountsByNode.set(node, [account]);
    };
    for (const { account, nodes } of all) {
      if (typeof nodes === 'string') onNode(nodes, account);
      else for (const node of nodes) onNode(node, account);
    }
    this.scheduledServiceAccounts = all.map((a) => a.account);
  }

  /** Service accounts of the pods running on a node, sorted; the same object for an account on every node. */
  serviceAccountsOnNode(node: string): readonly ServiceAccountName[] {
    return this.accountsByNode.get(node) ?? [];
  }

  /** Nodes where pods of this service account run, sorted. */
  nodesOfServiceAccount(namespace: string, name: string): readonly string[] {
    const found = this.accounts.get(namespace)?.get(name);
    if (!found) return [];
    return (found.sorted ??= typeof found.nodes === 'string' ? [found.nodes] : [...found.nodes].sort());
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
