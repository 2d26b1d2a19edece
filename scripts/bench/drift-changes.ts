import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

// A small, known change to a generated bench cluster (what an auditor's second snapshot a week later
// might hold), for drift at scale: the drift bench and the mid-size drift test apply it to a copy of
// a generated cluster and compare the two. Each change names objects every generated cluster has.

const RBAC = 'rbac.authorization.k8s.io';

/** The objects the change adds (appended to the list). */
export const DRIFT_ADDED_OBJECTS: readonly Record<string, unknown>[] = [
  // An operator's service account is given cluster-wide claim status writes.
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name: 'drift-claim-status-writer' },
    rules: [{ apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: ['update', 'patch'] }],
  },
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'drift-claim-status-writer' },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'drift-claim-status-writer' },
    subjects: [{ kind: 'ServiceAccount', name: 'operator-1', namespace: 'operators' }],
  },
  // A node agent user may write one node's status.
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name: 'drift-node-3-status' },
    rules: [{ apiGroups: [''], resources: ['nodes/status'], verbs: ['update', 'patch'], resourceNames: ['node-3'] }],
  },
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'drift-node-3-status' },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'drift-node-3-status' },
    subjects: [{ kind: 'User', apiGroup: RBAC, name: 'drift-node-agent' }],
  },
];

/** The objects the change removes: ns-1's DRA quota, and (stamped shape) ns-2's claim-user binding. */
export const DRIFT_REMOVED_OBJECTS: readonly { kind: string; namespace?: string; name: string }[] = [
  { kind: 'ResourceQuota', namespace: 'ns-1', name: 'dra' },
  { kind: 'RoleBinding', namespace: 'ns-2', name: 'app-claims' },
];

const removalKey = (kind: string, namespace: string | undefined, name: string) => `${kind}|${namespace ?? ''}|${name}`;

/**
 * Copies a generated cluster file (`kind: List`, one item per line, as generate-cluster writes it)
 * with the change applied; returns how many objects it removed.
 */
export async function writeChangedCluster(from: string, to: string): Promise<number> {
  const removals = new Set(DRIFT_REMOVED_OBJECTS.map((o) => removalKey(o.kind, o.namespace, o.name)));
  const out = createWriteStream(to);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  let removed = 0;
  let items = 0;
  const lines = createInterface({ input: createReadStream(from, 'utf8'), crlfDelay: Infinity });
  for await (const raw of lines) {
    if (raw.startsWith('{"apiVersion":"v1","kind":"List"')) {
      await write(`${raw}\n`);
      continue;
    }
    if (raw === ']}' || raw === '') continue;
    const text = raw.endsWith(',') ? raw.slice(0, -1) : raw;
    // Only lines of a removed kind are parsed.
    if (DRIFT_REMOVED_OBJECTS.some((o) => text.includes(`"kind":"${o.kind}"`))) {
      const o = JSON.parse(text) as { kind: string; metadata?: { namespace?: string; name?: string } };
      if (removals.has(removalKey(o.kind, o.metadata?.namespace, o.metadata?.name ?? ''))) {
        removed++;
        continue;
      }
    }
    await write(`${items++ === 0 ? '' : ',\n'}${text}`);
  }
  for (const o of DRIFT_ADDED_OBJECTS) await write(`,\n${JSON.stringify(o)}`);
  await write('\n]}\n');
  out.end();
  await once(out, 'finish');
  return removed;
}
