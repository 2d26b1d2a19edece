import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { clusterRole, crb, Group, rb, SA, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import { refKey } from '@/lib/k8s/refs';
import type { Subject, SubjectRef } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { canonicalSubject } from './identities';
import { roleBindingMembership } from './membership';

// Membership read per namespace and per asked subject, against the plain reading: every subject of
// every RoleBinding (not ClusterRoleBinding) by its canonical key (a service account's username is
// the account), per namespace and per subject.
describe('roleBindingMembership on random bindings', () => {
  for (let seed = 0; seed < 40; seed++) {
    it(`seed ${seed}`, () => {
      const r = createRandom(5100 + seed);
      const namespaces = ['a', 'b', 'c', 'd'];
      const subject = (): Subject => {
        const ns = r.pick(namespaces);
        // 'q:r': a service account whose username a User subject can spell without being that account.
        const name = r.pick(['x', 'y', 'z', 'q:r']);
        switch (r.int(5)) {
          case 0:
            return SA(ns, name);
          case 1:
            return User(`system:serviceaccount:${ns}:${name}`);
          case 2:
            return User(name);
          case 3:
            return Group(r.chance(0.5) ? name : `system:serviceaccounts:${ns}`);
          default:
            return SA(undefined, name);
        }
      };
      const subjects = () => Array.from({ length: r.int(4) }, subject);
      const roleBindings = Array.from({ length: r.int(12) }, (_, i) => rb(r.pick(namespaces), `rb${i}`, { kind: 'ClusterRole', name: 'view' }, subjects()));
      const clusterBindings = Array.from({ length: r.int(4) }, (_, i) => crb(`crb${i}`, { kind: 'ClusterRole', name: 'view' }, subjects()));
      const engine = createAuthzEngine(stateOf({ clusterRoles: [clusterRole('view', [])], roleBindings, clusterRoleBindings: clusterBindings }));

      const byNamespace = new Map<string, Set<string>>();
      const bySubject = new Map<string, Set<string>>();
      for (const b of engine.rbac.bindings) {
        if (b.ref.kind !== 'RoleBinding') continue;
        for (const s of b.subjects) {
          const key = refKey(canonicalSubject(s));
          byNamespace.set(b.ref.namespace!, (byNamespace.get(b.ref.namespace!) ?? new Set()).add(key));
          bySubject.set(key, (bySubject.get(key) ?? new Set()).add(b.ref.namespace!));
        }
      }
      const membership = roleBindingMembership(engine.rbac);
      const asking = new Map(Array.from({ length: 30 }, () => canonicalSubject(subject() as SubjectRef)).map((s) => [refKey(s), s] as const));
      for (const ns of [...namespaces, 'e'])
        for (const [key, s] of asking) expect([ns, key, membership.namesIn(ns, s)]).toEqual([ns, key, byNamespace.get(ns)?.has(key) ?? false]);
      const asked = new Set([...asking.keys()].filter(() => r.chance(0.6)));
      // Each subject asked once or twice: the answer is by key.
      const naming = membership.namespacesNaming([...asked].flatMap((k) => (r.chance(0.3) ? [asking.get(k)!, asking.get(k)!] : [asking.get(k)!])));
      // Each key's namespaces in binding order, as the plain reading adds them.
      expect(Object.fromEntries([...naming].map(([k, v]) => [k, [...v]]))).toEqual(
        Object.fromEntries([...bySubject].filter(([k]) => asked.has(k)).map(([k, v]) => [k, [...v]])),
      );
      expect(naming.size).toBe([...bySubject.keys()].filter((k) => asked.has(k)).length);
    });
  }
});
