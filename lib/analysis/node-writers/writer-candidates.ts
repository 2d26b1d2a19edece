import type { AccessIndex } from '@/lib/analysis/context/access';
import { canonicalSubject, subjectAppliesTo } from '@/lib/analysis/context/identities';
import { PROBE_NAME, PROBE_NAMESPACE } from '@/lib/analysis/evidence';
import { ruleAllowsResource } from '@/lib/authz/rule-matches';
import { candidateRulesFor } from '@/lib/authz/rbac-index';
import type { ResourceAttributes, UserInfo } from '@/lib/authz/types';

import type { PolicyRule, SubjectRef } from '@/lib/k8s/types';

import { Q } from '@/lib/analysis/context/questions';
import { pushTo } from '@/lib/k8s/push-to';
import { SubjectMatcher, userForSubject } from './subjects';

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
  /**
   * Set on a holder of resourceclaims/status that is a member of group candidates (these groups'
   * names): with granular authorization a write takes two grants, and the group's resourceclaims/driver
   * verb with the member's own resourceclaims/status makes a writer of the member. Decided after the
   * groups, and left out where one of them is listed.
   */
  memberOf?: string[];
  /** Holds resourceclaims/status through ClusterRoleBindings only for named claims: it writes those claims, never every claim by its own grant. */
  namedOnly?: boolean;
}

export function candidate(subject: SubjectRef): Candidate {
  return { subject, key: refKey(subject), user: userForSubject(subject) };
}

const groupsOf = (list: Iterable<Candidate>) => [...list].filter((c) => c.subject.kind === 'Group');

/** Adds the holders of resourceclaims/status that are members of some of `groups` and not candidates already. */
function addGroupMembers(m: Map<string, Candidate>, groups: readonly Candidate[], holders: readonly Candidate[]): void {
  if (groups.length === 0) return;
  for (const h of holders) {
    if (h.subject.kind === 'Group' || m.has(h.key)) continue;
    const memberOf = groups.filter((g) => subjectAppliesTo(g.subject, h.subject)).map((g) => g.subject.name);
    if (memberOf.length > 0) m.set(h.key, { ...candidate(h.subject), memberOf });
  }
}

/** Candidates plus a constant-time "does one of them apply to this identity" test. */
export class CandidateSet {
  readonly list: Candidate[];
  private readonly matcher: SubjectMatcher;

  constructor(candidates: Map<string, Candidate>) {
    this.list = [...candidates.values()].sort((a, b) => compareSubjects(a.subject, b.subject));
    this.matcher = new SubjectMatcher(this.list.map((c) => c.subject));
  }

  get size(): number {
    return this.list.length;
  }

  /** As subjectAppliesTo for any member. */
  appliesTo(user: UserInfo): boolean {
    return this.matcher.appliesTo(user);
  }

  /** As appliesTo(serviceAccountUser(namespace, name)): asked for every service account with pods on a node with claims. */
  appliesToAccount(namespace: string, name: string): boolean {
    return this.matcher.appliesToAccount(namespace, name);
  }
}

const NO_CANDIDATES = new CandidateSet(new Map());

/** The verbs of a status write. */
export const WRITE_VERBS = ['update', 'patch'] as const;

/** The request a candidate's grant must allow: the driver subresource with the mode's verb, or (legacy) claim status. */
function writeAttributes(kind: CandidateKind, verb: string, namespace: string, driver: string): ResourceAttributes {
  return kind === 'legacy-status'
    ? { verb, group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'status', namespace, name: '' }
    : { verb: `${kind}-node:${verb}`, group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'driver', namespace, name: driver };
}

/** Whether a rule could grant the write; before granular authorization a rule naming claims counts too. */
function ruleGrantsWrite(kind: CandidateKind, rule: PolicyRule, attrs: ResourceAttributes): boolean {
  return ruleAllowsResource(kind === 'legacy-status' ? { ...rule, resourceNames: undefined } : rule, attrs);
}

/** local()'s state for one kind and driver. */
interface LocalCandidates {
  /** The namespaces with a RoleBinding of a role that could grant the write (boundNamespaces). */
  bound: Set<string>;
  /** The candidate sets of the namespaces asked about that may hold some. */
  sets: Map<string, CandidateSet>;
  /** Whether a role could grant the write, by role: the same role is bound in thousands of namespaces. */
  roleGrants: Map<string, boolean>;
  /** Whether the driver has a cluster-wide arbitrary-node group candidate (arbitrary only; asked lazily). */
  clusterGroups?: boolean;
}

/** Finds, and keeps per driver and namespace, the binding subjects whose grants could allow a claim status write. */
export class CandidateFinder {
  private readonly clusterCache = new Map<string, CandidateSet>();
  /** By kind, then driver: asked per node, driver and namespace, so no key strings are built. */
  private readonly localCache = new Map<CandidateKind, Map<string, LocalCandidates>>();

  private holders?: { cluster: Candidate[]; byNamespace: Map<string, Candidate[]> };

  constructor(private readonly access: AccessIndex) {}

  /**
   * Subjects with update or patch on resourceclaims/status by any grant, names listed or not: those
   * of ClusterRoleBindings and, by namespace, those of RoleBindings. From the context's answer to the
   * same question.
   */
  private statusHolders(): { cluster: Candidate[]; byNamespace: Map<string, Candidate[]> } {
    if (this.holders) return this.holders;
    const cluster: Candidate[] = [];
    const byNamespace = new Map<string, Candidate[]>();
    for (const e of this.access.rbacWhoCan(Q.claimStatus)) {
      const c = candidate(canonicalSubject(e.subject));
      if (e.everyNamespace) cluster.push(c);
      for (const ns of e.namespaces) pushTo(byNamespace, ns, c);
    }
    return (this.holders = { cluster, byNamespace });
  }

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
      // Before granular authorization the grant is resourceclaims/status itself: rules naming claims
      // count too. Who is not allowed for the probe name holds no grant to every claim of its own.
      if (kind === 'legacy-status') for (const h of this.statusHolders().cluster) if (!m.has(h.key)) m.set(h.key, { ...h, namedOnly: true });
      if (kind === 'arbitrary') addGroupMembers(m, groupsOf(m.values()), this.statusHolders().cluster);
      set = new CandidateSet(m);
      this.clusterCache.set(key, set);
    }
    return set;
  }

  /**
   * The namespaces with a RoleBinding of a role that could grant the write: the roles come from the
   * engine's rule index (the rules on claims' driver or status subresource that could match), each
   * decided as local() decides it, and their RoleBindings by namespace.
   */
  private boundNamespaces(kind: CandidateKind, driver: string): Set<string> {
    const out = new Set<string>();
    const rbac = this.access.engine.rbac;
    const roles = new Set<string>();
    for (const verb of WRITE_VERBS) {
      const attrs = writeAttributes(kind, verb, '', driver);
      for (const { role, ruleIndex } of candidateRulesFor(rbac, attrs.verb, attrs.group, attrs.resource, attrs.subresource)) {
        if (!roles.has(role.key) && ruleGrantsWrite(kind, role.rules[ruleIndex].rule, attrs)) roles.add(role.key);
      }
    }
    for (const role of roles) for (const ns of rbac.roleBindingsByRole.get(role)?.keys() ?? []) out.add(ns);
    return out;
  }

  /** What local() keeps for one kind and driver, made on its first question. */
  private localOf(kind: CandidateKind, driver: string): LocalCandidates {
    let byDriver = this.localCache.get(kind);
    if (!byDriver) this.localCache.set(kind, (byDriver = new Map()));
    let out = byDriver.get(driver);
    if (!out) byDriver.set(driver, (out = { bound: this.boundNamespaces(kind, driver), sets: new Map(), roleGrants: new Map() }));
    return out;
  }

  /** Whether a holder of resourceclaims/status in `ns` may complete a cluster-wide arbitrary-node group candidate. */
  private completesClusterGroup(driver: string, ns: string, local: LocalCandidates): boolean {
    if ((this.statusHolders().byNamespace.get(ns)?.length ?? 0) === 0) return false;
    // Whether the driver has a cluster-wide group candidate: asked for many namespaces, answered once.
    return (local.clusterGroups ??= groupsOf(this.cluster('arbitrary', driver).list).length > 0);
  }

  /**
   * The namespaces other than '' in which local(kind, ns, driver) may hold candidates: everywhere else
   * it is empty. For callers that skip those namespaces without asking each (tens of thousands).
   */
  localNamespaces(kind: CandidateKind, driver: string): ReadonlySet<string> {
    const cached = this.localOf(kind, driver);
    if (kind !== 'arbitrary' || !(cached.clusterGroups ??= groupsOf(this.cluster('arbitrary', driver).list).length > 0)) return cached.bound;
    return new Set([...cached.bound, ...this.statusHolders().byNamespace.keys()]);
  }

  /** Binding subjects of the namespace's RoleBindings whose role could grant the write. */
  local(kind: CandidateKind, ns: string, driver: string): CandidateSet {
    const cached = this.localOf(kind, driver);
    let set = cached.sets.get(ns);
    if (!set) {
      // Most namespaces bind no role that could grant the write (nor hold a member of a cluster-wide
      // candidate group): they share the empty set without a look at their bindings.
      if (ns !== '' && !cached.bound.has(ns) && (kind !== 'arbitrary' || !this.completesClusterGroup(driver, ns, cached))) return NO_CANDIDATES;
      const m = new Map<string, Candidate>();
      const roleGrants = cached.roleGrants;
      for (const b of this.access.bindingsByNamespace().get(ns) ?? []) {
        if (!b.role) continue;
        // Rules carry no namespace, so the answer holds for the role wherever it is bound.
        let matches = roleGrants.get(b.role.key);
        if (matches === undefined) {
          matches = b.role.rules.some(({ rule }) => WRITE_VERBS.some((verb) => ruleGrantsWrite(kind, rule, writeAttributes(kind, verb, ns, driver))));
          roleGrants.set(b.role.key, matches);
        }
        if (!matches) continue;
        for (const s of b.subjects) {
          const subject = canonicalSubject(s);
          const c = candidate(subject);
          m.set(c.key, c);
        }
      }
      // Only arbitrary-node needs the members: associated-node candidates are the node's own service
      // accounts, decided with their full identity wherever a group's grant applies to them.
      if (kind === 'arbitrary') {
        // Holders of resourceclaims/status here completing a driver grant of a group (here or
        // cluster-wide), and cluster-wide holders completing one of a group bound here.
        const cluster = groupsOf(this.cluster(kind, driver).list);
        const local = groupsOf(m.values());
        const holders = this.statusHolders();
        addGroupMembers(m, [...local, ...cluster], holders.byNamespace.get(ns) ?? []);
        addGroupMembers(m, local, holders.cluster);
      }
      // Most namespaces have none: they share one empty set.
      set = m.size === 0 ? NO_CANDIDATES : new CandidateSet(m);
      cached.sets.set(ns, set);
    }
    return set;
  }
}
