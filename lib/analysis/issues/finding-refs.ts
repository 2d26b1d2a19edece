import type { Finding } from '@/lib/analysis/types';
import { compareStrings } from '@/lib/k8s/refs';
import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';

// The distinct refs of an issue's findings (subjects and objects), by kind, then namespace, then
// name: what an issue counts as affected and which tenant namespaces it touches. Kept as nested maps
// of the refs' own strings: a refKey string per ref was most of grouping 27,000 findings into issues.

/** Kind → namespace ('' for none) → names. */
export type RefTree = Map<string, Map<string, Set<string>>>;

/** The distinct subjects and objects of the findings (as by refKey). */
export function findingRefs(findings: readonly Pick<Finding, 'subjects' | 'objects'>[]): RefTree {
  const tree: RefTree = new Map();
  for (const f of findings) {
    addRefs(tree, f.subjects);
    addRefs(tree, f.objects);
  }
  return tree;
}

function addRefs(tree: RefTree, refs: readonly (SubjectRef | ObjectRef)[]): void {
  for (let i = 0; i < refs.length; i++) {
    const r = refs[i];
    let byNamespace = tree.get(r.kind);
    if (!byNamespace) tree.set(r.kind, (byNamespace = new Map()));
    const ns = r.namespace ?? '';
    let names = byNamespace.get(ns);
    if (!names) byNamespace.set(ns, (names = new Set()));
    names.add(r.name);
  }
}

/** Per kind (sorted), how many of the refs are not among `causes` (distinct refs); kinds with none left out. */
export function affectedCounts(tree: RefTree, causes: readonly ObjectRef[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const [kind, byNamespace] of tree) {
    let n = 0;
    for (const names of byNamespace.values()) n += names.size;
    counts.set(kind, n);
  }
  // `causes` are distinct: each one among the refs is one fewer of its kind.
  for (const c of causes)
    if (
      tree
        .get(c.kind)
        ?.get(c.namespace ?? '')
        ?.has(c.name)
    )
      counts.set(c.kind, counts.get(c.kind)! - 1);
  const affected: Record<string, number> = {};
  for (const kind of [...counts.keys()].sort(compareStrings)) {
    const n = counts.get(kind)!;
    if (n > 0) affected[kind] = n;
  }
  return affected;
}

/** How many distinct namespaces of the refs (a Namespace ref counts as its own) pass `isTenant`. */
export function countTenantNamespaces(tree: RefTree, isTenant: (namespace: string) => boolean): number {
  const seen = new Set<string>();
  for (const [kind, byNamespace] of tree) {
    if (kind === 'Namespace') {
      for (const names of byNamespace.values()) for (const name of names) if (name) seen.add(name);
    } else for (const ns of byNamespace.keys()) if (ns) seen.add(ns);
  }
  let n = 0;
  for (const ns of seen) if (isTenant(ns)) n++;
  return n;
}
