import { canonicalSubject } from '@/lib/analysis/context/identities';
import { nodeNameFromUsername, parseServiceAccountUsername } from '@/lib/authz/user-info';
import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';
import { impersonationTarget } from './impersonation-target';
import type { AuditRecord } from './types';

// Which audit alerts (AUDIT001–AUDIT005) one event raises. Each draft carries a key: drafts with
// the same key are one finding (counted, first/last seen), and the key is made of exactly the
// subject and objects the finding ID hashes, so the ID is stable across runs and windows.

export type AuditCheckId = 'AUDIT001' | 'AUDIT002' | 'AUDIT003' | 'AUDIT004' | 'AUDIT005';

export interface AlertDraft {
  check: AuditCheckId;
  key: string;
  subject: SubjectRef;
  objects: ObjectRef[];
  /** The requester's node ('' when none). */
  node: string;
  /** A short fact about this event (merged into a small set on the finding). */
  detail: string;
  reason?: string;
  /** Needed by AUDIT003: the writer is a service account (a driver unless the cluster says otherwise). */
  writerIsServiceAccount?: boolean;
}

/** Opaque parameters larger than this are reported (the API server's own limit is 10 KiB). */
export const OPAQUE_ALERT_BYTES = 16 * 1024;

const KIND_OF: Record<string, string> = {
  resourceclaims: 'ResourceClaim',
  resourceclaimtemplates: 'ResourceClaimTemplate',
  deviceclasses: 'DeviceClass',
  resourceslices: 'ResourceSlice',
};

const MUTATIONS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** Controllers that delete slices of deleted nodes (owner references) and are not drivers. */
const SLICE_JANITORS = new Set(['system:kube-controller-manager', 'system:serviceaccount:kube-system:generic-garbage-collector']);

function objectOf(rec: AuditRecord): ObjectRef {
  const ref = rec.objectRef!;
  const o: ObjectRef = { kind: KIND_OF[ref.resource] ?? ref.resource, name: ref.name || '(unnamed)' };
  if (ref.namespace) o.namespace = ref.namespace;
  return o;
}

const keyOf = (subject: SubjectRef, objects: ObjectRef[]) =>
  [subject.kind, subject.namespace ?? '', subject.name, ...objects.map((o) => `${o.kind}/${o.namespace ?? ''}/${o.name}`)].join('\u001f');

const outcome = (ok: boolean, rec: AuditRecord) => (ok ? 'allowed' : `refused${rec.code ? ` (${rec.code})` : ''}`);

export function alertsOf(rec: AuditRecord, ok: boolean, denied: boolean): AlertDraft[] {
  const ref = rec.objectRef;
  if (!ref) return [];
  const out: AlertDraft[] = [];
  const subject = canonicalSubject({ kind: 'User', name: rec.user.username });
  const node = rec.user.nodeName ?? nodeNameFromUsername(rec.user.username) ?? '';
  const add = (check: AuditCheckId, objects: ObjectRef[], detail: string, extra: Partial<AlertDraft> = {}) =>
    out.push({ check, key: keyOf(subject, objects), subject, objects, node, detail, ...(rec.reason && !ok ? { reason: rec.reason } : {}), ...extra });

  if (ref.apiGroup === 'resource.k8s.io') {
    const isClaim = ref.resource === 'resourceclaims' || ref.resource === 'resourceclaimtemplates';
    if (isClaim && ref.subresource === '' && rec.verb === 'create' && rec.adminAccess) add('AUDIT001', [objectOf(rec)], `create ${outcome(ok, rec)}`);
    if ((isClaim || ref.resource === 'deviceclasses') && ref.subresource === '' && MUTATIONS.has(rec.verb) && (rec.opaqueBytes ?? 0) > OPAQUE_ALERT_BYTES)
      add('AUDIT002', [objectOf(rec)], `${rec.verb} with ${rec.opaqueBytes} bytes of opaque parameters, ${outcome(ok, rec)}`);
    if (ok && MUTATIONS.has(rec.verb) && ref.resource === 'deviceclasses') add('AUDIT003', [objectOf(rec)], rec.verb);
    if (ok && MUTATIONS.has(rec.verb) && ref.resource === 'resourceslices' && !rec.impersonatedUser) {
      const isNode = nodeNameFromUsername(rec.user.username) !== undefined;
      const janitor = rec.verb.startsWith('delete') && SLICE_JANITORS.has(rec.user.username);
      if (!isNode && !janitor)
        add('AUDIT003', [objectOf(rec)], `${rec.verb}${rec.sliceDriver ? ` (driver ${rec.sliceDriver})` : ''}`, {
          writerIsServiceAccount: parseServiceAccountUsername(rec.user.username) !== undefined,
        });
    }
    // The granular checks run inside a resourceclaims/status write; a literal driver/binding subresource is counted too.
    const sub = rec.draDenied ?? (denied && (ref.subresource === 'driver' || ref.subresource === 'binding') ? ref.subresource : undefined);
    if (sub && ref.resource === 'resourceclaims' && (rec.verb === 'update' || rec.verb === 'patch')) {
      add('AUDIT004', node ? [{ kind: 'Node', name: node }] : [], `${rec.verb} resourceclaims/${sub}`);
    }
  }
  const impersonated = impersonationTarget(rec);
  const target = impersonated ? nodeNameFromUsername(impersonated.username) : undefined;
  if (
    target !== undefined &&
    ref.apiGroup === '' &&
    ref.resource === 'nodes' &&
    ref.subresource === 'status' &&
    (rec.verb === 'update' || rec.verb === 'patch') &&
    rec.user.nodeName !== target
  ) {
    add(
      'AUDIT005',
      [{ kind: 'Node', name: target }],
      `${rec.verb} nodes/status as system:node:${target} ${outcome(ok, rec)}${rec.user.nodeName ? ` from a pod on ${rec.user.nodeName}` : ' without a pod-bound token'}`,
    );
  }
  return out;
}
