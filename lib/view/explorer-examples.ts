import type { Report } from '@/lib/analysis/types';
import { allocatedNodeName } from '@/lib/authz/dra-status';
import { serviceAccountUsername } from '@/lib/authz/user-info';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { compareStrings } from '@/lib/k8s/refs';
import type { ResourceClaim, SubjectRef } from '@/lib/k8s/types';

// The explorer's example questions, written from the loaded source: a fixed list named the demo's
// objects, which a real cluster does not have (on the bench cluster every named example answered about
// nodes and identities that do not exist). Questions without names stay; the others name a node, a
// claim and an identity this source has, and are left out when it has none.

export interface ExplorerExample {
  label: string;
  /** The explorer's URL parameters (lib/api/routes parseExplorerState). */
  params: Record<string, string>;
}

const byName = <T extends { metadata: { name: string; namespace?: string } }>(a: T, b: T) =>
  compareStrings(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || compareStrings(a.metadata.name, b.metadata.name);

/** The first of `items` by (namespace, name) that passes `test`, without sorting tens of thousands of objects. */
export function firstByName<T extends { metadata: { name: string; namespace?: string } }>(
  items: readonly T[],
  test: (item: T) => boolean = () => true,
): T | undefined {
  let best: T | undefined;
  for (const item of items) if (test(item) && (!best || byName(item, best) < 0)) best = item;
  return best;
}

/** A node that runs DRA devices (has a node-local ResourceSlice), else the first node. */
export function exampleNode(state: ClusterState): string | undefined {
  const sliceNodes = new Set(state.resourceSlices.map((s) => s.spec.nodeName).filter((n): n is string => !!n));
  return (firstByName(state.nodes, (n) => sliceNodes.has(n.metadata.name)) ?? firstByName(state.nodes))?.metadata.name;
}

/** An allocated claim (its status is what the DRA checks guard), else any claim. */
export function exampleClaim(state: ClusterState): ResourceClaim | undefined {
  return firstByName(state.resourceClaims, (c) => !!c.status?.allocation) ?? firstByName(state.resourceClaims);
}

function userOf(s: SubjectRef): string | undefined {
  if (s.kind === 'ServiceAccount') return s.namespace ? serviceAccountUsername(s.namespace, s.name) : undefined;
  return s.kind === 'User' ? s.name : undefined;
}

function shortName(s: SubjectRef): string {
  return s.kind === 'ServiceAccount' ? `${s.namespace}/${s.name}` : s.name;
}

/** The first identity (service account or user) a finding of `check` is about, in the report's order. */
function identityOf(report: Pick<Report, 'findings'>, check: string): SubjectRef | undefined {
  for (const f of report.findings) {
    if (f.check !== check) continue;
    const s = f.subjects.find((x) => userOf(x) !== undefined);
    if (s) return s;
  }
  return undefined;
}

export function explorerExamples(state: ClusterState, report: Pick<Report, 'findings' | 'nodes'>): ExplorerExample[] {
  const out: ExplorerExample[] = [
    { label: 'Who can forge allocations (update resourceclaims/binding)?', params: { mode: 'who-can', verb: 'update', resource: 'resourceclaims/binding' } },
    { label: 'Who can publish devices (create resourceslices)?', params: { mode: 'who-can', verb: 'create', resource: 'resourceslices' } },
    { label: 'Who can change DeviceClasses?', params: { mode: 'who-can', verb: 'update', resource: 'deviceclasses' } },
    { label: 'Who can patch every node’s status?', params: { mode: 'who-can', verb: 'patch', resource: 'nodes/status' } },
  ];
  const node = exampleNode(state);
  if (node) out.push({ label: `Who can patch the status of node ${node}?`, params: { mode: 'who-can', verb: 'patch', resource: 'nodes/status', name: node } });
  const claim = exampleClaim(state);
  if (claim?.metadata.namespace)
    out.push({
      label: `Who can update the status of claim ${claim.metadata.namespace}/${claim.metadata.name}?`,
      params: { mode: 'who-can', verb: 'update', resource: 'resourceclaims/status', namespace: claim.metadata.namespace, name: claim.metadata.name },
    });
  // An identity a finding is about: one that can forge allocations, else one that writes any driver's device status.
  const forger = identityOf(report, 'DRA007');
  if (forger)
    out.push({
      label: `Can ${shortName(forger)} update resourceclaims/binding?`,
      params: { mode: 'can-i', verb: 'update', resource: 'resourceclaims/binding', user: userOf(forger)! },
    });
  const driverWriter = associatedNodeWriter(state, report);
  if (driverWriter) out.push(driverWriter);
  return out;
}

/**
 * A driver's service account writing device status of a claim allocated on its own node: the question
 * a node-local kubelet plugin's grant answers (associated-node:update, named by its driver).
 */
function associatedNodeWriter(state: ClusterState, report: Pick<Report, 'nodes'>): ExplorerExample | undefined {
  // Claims per allocated node, built once: asking every claim for every node is 10,000 × 200,000 steps at scale.
  const claimsOn = new Map<string, ResourceClaim[]>();
  for (const c of state.resourceClaims) {
    const node = allocatedNodeName(c);
    if (node) (claimsOn.get(node) ?? claimsOn.set(node, []).get(node)!).push(c);
  }
  for (const n of [...report.nodes].sort((a, b) => compareStrings(a.name, b.name))) {
    for (const w of n.claimStatusWriters) {
      if (w.mode !== 'associated-node' || w.subject.kind !== 'ServiceAccount' || !w.subject.namespace) continue;
      const claim = firstByName(claimsOn.get(n.name) ?? [], (c) => (c.status?.allocation?.devices?.results ?? []).some((r) => r.driver === w.driver));
      if (!claim?.metadata.namespace) continue;
      return {
        label: `Can ${shortName(w.subject)}, with a token of node ${n.name}, write ${w.driver} device status of claims in ${claim.metadata.namespace}?`,
        params: {
          mode: 'can-i',
          verb: 'associated-node:update',
          resource: 'resourceclaims/driver',
          namespace: claim.metadata.namespace,
          name: w.driver,
          user: serviceAccountUsername(w.subject.namespace, w.subject.name),
          node: n.name,
        },
      };
    }
  }
  return undefined;
}
