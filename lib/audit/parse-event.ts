import { NODE_NAME_EXTRA } from '@/lib/authz/user-info';
import type { AuditDecision, AuditObjectRef, AuditRecord, AuditUser } from './types';

// A hand-written validator for the hot path (millions of events): it reads only the fields the
// analysis uses, checks their types, and names the first field that is wrong.

export type ParsedEvent = { kind: 'event'; record: AuditRecord } | { kind: 'skip' } | { kind: 'error'; error: string };

const DECISION = 'authorization.k8s.io/decision';
const REASON = 'authorization.k8s.io/reason';

/** Stages that carry the outcome; RequestReceived and ResponseStarted repeat the same request. */
const FINAL_STAGES = new Set(['ResponseComplete', 'Panic']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

class FieldError extends Error {}

function str(o: Obj, key: string, where: string, required: boolean): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) throw new FieldError(`${where}${key} is missing`);
    return undefined;
  }
  if (typeof v !== 'string') throw new FieldError(`${where}${key} must be a string`);
  return v;
}

function user(v: unknown, where: string): AuditUser {
  if (!isObj(v)) throw new FieldError(`${where} must be an object`);
  const username = str(v, 'username', `${where}.`, false) ?? '';
  const groups = v.groups ?? [];
  if (!Array.isArray(groups) || groups.some((g) => typeof g !== 'string')) throw new FieldError(`${where}.groups must be a list of strings`);
  const out: AuditUser = { username, groups: groups as string[] };
  const extra = v.extra;
  if (extra !== undefined && extra !== null) {
    if (!isObj(extra)) throw new FieldError(`${where}.extra must be an object`);
    const node = extra[NODE_NAME_EXTRA];
    // Same rule as the authorizers: exactly one non-empty value, else no node.
    if (Array.isArray(node) && node.length === 1 && typeof node[0] === 'string' && node[0] !== '') out.nodeName = node[0];
  }
  return out;
}

function readAuditObjectRef(v: unknown): AuditObjectRef | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObj(v)) throw new FieldError('objectRef must be an object');
  return {
    apiGroup: str(v, 'apiGroup', 'objectRef.', false) ?? '',
    resource: str(v, 'resource', 'objectRef.', false) ?? '',
    subresource: str(v, 'subresource', 'objectRef.', false) ?? '',
    namespace: str(v, 'namespace', 'objectRef.', false) ?? '',
    name: str(v, 'name', 'objectRef.', false) ?? '',
  };
}

function time(o: Obj): number {
  for (const key of ['stageTimestamp', 'requestReceivedTimestamp']) {
    const s = str(o, key, '', false);
    if (s === undefined) continue;
    const t = Date.parse(s);
    if (Number.isNaN(t)) throw new FieldError(`${key} is not a timestamp ("${s.slice(0, 40)}")`);
    return t;
  }
  throw new FieldError('stageTimestamp is missing');
}

/** The node of the strict single-node selector form (one term, one matchFields metadata.name In [node]). */
function strictNode(selector: unknown): string | undefined {
  if (!isObj(selector) || !Array.isArray(selector.nodeSelectorTerms) || selector.nodeSelectorTerms.length !== 1) return undefined;
  const term = selector.nodeSelectorTerms[0];
  if (!isObj(term) || (Array.isArray(term.matchExpressions) && term.matchExpressions.length > 0)) return undefined;
  const fields = term.matchFields;
  if (!Array.isArray(fields) || fields.length !== 1) return undefined;
  const f = fields[0];
  if (!isObj(f) || f.key !== 'metadata.name' || f.operator !== 'In' || !Array.isArray(f.values) || f.values.length !== 1 || typeof f.values[0] !== 'string')
    return undefined;
  return f.values[0];
}

/** A claim status body: which drivers have device entries, the allocated node, whether allocation is set. */
function inspectStatusBody(rec: AuditRecord, body: unknown): void {
  if (!isObj(body) || !isObj(body.status)) return;
  const status = body.status;
  if (Array.isArray(status.devices)) {
    const drivers = new Set<string>();
    for (const d of status.devices) if (isObj(d) && typeof d.driver === 'string') drivers.add(d.driver);
    if (drivers.size > 0) rec.statusDrivers = [...drivers].sort();
  }
  if (isObj(status.allocation) || (Array.isArray(status.reservedFor) && status.reservedFor.length > 0)) rec.bindingInBody = true;
  if (isObj(status.allocation)) {
    const node = strictNode(status.allocation.nodeSelector);
    if (node !== undefined) rec.allocatedNode = node;
  }
}

/** Request bodies of DRA objects: adminAccess on any request, the largest opaque parameters, a slice's driver. */
function inspectBody(rec: AuditRecord, body: unknown): void {
  if (!isObj(body)) return;
  if (rec.objectRef?.subresource === 'status') return inspectStatusBody(rec, body);
  const spec = body.spec;
  if (!isObj(spec)) return;
  // A ResourceClaimTemplate nests the claim spec one level down.
  const claimSpec = isObj(spec.spec) ? spec.spec : spec;
  const devices = isObj(claimSpec.devices) ? claimSpec.devices : undefined;
  if (devices && Array.isArray(devices.requests)) {
    for (const r of devices.requests) {
      if (!isObj(r)) continue;
      // v1: requests[].exactly.adminAccess; v1beta1: requests[].adminAccess; firstAvailable subrequests too.
      const candidates = [r, r.exactly, ...(Array.isArray(r.firstAvailable) ? r.firstAvailable : [])];
      if (candidates.some((c) => isObj(c) && c.adminAccess === true)) rec.adminAccess = true;
    }
  }
  // Claims: spec.devices.config[]; DeviceClasses: spec.config[].
  const configs = [...(devices && Array.isArray(devices.config) ? devices.config : []), ...(Array.isArray(spec.config) ? spec.config : [])];
  for (const c of configs) {
    if (!isObj(c) || !isObj(c.opaque) || c.opaque.parameters === undefined) continue;
    const size = JSON.stringify(c.opaque.parameters)?.length ?? 0;
    if (size > (rec.opaqueBytes ?? -1)) rec.opaqueBytes = size;
  }
  if (typeof spec.driver === 'string') rec.sliceDriver = spec.driver;
}

const DRA_BODY_RESOURCES = new Set(['resourceclaims', 'resourceclaimtemplates', 'deviceclasses', 'resourceslices']);

/** One decoded JSON value → a compact record, a skip (an earlier stage), or the first problem found. */
export function parseAuditEvent(value: unknown): ParsedEvent {
  try {
    if (!isObj(value)) return { kind: 'error', error: 'not a JSON object' };
    const kind = str(value, 'kind', '', false);
    if (kind !== undefined && kind !== 'Event') return { kind: 'error', error: `kind is "${kind.slice(0, 40)}", not Event` };
    const apiVersion = str(value, 'apiVersion', '', false);
    if (apiVersion !== undefined && apiVersion !== 'audit.k8s.io/v1')
      return { kind: 'error', error: `apiVersion "${apiVersion.slice(0, 40)}" is not audit.k8s.io/v1` };
    const stage = str(value, 'stage', '', true)!;
    if (!FINAL_STAGES.has(stage)) return { kind: 'skip' };
    const rec: AuditRecord = {
      auditID: str(value, 'auditID', '', false) ?? '',
      level: str(value, 'level', '', false) ?? '',
      verb: str(value, 'verb', '', true)!,
      user: user(value.user, 'user'),
      time: time(value),
      decision: 'unknown',
    };
    if (value.impersonatedUser !== undefined && value.impersonatedUser !== null) rec.impersonatedUser = user(value.impersonatedUser, 'impersonatedUser');
    const ref = readAuditObjectRef(value.objectRef);
    if (ref) rec.objectRef = ref;
    const status = value.responseStatus;
    if (status !== undefined && status !== null) {
      if (!isObj(status)) throw new FieldError('responseStatus must be an object');
      if (status.code !== undefined) {
        if (typeof status.code !== 'number') throw new FieldError('responseStatus.code must be a number');
        rec.code = status.code;
      }
    }
    const annotations = value.annotations;
    if (annotations !== undefined && annotations !== null && !isObj(annotations)) throw new FieldError('annotations must be an object');
    const decision = annotations?.[DECISION];
    rec.decision = decision === 'allow' || decision === 'forbid' ? (decision as AuditDecision) : rec.code === 403 ? 'forbid' : 'unknown';
    // A refusal after authorization (422 from the granular status checks) says why in the message.
    const message = isObj(status) ? (status.message ?? status.reason) : undefined;
    const reason = rec.code !== undefined && rec.code >= 400 && typeof message === 'string' && message !== '' ? message : annotations?.[REASON] || message;
    if (typeof reason === 'string' && reason !== '') rec.reason = reason.length > 500 ? `${reason.slice(0, 500)}…` : reason;
    if (rec.code === 403 && typeof message === 'string') {
      const m = /cannot (impersonate(?::|-on:)?[\w:-]*) resource/.exec(message);
      if (m) rec.impersonationRefused = m[1];
    }
    if (
      ref &&
      ref.apiGroup === 'resource.k8s.io' &&
      ref.resource === 'resourceclaims' &&
      rec.code !== undefined &&
      rec.code >= 400 &&
      typeof message === 'string'
    ) {
      if (message.includes('resourceclaims/driver')) rec.draDenied = 'driver';
      else if (message.includes('resourceclaims/binding')) rec.draDenied = 'binding';
    }
    if (ref && ref.apiGroup === 'resource.k8s.io' && DRA_BODY_RESOURCES.has(ref.resource) && value.requestObject !== undefined)
      inspectBody(rec, value.requestObject);
    return { kind: 'event', record: rec };
  } catch (e) {
    if (e instanceof FieldError) return { kind: 'error', error: e.message };
    throw e;
  }
}

/** Allowed by authorization and not refused afterwards (admission, validation): the request happened. */
export function succeeded(rec: AuditRecord): boolean {
  return rec.decision !== 'forbid' && (rec.code === undefined || rec.code < 400);
}
