import { describe, expect, it } from 'vitest';
import { serviceAccountUser } from '@/lib/authz/user-info';
import type { UserInfo } from '@/lib/authz/types';
import type { SubjectRef } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { SubjectMatcher, subjectMatchesUser } from './subjects';

// SubjectMatcher answers subjectMatchesUser for a set of subjects from sets; appliesToAccount does so
// for a service account's identity without making it. Differential: random subjects and identities,
// names with extra colons and empty parts included (a username splits at any colon).

const NAMESPACES = ['', 'a', 'b', 'a:b', 'kube-system'];
const NAMES = ['', 'x', 'y', 'b:x', 'a:b'];
const GROUPS = [
  'system:serviceaccounts',
  'system:serviceaccounts:a',
  'system:serviceaccounts:',
  'system:serviceaccounts:a:b',
  'system:authenticated',
  'team',
  'system:serviceaccount:a',
];

function randomSubject(r: ReturnType<typeof createRandom>): SubjectRef {
  switch (r.int(4)) {
    case 0:
      return { kind: 'ServiceAccount', namespace: r.pick(NAMESPACES), name: r.pick(NAMES) };
    case 1:
      return { kind: 'Group', name: r.pick(GROUPS) };
    case 2:
      return { kind: 'User', name: `system:serviceaccount:${r.pick(NAMESPACES)}:${r.pick(NAMES)}` };
    default:
      return { kind: 'User', name: r.pick(['alice', 'system:serviceaccount:', 'system:serviceaccount', 'system:serviceaccounts:a']) };
  }
}

describe('SubjectMatcher', () => {
  for (let seed = 1; seed <= 60; seed++) {
    it(`answers as subjectMatchesUser over its subjects (seed ${seed})`, () => {
      const r = createRandom(900 + seed);
      const subjects = Array.from({ length: r.int(6) }, () => randomSubject(r));
      const matcher = new SubjectMatcher(subjects);
      const plain = (user: UserInfo) => subjects.some((s) => subjectMatchesUser(s, user));
      for (const ns of NAMESPACES)
        for (const name of NAMES) {
          const account = serviceAccountUser(ns, name);
          expect(matcher.appliesToAccount(ns, name), `${ns}/${name}`).toBe(plain(account));
          expect(matcher.appliesTo(account)).toBe(plain(account));
        }
      for (let i = 0; i < 20; i++) {
        const user: UserInfo = {
          name: r.pick(['alice', 'bob', ...subjects.map((s) => s.name)]),
          groups: Array.from({ length: r.int(3) }, () => r.pick(GROUPS)),
        };
        expect(matcher.appliesTo(user)).toBe(plain(user));
      }
    });
  }
});
