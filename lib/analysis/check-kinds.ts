import type { UnreadKind } from '@/lib/k8s/cluster-state';
import { RBAC_KINDS } from '@/lib/authz/kinds-for-question';
import { CATALOG, type CheckId } from './catalog';
import type { ReportCheckUnknown } from './types';

// Which kinds each check's answer depends on, so that a source that could not read a kind (403)
// marks those checks "unknown" instead of letting their missing findings read as a pass.
// Deliberately generous: a check wrongly marked unknown costs a caveat, one wrongly trusted hides a risk.

/**
 * What every cluster check reads through the analysis context: RBAC (admin equivalence, system and
 * DRA component identities, who-can), Pods (driver pods, which make a namespace platform, and the
 * API server's own flags) and Namespaces (tenant or platform, admission labels).
 */
const CONTEXT_KINDS = [...RBAC_KINDS, 'Pod', 'Namespace'];

const CLAIMS = ['ResourceClaim', 'ResourceClaimTemplate'];

/** Kinds beyond CONTEXT_KINDS, per check; audit checks read the audit log, not the cluster. */
const EXTRA_KINDS: Partial<Record<CheckId, readonly string[]>> = {
  // An admission policy may pin each node's slices to that node.
  DRA012: ['ResourceSlice', 'Node', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'],
  NODE001: ['Node'],
  NODE003: ['Node'],
  NODE006: ['Node', 'PersistentVolume', 'PersistentVolumeClaim', 'ResourceSlice', ...CLAIMS],
  CLAIM001: ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'DeviceClass'],
  CLAIM002: [...CLAIMS, 'DeviceClass'],
  CLAIM004: ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'],
  QUOTA001: ['ResourceQuota'],
  QUOTA002: ['ResourceQuota', 'DeviceClass', ...CLAIMS],
  QUOTA003: ['ResourceQuota', ...CLAIMS],
  QUOTA004: ['ResourceQuota', ...CLAIMS],
  ZERO001: ['DeviceClass', ...CLAIMS],
  ZERO002: ['DeviceClass'],
  POD001: ['ServiceAccount'],
  POD002: ['ServiceAccount'],
  POD003: ['ServiceAccount'],
};

/** The cluster kinds a check's answer depends on (none for checks of the audit log). */
export function kindsCheckNeeds(id: CheckId): ReadonlySet<string> {
  if (CATALOG[id].family === 'AUDIT') return new Set();
  return new Set([...CONTEXT_KINDS, ...(EXTRA_KINDS[id] ?? [])]);
}

/** The checks made unknown by the kinds a source could not read, in catalogue order. */
export function checksUnknownFor(unread: readonly UnreadKind[]): ReportCheckUnknown[] {
  if (unread.length === 0) return [];
  const out: ReportCheckUnknown[] = [];
  for (const id of Object.keys(CATALOG) as CheckId[]) {
    const needs = kindsCheckNeeds(id);
    const missing = unread.filter((u) => needs.has(u.kind));
    if (missing.length === 0) continue;
    const kinds = [...new Set(missing.map((u) => u.kind))].sort();
    out.push({ id, kinds, reason: `needs ${kinds.join(', ')}, which the source could not read in full` });
  }
  return out;
}
