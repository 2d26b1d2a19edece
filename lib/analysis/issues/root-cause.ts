import { catalogEntry } from '@/lib/analysis/catalog';
import { fnv1a64 } from '@/lib/analysis/finding-id';
import type { Finding } from '@/lib/analysis/types';
import { refKey, sortRefs } from '@/lib/k8s/refs';
import type { ObjectRef } from '@/lib/k8s/types';

// A finding's root cause: what a person changes to fix it (the catalogue says which kind per check).
// Findings of one check with the same root cause are one issue.

const ROLE_KINDS = new Set(['Role', 'ClusterRole']);
const BINDING_KINDS = new Set(['RoleBinding', 'ClusterRoleBinding']);
const STOCK_ROLES = new Set(['cluster-admin', 'admin', 'edit', 'view']);

/** Roles nobody edits (cluster-admin, the user-facing defaults, bootstrap system:* roles): the fix is the binding. */
export function isStockRole(ref: ObjectRef): boolean {
  return ref.kind === 'ClusterRole' && (STOCK_ROLES.has(ref.name) || ref.name.startsWith('system:'));
}
const WORKLOAD_KINDS = new Set(['DaemonSet', 'Deployment', 'StatefulSet', 'ReplicaSet', 'Job', 'CronJob', 'Pod']);
const CLASS_KINDS = new Set(['DeviceClass']);

function pick(objects: readonly ObjectRef[], kinds: ReadonlySet<string>): ObjectRef[] {
  const hits = objects.filter((o) => kinds.has(o.kind));
  return sortRefs(hits.length > 0 ? hits : objects);
}

export function rootCauseOf(finding: Pick<Finding, 'check' | 'objects'>): ObjectRef[] {
  switch (catalogEntry(finding.check)?.rootCause ?? 'object') {
    case 'check':
      return [];
    case 'role': {
      const roles = pick(finding.objects, ROLE_KINDS);
      // A finding a role does not cause (NODE001 without NodeRestriction: the API server's flags) is rooted in its objects.
      if (roles.length === 0) return sortRefs(finding.objects);
      return roles.every(isStockRole) ? pick(finding.objects, BINDING_KINDS) : roles;
    }
    case 'workload':
      return pick(finding.objects, WORKLOAD_KINDS);
    case 'device-class':
      return pick(finding.objects, CLASS_KINDS);
    default:
      return sortRefs(finding.objects);
  }
}

/**
 * Stable issue ID: a hash of the check and its root-cause refs; a Role, workload or bare pod with
 * copies in other namespaces counts by the key its copies share (`roleCopyKeys`, `workloadCopyKeys`),
 * so the copies are one issue.
 */
export function issueIdOf(check: string, rootCause: readonly ObjectRef[], copyKeys?: ReadonlyMap<string, string>): string {
  const keys = rootCause.map((r) => {
    const key = refKey(r);
    return copyKeys?.get(key) ?? key;
  });
  return fnv1a64(['issue', check, ...new Set(keys)].join('\n'));
}
