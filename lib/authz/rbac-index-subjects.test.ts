import { describe, expect, it } from 'vitest';
import type { Subject, SubjectRef } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { normaliseSubjects } from './rbac-index';

// normaliseSubjects sizes its list when every subject is kept: the same subjects, in the same order
// and shape, as keeping them one by one.
function plain(subjects: Subject[] | null | undefined, bindingNamespace: string): SubjectRef[] {
  const out: SubjectRef[] = [];
  for (const s of subjects ?? []) {
    if (s.kind === 'User' || s.kind === 'Group') out.push({ kind: s.kind, name: s.name });
    else if (s.kind === 'ServiceAccount') {
      const namespace = s.namespace || bindingNamespace;
      if (namespace === '') continue;
      out.push({ kind: 'ServiceAccount', name: s.name, namespace });
    }
  }
  return out;
}

describe('normaliseSubjects', () => {
  for (let seed = 1; seed <= 200; seed++) {
    it(`keeps what the plain loop keeps (seed ${seed})`, () => {
      const r = createRandom(4100 + seed);
      const subject = (): Subject => {
        const s: Subject = { kind: r.pick(['User', 'Group', 'ServiceAccount', 'ServiceAccount', 'Robot', '']), name: r.pick(['a', 'b', 'sa']) };
        if (r.chance(0.5)) s.namespace = r.pick(['', 'ns1', 'ns2']);
        if (r.chance(0.3)) s.apiGroup = 'rbac.authorization.k8s.io';
        return s;
      };
      const subjects = r.chance(0.1) ? r.pick([null, undefined]) : Array.from({ length: r.int(5) }, subject);
      const ns = r.pick(['', 'ns1']);
      const got = normaliseSubjects(subjects, ns);
      expect(JSON.stringify(got)).toBe(JSON.stringify(plain(subjects, ns)));
      expect(got).toEqual(plain(subjects, ns));
    });
  }
});
