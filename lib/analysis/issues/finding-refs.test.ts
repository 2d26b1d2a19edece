import { describe, expect, it } from 'vitest';
import { createRandom } from '@/scripts/bench/prng';
import { compareStrings, refKey, sortRefs } from '@/lib/k8s/refs';
import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';
import { affectedCounts, countTenantNamespaces, findingRefs } from './finding-refs';

type Refs = { subjects: SubjectRef[]; objects: ObjectRef[] };

// The plain reading the nested maps replace: one refKey per ref.
function plainAffected(findings: readonly Refs[], causes: readonly ObjectRef[]): Record<string, number> {
  const causeKeys = new Set(causes.map(refKey));
  const kindOf = new Map<string, string>();
  for (const f of findings) for (const r of [...f.subjects, ...f.objects]) if (!causeKeys.has(refKey(r))) kindOf.set(refKey(r), r.kind);
  const counts = new Map<string, number>();
  for (const kind of kindOf.values()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const out: Record<string, number> = {};
  for (const kind of [...counts.keys()].sort(compareStrings)) out[kind] = counts.get(kind)!;
  return out;
}

function plainTenants(findings: readonly Refs[], isTenant: (ns: string) => boolean): number {
  const tenants = new Set<string>();
  for (const f of findings)
    for (const r of [...f.subjects, ...f.objects]) {
      const ns = r.kind === 'Namespace' ? r.name : r.namespace;
      if (ns && isTenant(ns)) tenants.add(ns);
    }
  return tenants.size;
}

const KINDS = ['Namespace', 'ServiceAccount', 'User', 'Group', 'Role', 'ClusterRole', 'Pod', 'RoleBinding'];

function randomCase(seed: number) {
  const rnd = createRandom(seed);
  const namespaces = [undefined, '', 'a', 'b', 'tenant-1', 'tenant-2', 'kube-system'];
  const names = ['x', 'y', 'z', 'a', 'tenant-1', 'kube-system', ''];
  const ref = (): ObjectRef => {
    const namespace = rnd.pick(namespaces);
    const r: ObjectRef = { kind: rnd.pick(KINDS), name: rnd.pick(names) };
    return namespace === undefined ? r : { ...r, namespace };
  };
  const findings: Refs[] = Array.from({ length: 1 + rnd.int(12) }, () => ({
    subjects: Array.from({ length: rnd.int(4) }, () => ref() as SubjectRef),
    objects: Array.from({ length: rnd.int(5) }, ref),
  }));
  // Causes as rootCauseOf gives them (distinct, sorted): mostly refs of the findings, some not.
  const causes = sortRefs(
    Array.from({ length: rnd.int(4) }, () => (rnd.chance(0.7) && findings[0].objects.length > 0 ? rnd.pick(findings[0].objects) : ref())),
  );
  const tenants = new Set(namespaces.filter((ns) => ns && rnd.chance(0.5)) as string[]);
  return { findings, causes, isTenant: (ns: string) => tenants.has(ns) };
}

describe('finding refs', () => {
  it('count affected refs per kind and tenant namespaces as one refKey per ref does, on 500 random issues', () => {
    let nonEmpty = 0;
    for (let seed = 1; seed <= 500; seed++) {
      const { findings, causes, isTenant } = randomCase(seed);
      const tree = findingRefs(findings);
      const affected = affectedCounts(tree, causes);
      expect(affected, `seed ${seed}`).toEqual(plainAffected(findings, causes));
      expect(Object.keys(affected), `seed ${seed} order`).toEqual(Object.keys(plainAffected(findings, causes)));
      expect(countTenantNamespaces(tree, isTenant), `seed ${seed} tenants`).toBe(plainTenants(findings, isTenant));
      if (Object.keys(affected).length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(400);
  });

  it('a ref without a namespace and one with an empty namespace are the same ref', () => {
    const tree = findingRefs([{ subjects: [{ kind: 'User', name: 'u' }], objects: [{ kind: 'User', name: 'u', namespace: '' }] }]);
    expect(affectedCounts(tree, [])).toEqual({ User: 1 });
    expect(affectedCounts(tree, [{ kind: 'User', name: 'u' }])).toEqual({});
  });
});
