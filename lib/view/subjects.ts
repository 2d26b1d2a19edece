import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';

/** `ns/name` for namespaced refs, `name` otherwise. */
export function refName(r: { name: string; namespace?: string }): string {
  return r.namespace ? `${r.namespace}/${r.name}` : r.name;
}

export function subjectLabel(s: SubjectRef): string {
  return `${s.kind} ${refName(s)}`;
}

export function objectLabel(o: ObjectRef): string {
  return `${o.kind} ${refName(o)}`;
}

export function subjectKey(s: SubjectRef): string {
  return `${s.kind}/${s.namespace ?? ''}/${s.name}`;
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
