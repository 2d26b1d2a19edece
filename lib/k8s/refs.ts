import type { ObjectRef, SubjectRef } from './types';

// One vocabulary for references to Kubernetes objects and RBAC subjects: how they are keyed,
// ordered, built and described. Every other module uses these instead of its own copy.

/** Anything with a kind, a name and perhaps a namespace: an ObjectRef, a SubjectRef, a binding. */
export interface RefLike {
  kind: string;
  name: string;
  namespace?: string;
}

/**
 * Byte-order string comparison for deterministic sorting (Go's sort order, independent of locale;
 * localeCompare would make report order depend on the machine).
 */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `kind/namespace/name` (empty namespace for cluster-scoped refs): the one key for maps and IDs. */
export function refKey(ref: RefLike): string {
  return `${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
}

/** Kind, then namespace, then name. */
export function compareRefs(a: RefLike, b: RefLike): number {
  return compareStrings(a.kind, b.kind) || compareStrings(a.namespace ?? '', b.namespace ?? '') || compareStrings(a.name, b.name);
}

const SUBJECT_KIND_ORDER: Record<string, number> = { Group: 0, User: 1, ServiceAccount: 2 };

/** Groups, then users, then service accounts; within a kind by namespace and name. */
export function compareSubjects(a: SubjectRef, b: SubjectRef): number {
  return (
    (SUBJECT_KIND_ORDER[a.kind] ?? 9) - (SUBJECT_KIND_ORDER[b.kind] ?? 9) ||
    compareStrings(a.namespace ?? '', b.namespace ?? '') ||
    compareStrings(a.name, b.name)
  );
}

/** An ObjectRef with the namespace key only when there is one (cluster-scoped refs carry none). */
export function objectRef(kind: string, name: string, namespace?: string): ObjectRef {
  return namespace ? { kind, namespace, name } : { kind, name };
}

/** The ObjectRef of anything ref-like (a binding, a role), keeping only kind, namespace and name. */
export function toObjectRef(r: RefLike): ObjectRef {
  return objectRef(r.kind, r.name, r.namespace);
}

/** A SubjectRef; a namespace is kept when given, even empty (a ServiceAccount always has the key). */
export function subjectRef(kind: SubjectRef['kind'], name: string, namespace?: string): SubjectRef {
  return namespace !== undefined ? { kind, name, namespace } : { kind, name };
}

/** `ns/name` for namespaced refs, `name` otherwise. */
export function refName(r: RefLike): string {
  return r.namespace ? `${r.namespace}/${r.name}` : r.name;
}

/** "RoleBinding ns/name", "ClusterRole name". */
export function describeRef(r: RefLike): string {
  return `${r.kind} ${refName(r)}`;
}

/** "ServiceAccount ns/name" (always with the slash), "User alice", "Group g". */
export function describeSubject(s: SubjectRef): string {
  return s.kind === 'ServiceAccount' ? `ServiceAccount ${s.namespace ?? ''}/${s.name}` : `${s.kind} ${s.name}`;
}

/** Refs without duplicates (by refKey), sorted by kind, namespace and name. */
export function sortRefs<T extends RefLike>(refs: readonly T[]): T[] {
  const seen = new Map<string, T>();
  for (const r of refs) seen.set(refKey(r), r);
  return [...seen.values()].sort(compareRefs);
}

/** Subjects without duplicates (by refKey), in subject order. */
export function sortSubjects(subjects: readonly SubjectRef[]): SubjectRef[] {
  const seen = new Map<string, SubjectRef>();
  for (const s of subjects) seen.set(refKey(s), s);
  return [...seen.values()].sort(compareSubjects);
}
