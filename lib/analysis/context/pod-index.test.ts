import { describe, expect, it } from 'vitest';
import { createRandom } from '@/scripts/bench/prng';
import type { Pod } from '@/lib/k8s/types';
import { nameHash } from '@/lib/k8s/name-positions';
import { PodIndex } from './pod-index';

// PodIndex keeps the last namespace and account while reading the pods and builds each node's
// accounts from the sorted accounts; it must answer what a plain reading of the pods gives: a
// scheduled pod (spec.nodeName) runs as spec.serviceAccountName (else the deprecated
// spec.serviceAccount, else "default") of its namespace on its node; unscheduled pods run nowhere.

const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];

function randomPods(rnd: () => number, n: number, grouped: boolean): Pod[] {
  const namespaces = ['', 'a', 'b', 'kube-system', 'team-1'];
  const accounts = [undefined, 'default', 'sa', 'driver', 'b'];
  const nodes = [undefined, 'n1', 'n2', 'n10', 'N3', 'node-b'];
  const pods: Pod[] = [];
  for (let i = 0; i < n; i++) {
    const namespace = pick(rnd, namespaces);
    const r = rnd();
    const spec: Pod['spec'] = { containers: [] };
    const node = pick(rnd, nodes);
    if (node) spec.nodeName = node;
    const account = pick(rnd, accounts);
    if (r < 0.4) spec.serviceAccountName = account;
    else if (r < 0.6) spec.serviceAccount = account;
    else if (r < 0.7) {
      spec.serviceAccountName = account;
      spec.serviceAccount = 'legacy';
    }
    pods.push({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}`, ...(namespace ? { namespace } : {}) }, spec });
  }
  // A list's order groups pods by namespace; the shuffled order must give the same answers.
  return grouped ? pods.sort((a, b) => ((a.metadata.namespace ?? '') < (b.metadata.namespace ?? '') ? -1 : 1)) : pods;
}

/** The plain reading: every (namespace, account, node) of a scheduled pod, as sorted lists. */
function plainIndex(pods: readonly Pod[]) {
  const key = (ns: string, name: string) => JSON.stringify([ns, name]);
  const nodesOf = new Map<string, Set<string>>();
  const accountsOn = new Map<string, Set<string>>();
  for (const p of pods) {
    if (!p.spec?.nodeName) continue;
    const k = key(p.metadata.namespace ?? '', p.spec.serviceAccountName || p.spec.serviceAccount || 'default');
    if (!nodesOf.has(k)) nodesOf.set(k, new Set());
    nodesOf.get(k)!.add(p.spec.nodeName);
    if (!accountsOn.has(p.spec.nodeName)) accountsOn.set(p.spec.nodeName, new Set());
    accountsOn.get(p.spec.nodeName)!.add(k);
  }
  const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const parse = (k: string) => {
    const [namespace, name] = JSON.parse(k) as [string, string];
    return { namespace, name };
  };
  const sortAccounts = (keys: Iterable<string>) => [...keys].map(parse).sort((a, b) => byCodeUnits(a.namespace, b.namespace) || byCodeUnits(a.name, b.name));
  return {
    accounts: sortAccounts(nodesOf.keys()),
    nodesOf: (ns: string, name: string) => [...(nodesOf.get(key(ns, name)) ?? [])].sort(byCodeUnits),
    accountsOn: (node: string) => sortAccounts(accountsOn.get(node) ?? []),
  };
}

describe('PodIndex', () => {
  it('answers as the plain reading of the pods, grouped by namespace or shuffled', () => {
    const rnd = createRandom(23).next;
    for (let round = 0; round < 200; round++) {
      const pods = randomPods(rnd, Math.floor(rnd() * 40), round % 2 === 0);
      const index = new PodIndex(pods);
      const plain = plainIndex(pods);
      expect(index.scheduledServiceAccounts).toEqual(plain.accounts);
      for (const node of ['n1', 'n2', 'n10', 'N3', 'node-b', 'absent']) expect(index.serviceAccountsOnNode(node)).toEqual(plain.accountsOn(node));
      for (const ns of ['', 'a', 'b', 'kube-system', 'team-1'])
        for (const name of ['default', 'sa', 'driver', 'b', 'legacy', 'absent']) {
          expect(index.nodesOfServiceAccount(ns, name)).toEqual(plain.nodesOf(ns, name));
          // Asked again: the same sorted answer.
          expect(index.nodesOfServiceAccount(ns, name)).toEqual(plain.nodesOf(ns, name));
        }
    }
  });

  it('answers as the plain reading on thousands of accounts and nodes (the table grows and probes)', () => {
    const r = createRandom(2300);
    for (let round = 0; round < 4; round++) {
      // Few letters: names that are prefixes of others and many slot clashes; runs of one namespace and account.
      const part = (max: number) => Array.from({ length: 1 + r.int(max) }, () => r.pick(['a', 'b', 'c', '-', 'é'])).join('');
      const pods: Pod[] = [];
      let namespace = part(3);
      let account = part(5);
      for (let i = 0, n = 1500 + r.int(3000); i < n; i++) {
        if (r.chance(0.3)) namespace = r.chance(0.1) ? '' : part(3);
        if (r.chance(0.5)) account = part(5);
        const spec: Pod['spec'] = { containers: [], serviceAccountName: account };
        if (r.chance(0.9)) spec.nodeName = `n${r.int(round % 2 === 0 ? 40 : 1500)}`;
        pods.push({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}`, ...(namespace ? { namespace } : {}) }, spec });
      }
      const index = new PodIndex(pods);
      const plain = plainIndex(pods);
      expect(index.scheduledServiceAccounts).toEqual(plain.accounts);
      for (const { namespace, name } of plain.accounts) expect(index.nodesOfServiceAccount(namespace, name)).toEqual(plain.nodesOf(namespace, name));
      for (let ask = 0; ask < 200; ask++) {
        const [ns, name] = [part(3), part(5)];
        expect(index.nodesOfServiceAccount(ns, name)).toEqual(plain.nodesOf(ns, name));
      }
      for (let v = 0; v < 1500; v++) expect(index.serviceAccountsOnNode(`n${v}`)).toEqual(plain.accountsOn(`n${v}`));
    }
  });

  it('tells apart accounts whose hashes collide', () => {
    /** Two distinct texts t, u with nameHash(...pick(t)) === nameHash(...pick(u)), found by brute force (birthday bound ~2^16). */
    const collision = (pick: (text: string) => [string, string]): [string, string] => {
      const seen = new Map<number, string>();
      for (let i = 0; ; i++) {
        const text = `sa-${i}`;
        const other = seen.get(nameHash(...pick(text)));
        if (other !== undefined) return [other, text];
        seen.set(nameHash(...pick(text)), text);
      }
    };
    const pod = (name: string, namespace: string, account: string, node: string): Pod => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace },
      spec: { containers: [], nodeName: node, serviceAccountName: account },
    });
    // Two names of one namespace, then one name in two namespaces.
    const [a, b] = collision((name) => ['ns', name]);
    const [c, d] = collision((ns) => [ns, 'sa']);
    expect(nameHash('ns', a)).toBe(nameHash('ns', b));
    expect(nameHash(c, 'sa')).toBe(nameHash(d, 'sa'));
    const pods = [
      pod('p1', 'ns', a, 'n1'),
      pod('p2', 'ns', b, 'n2'),
      pod('p3', 'ns', a, 'n3'),
      pod('p4', 'ns', b, 'n1'),
      pod('p5', c, 'sa', 'n2'),
      pod('p6', d, 'sa', 'n3'),
    ];
    const index = new PodIndex(pods);
    const plain = plainIndex(pods);
    expect(index.scheduledServiceAccounts).toEqual(plain.accounts);
    expect(index.nodesOfServiceAccount('ns', a)).toEqual(['n1', 'n3']);
    expect(index.nodesOfServiceAccount('ns', b)).toEqual(['n1', 'n2']);
    expect(index.nodesOfServiceAccount(c, 'sa')).toEqual(['n2']);
    expect(index.nodesOfServiceAccount(d, 'sa')).toEqual(['n3']);
    for (const node of ['n1', 'n2', 'n3']) expect(index.serviceAccountsOnNode(node)).toEqual(plain.accountsOn(node));
  });

  it('shares one object per account across the nodes it runs on', () => {
    const pod = (name: string, node: string): Pod => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'x' },
      spec: { containers: [], nodeName: node, serviceAccountName: 'agent' },
    });
    const index = new PodIndex([pod('a', 'n2'), pod('b', 'n1'), pod('c', 'n2')]);
    expect(index.serviceAccountsOnNode('n1')[0]).toBe(index.serviceAccountsOnNode('n2')[0]);
    expect(index.nodesOfServiceAccount('x', 'agent')).toEqual(['n1', 'n2']);
    expect(index.scheduledServiceAccounts).toEqual([{ namespace: 'x', name: 'agent' }]);
  });
});
