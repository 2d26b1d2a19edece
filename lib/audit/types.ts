// The compact, validated form of one audit.k8s.io/v1 Event: only what the activity analysis needs,
// so a stream of millions of events never keeps request bodies or user agents around.

export interface AuditUser {
  username: string;
  groups: string[];
  /** authentication.kubernetes.io/node-name of a pod-bound service-account token (exactly one value). */
  nodeName?: string;
}

export interface AuditObjectRef {
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

export type AuditDecision = 'allow' | 'forbid' | 'unknown';

export interface AuditRecord {
  auditID: string;
  level: string;
  verb: string;
  user: AuditUser;
  impersonatedUser?: AuditUser;
  objectRef?: AuditObjectRef;
  /** Epoch milliseconds of stageTimestamp (or requestReceivedTimestamp). */
  time: number;
  code?: number;
  decision: AuditDecision;
  /** annotations["authorization.k8s.io/reason"], else responseStatus.reason/message. */
  reason?: string;
  /** From requestObject (Request or RequestResponse level): any request with adminAccess: true. */
  adminAccess?: boolean;
  /** From requestObject: the largest opaque.parameters in UTF-16 code units of its JSON text. */
  opaqueBytes?: number;
  /** From requestObject (Request level or above): spec.driver of a ResourceSlice. */
  sliceDriver?: string;
  /**
   * A claim status write refused by the v1.36 granular checks (the synthetic resourceclaims/driver or
   * resourceclaims/binding authorization inside the status update; the response is 422 or 403, the
   * event's objectRef stays resourceclaims/status).
   */
  draDenied?: 'driver' | 'binding';
  /** From a resourceclaims/status body: drivers of status.devices entries. */
  statusDrivers?: string[];
  /** From a resourceclaims/status body: the strict single node of status.allocation.nodeSelector. */
  allocatedNode?: string;
  /**
   * A request refused at impersonation: the event then has no impersonatedUser, only the message
   * (`cannot impersonate-on:arbitrary-node:update resource "nodes/status"`). The verb checked.
   */
  impersonationRefused?: string;
  /** From a resourceclaims/status body: status.allocation or status.reservedFor present. */
  bindingInBody?: boolean;
}

/** Where a line that is not a valid event was, and why. */
export interface MalformedLine {
  file: string;
  line: number;
  error: string;
}
