import type { ObjectRef } from '@/lib/k8s/types';

// The admission request a ValidatingAdmissionPolicy sees (admission.k8s.io AdmissionRequest, as the
// CEL variable `request` and the match rules read it), and the three outcomes of evaluating the
// policies on it.

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionUser {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export interface AdmissionRequest {
  operation: AdmissionOperation;
  group: string;
  /** The version the request was sent in (the object's apiVersion). */
  version: string;
  resource: string;
  /** '' for the main resource. */
  subresource: string;
  kind: string;
  /** '' for cluster-scoped resources. */
  namespace: string;
  /** The object's name ('' when the server generates it). */
  name: string;
  /** The object after the write (null for DELETE). */
  object: unknown;
  /** The stored object (null for CREATE). */
  oldObject: unknown;
  userInfo: AdmissionUser;
  dryRun?: boolean;
}

/** Which policy and binding (and parameter object) an outcome comes from. */
export interface PolicyBindingRef {
  policy: ObjectRef;
  binding: ObjectRef;
  param?: ObjectRef;
}

export type AdmissionOutcome =
  | { outcome: 'admit'; /** The bindings that matched and passed (with Deny), for the explanation. */ checked: PolicyBindingRef[]; warnings: string[] }
  | { outcome: 'deny'; by: PolicyBindingRef; message: string; warnings: string[] }
  | { outcome: 'unknown'; by: PolicyBindingRef; reason: string; warnings: string[] };
