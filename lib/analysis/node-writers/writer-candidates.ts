import type { AccessIndex } from '@/lib/analysis/context/access';
import { canonicalSubject } from '@/lib/analysis/context/identities';
import { PROBE_NAME, PROBE_NAMESPACE } from '@/lib/analysis/evidence';
import { ruleAllowsResource } from '@/lib/authz/rule-matches';
import type { UserInfo } from '@/lib/authz/types';

import { serviceAccountUsername } from '@/lib/authz/user-info';

import type { SubjectRef } from '@/lib/k8s/types';

import { userForSubject } from './subjects';

import { compareSubjects, refKey } from '@/lib/k8s/refs';

// Candidate writers of claim status: binding subjects with the identity each stands for, and a set
// that tells in constant time whether any of them applies to an identity.

/** associated-node / arbitrary-node verbs on resourceclaims/driver, or (before 1.36) resourceclaims/status itself. */
export type CandidateKind = 'associated' | 'arbitrary' | 'legacy-status';

export interface Candidate {
  subject: SubjectRef;
  /** refKey(subject) and the identity, computed once: candidates are tested per node and namespace. */
  key: string;
  user: UserInfo;
}

export function candidate(subject: SubjectRef): Candidate {
  return { subject, key: refKey(subject), user: userForSubject(subject) };
}

/** Candidates plus a constant-time "does one of them apply to this identity" test. */
export class CandidateSet {
  readonly list: Candidate[];
  private readonly users = new Set<string>();
  private readonly groups = new Set<string>();

  constructor(candidates: Map<string, Candidate>) {
    this.list = [...candidates.values()].sort((a, b) => compareSubjects(a.subject, b.subject));
    for (const { subject } of this.list) {
      if (subject.kind === 'Group') this.groups.add(subject.name);
      else this.users.add(subject.kind === 'ServiceAccount' ? serviceAccountUsername(subject.namespace ?? '', subject.name) : subject.name);
    }
  }

  get size(): number {
    return this.list.length;
  }

  /** As subjectAppliesTo for any member. */
  appliesTo(user: UserInfo): boolean {
    if (this.users.has(user.name)) return true;
    for (const g of user.groups) if (this.groups.has(g)) return true;
    return false;
  }
}

const NO_CANDIDATES = new CandidateSet(new Map());

/** The verbs of a status write. */
export const WRITE_VERBS = ['update', 'patch'] as const;

/** Finds, and keeps per driver and namespace, the binding subjects whose grants could allow a claim status write. */
export class CandidateFinder {
  private readonly clusterCache = new Map<string, CandidateSet>();
  /** By kind and driver, then namespace: asked per node, driver and namespace, so no key strings are built. */
  private readonly localCache = new Map<CandidateKind, Map<string, Map<string, CandidateSet>>>();
  /** Whether a role could grant the write, by kind and driver, then role: the same role is bound in thousands of namespaces. */
  private readonly roleGrants = new Map<string, Map<string, boolean>>();

  constructor(private readonly access: AccessIndex) {}

  /** Binding subjects of ClusterRoleBindings that could grant the write (any namespace). */
  cluster(kind: CandidateKind, driver: string): CandidateSet {
    const key = `${kind}|${driver}`;
    let set = this.clusterCache.get(key);
    if (!set) {
      const m = new Map<string, Candidate>();
      for (const verb of WRITE_VERBS) {
        const resource =
          kind === 'legacy-status'
            ? { verb, group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'status', namespace: PROBE_NAMESPACE, name: PROBE_NAME }
            : {
                verb: `${kind}-node:${verb}`,
                group: 'resource.k8s.io',
                resource: 'resourceclaims',
                subresource: 'driver',
                namespace: PROBE_NAMESPACE,
                name: driver,
              };
        for (const e of this.access.engine.whoCan({ resource })) {
          if (e.via !== 'rbac') continue;
          const subject = canonicalSubject(e.subject);
          const c = candidate(subject);
          m.set(c.key, c);
        }
      }
      set = new CandidateSet(m);
      this.clusterCache.set(key, set);
    }
    return set;
  }

  /** Binding subjects of the namespace's RoleBindings whose role could grant the write. */
  local(kind: CandidateKind, ns: string, driver: string): CandidateSet {
    let byDriver = this.localCache.get(kind);
    if (!byDriver) this.localCache.set(kind, (byDriver = new Map()));
    let byNamespace = byDriver.get(driver);
    if (!byNamespace) byDriver.set(driver, (byNamespace = new Map()));
    let set = byNamespace.get(ns);
    if (!set) {
      const m = new Map<string, Candidate>();
      const grantsKey = `${kind}|${driver}`;
      let roleGrants = this.roleGrants.get(grantsKey);
      if (!roleGrants) this.roleGrants.set(grantsKey, (roleGrants = new Map()));
      for (const b of this.access.bindingsByNamespace().get(ns) ?? []) {
        if (!b.role) continue;
        // Rules carry no namespace, so the answer holds for the role wherever it is bound.
        let matches = roleGrants.get(b.role.key);
        if (matches === undefined) {
          matches = b.role.rules.some(({ rule }) =>
            WRITE_VERBS.some((verb) =>
              kind === 'legacy-status'
                ? ruleAllowsResource(
                    { ...rule, resourceNames: undefined },
                    { verb, group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'status', namespace: ns, name: '' },
                  )
                : ruleAllowsResource(rule, {
                    verb: `${kind}-node:${verb}`,
                    group: 'resource.k8s.io',
                    resource: 'resourceclaims',
                    subresource: 'driver',
                    namespace: ns,
                    name: driver,
                  }),
            ),
          );
          roleGrants.set(b.role.key, matches);
        }
        if (!matches) continue;
        for (const s of b.subjects) {
          const subject = canonicalSubject(s);
          const c = candidate(subject);
          m.set(c.key, c);
        }
      }
      // Most namespaces have none: they share one empty set.
      set = m.size === 0 ? NO_CANDIDATES : new CandidateSet(m);
      byNamespace.set(ns, set);
    }
    return set;
  }
}
