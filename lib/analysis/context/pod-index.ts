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
  private readonly nodesByAccount = new Map<string, string[]>();
  /** Service accounts with at least one scheduled pod, sorted by namespace and name. */
  readonly scheduledServiceAccounts: ServiceAccountName[];

  constructor(pods: readonly Pod[]) {
    const byNode = new Map<string, Map<string, ServiceAccountName>>();
    const byAccount = new Map<string, Set<string>>();
    const accounts = new Map<string, ServiceAccountName>();
    for (const pod of pods) {
      const node = pod.spec?.nodeName;
      if (!node) continue;
      const namespace = pod.metadata.namespace ?? '';
      const name = podServiceAccount(pod);
      const key = `${namespace}/${name}`;
      let onNode = byNode.get(node);
      if (!onNode) byNode.set(node, (onNode = new Map()));
      if (!onNode.has(key)) onNode.set(key, { namespace, name });
      let nodes = byAccount.get(key);
      if (!nodes) byAccount.set(key, (nodes = new Set()));
      nodes.add(node);
      if (!accounts.has(key)) accounts.set(key, { namespace, name });
    }
    for (const [node, onNode] of byNode) this.accountsByNode.set(node, [...onNode.values()].sort(compareServiceAccounts));
    for (const [key, nodes] of byAccount) this.nodesByAccount.set(key, [...nodes].sort());
    this.scheduledServiceAccounts = [...accounts.values()].sort(compareServiceAccounts);
  }

  /** Service accounts of the pods running on a node, sorted. */
  serviceAccountsOnNode(node: string): readonly ServiceAccountName[] {
    return this.accountsByNode.get(node) ?? [];
  }

  /** Nodes where pods of this service account run, sorted. */
  nodesOfServiceAccount(namespace: string, name: string): readonly string[] {
    return this.nodesByAccount.get(`${namespace}/${name}`) ?? [];
  }
}
