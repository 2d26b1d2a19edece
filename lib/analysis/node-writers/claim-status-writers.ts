import { pushTo } from '@/lib/k8s/push-to';
import type { AnalysisContext } from '@/lib/analysis/context-types';

import type { AuthzEngine } from '@/lib/authz/authz-engine';
import { allocatedNodeName, type ClaimStatusDecision } from '@/lib/authz/dra-status';
import type { UserInfo } from '@/lib/authz/types';
import { roleBindingSubjects, type SubjectEntry } from '@/lib/authz/rbac-index';

import { serviceAccountUser } from '@/lib/authz/user-info';

import type { ResourceClaim, SubjectRef } from '@/lib/k8s/types';
import type { ClaimStatusWriter, Evidence } from '@/lib/analysis/types';
import { resourceNamesInRules } from './rule-names';
import { markNamespaces } from './namespace-marks';
import { userForSubject } from './subjects';
import { decisionEvidence, normaliseEvidence, PROBE_NAME, PROBE_NAMESPACE } from '@/lib/analysis/evidence';
import { compareStrings, compareSubjects, refKey } from '@/lib/k8s/refs';
import { subjectAppliesTo } from '@/lib/analysis/context/identities';

// DESIGN §3 / dra-facts §10: per node and driver with claims allocated there, who can write those
// claims' status.devices: `associated-node` (a service account whose pod token names the claim's
// node) or `arbitrary-node` (any claim of that driver, wherever it is allocated).

const MODE_ORDER: Record<ClaimStatusWriter['mode'], number> = { 'associated-node': 0, 'arbitrary-node': 1 };

import { placeIndexed, readAllocatedClaims, type ClaimPlacement } from './claim-placement';
import type { ServiceAccountName } from '@/lib/analysis/context/pod-index';
import { candidate, CandidateFinder, WRITE_VERBS, type Candidate, type CandidateKind, type CandidateSet } from './writer-candidates';

/**
 * Writers through grants that hold in every namespace (arbitrary-node, or legacy resourceclaims/status,
 * via ClusterRoleBindings) write every claim of their driver wherever it is allocated: listed once in
 * `allNodes`. `byNode` has, per node with allocated claims, the writers specific to that node or to
 * the namespaces of its claims, and `drivers` the drivers whose claims are allocated there.
 */
interface ClaimStatusWriterMap {
  allNodes: ClaimStatusWriter[];
  byNode: Map<string, ClaimStatusWriter[]>;
  drivers: Map<string, string[]>;
}

export type WriteDecision = { mode?: ClaimStatusWriter['mode']; via: Evidence[] };

/** A non-associated writer of a driver's claims in one namespace. */
type NamespaceWriter = { subject: SubjectRef; via: Evidence[] };

/**
 * Answers per namespace (by index) for one driver, kept once asked: only namespaces with bindings
 * that may add a writer (boundFlags) are asked, so maps by index rather than arrays of every namespace.
 */
interface NamespaceAnswers {
  writers: Map<number, readonly NamespaceWriter[]>;
  local: Map<number, CandidateSet>;
}

const NO_WRITERS: readonly NamespaceWriter[] = Object.freeze([]);

const LEGACY_NOTE: Evidence = {
  type: 'note',
  text: 'granular ResourceClaim status authorization is off: resourceclaims/status alone lets it write status.devices',
};

/**
 * Owned by the analysis context (ctx.claimWriters), shared by the report and the blast radius. Candidates are the binding subjects of
 * grants that could allow the write: those of ClusterRoleBindings (one who-can question per driver)
 * and those of the RoleBindings in the claim's namespace (read from the RBAC index). Each candidate
 * is then decided by the engine (claimStatusWrite); decisions are cached on what they depend on.
 */
export class ClaimWriterAnalysis {
  readonly engine: AuthzEngine;
  readonly placement: ClaimPlacement;
  /** Every claim with an allocation, placed on a node or not. */
  readonly allocatedClaims: ResourceClaim[];
  /** By the pod index's account object: only the accounts some candidate set applies to. */
  private readonly saCandidates = new Map<ServiceAccountName, Candidate>();
  /** Names listed in resourceNames of rules on resourceclaims/status: only these claim names can change a decision. */
  private readonly statusNames: Set<string>;
  private readonly statusNamesMatter: boolean;
  private readonly userCache = new Map<string, UserInfo>();
  private readonly normalised = new WeakMap<Evidence[], Evidence[]>();
  /**
   * collectAssociated's decisions for a service account whose token names the claim's own allocated
   * node, by namespace index, driver and listed name: the node is not in the key. The token's node
   * enters a decision only through claimStatusWrite's test that it is the claim's allocated node
   * (true here on every node); the authorizers (RBAC, Node, AlwaysAllow/Deny) read the user's name
   * and groups, not its extra. Keyed by node, a plugin account on 10,000 nodes was 10,000 engine
   * questions and 10,000 evidence lists to normalise, all alike. A namespace whose RoleBindings name
   * neither the account nor its groups changes nothing either (as for namespaceWriters): those
   * namespaces share one entry (-1), where there were ~4,000 on the bench cluster's 20,000 namespaces.
   */
  private readonly clusterAccounts = new Map<string, ReadonlySet<ServiceAccountName>>();
  private readonly associatedDecisions = new Map<Candidate, Map<string, WriteDecision | null>>();
  private readonly candidates: CandidateFinder;
  private readonly decisionCache = new Map<string, WriteDecision | null>();
  /** Writers of every claim of a driver, by writerKey; filled as drivers are met. */
  private readonly everywhere = new Map<string, ClaimStatusWriter>();
  /** Per driver, those candidates by user name and by group, and the namespaces whose RoleBindings name one (as user or group). */
  private readonly candidateLookup = new Map<string, { byUser: Map<string, Candidate[]>; byGroup: Map<string, Candidate[]>; namespaces: Set<string> }>();
  /** Per driver, the ClusterRoleBinding candidates that do not write it everywhere. */
  private readonly everywhereRest = new Map<string, Candidate[]>();
  private readonly everywhereGroups = new Map<string, string[]>();
  private readonly namespaceWritersCache = new Map<string, readonly NamespaceWriter[]>();
  /**
   * What run() reads of a claim, by its position in allocatedClaims: its namespace (an index into
   * `namespaces`: the claims are sorted by namespace) and strict allocated node; and per node and
   * driver the positions of the claims placed there. Reading these arrays rather than each claim's
   * objects, and keeping answers per namespace by index rather than by name, is most of
   * what visiting 100,000 claims node by node costs.
   */
  private readonly namespaceOf: Int32Array;
  private readonly namespaces: string[] = [];
  /** By position in allocatedClaims: allocatedNodeName and driversOf each claim (read by the issues' reach too). */
  readonly strictNodes: readonly (string | undefined)[];
  readonly allocatedDrivers: readonly (readonly string[])[];
  private readonly claimNames: readonly string[];
  private readonly positions: Map<string, Map<string, number[]>>;
  /** Per driver, by namespace index: namespaceWriters when no claim's name is listed, and the associated-node RoleBinding candidates. */
  private readonly perNamespace = new Map<string, NamespaceAnswers>();
  /** By claim position: 1 when some resourceclaims/status rule lists the claim's name. */
  private readonly listedAt: Uint8Array;
  /** Per driver, by namespace index: 0 where no RoleBinding can add a writer (see boundFlags). */
  private readonly boundAt = new Map<string, Uint8Array>();

  constructor(readonly ctx: AnalysisContext) {
    this.engine = ctx.engine;
    const allocated = readAllocatedClaims(ctx.state);
    this.allocatedClaims = allocated.claims;
    const { placement, positions } = placeIndexed(ctx.state, allocated.claims, allocated.strictNodes, allocated.drivers);
    this.placement = placement;
    this.positions = positions;
    this.strictNodes = allocated.strictNodes;
    this.allocatedDrivers = allocated.drivers;
    this.claimNames = allocated.names;
    this.namespaceOf = new Int32Array(allocated.claims.length);
    for (let i = 0; i < allocated.namespaces.length; i++) {
      const ns = allocated.namespaces[i];
      if (this.namespaces.length === 0 || this.namespaces[this.namespaces.length - 1] !== ns) this.namespaces.push(ns);
      this.namespaceOf[i] = this.namespaces.length - 1;
    }
    this.statusNames = resourceNamesInRules(this.engine, 'resource.k8s.io', 'resourceclaims', 'status', WRITE_VERBS);
    this.statusNamesMatter = this.statusNames.size > 0;
    this.listedAt = new Uint8Array(allocated.claims.length);
    if (this.statusNamesMatter) for (let i = 0; i < this.listedAt.length; i++) if (this.statusNames.has(this.claimNames[i])) this.listedAt[i] = 1;
    this.candidates = new CandidateFinder(ctx.access);
  }

  private get granular(): boolean {
    return this.engine.features.granularStatusAuthorization;
  }

  run(): ClaimStatusWriterMap {
    const byNode = new Map<string, ClaimStatusWriter[]>();
    const drivers = new Map<string, string[]>();
    for (const node of [...this.positions.keys()].sort()) {
      const writers = new Map<string, ClaimStatusWriter>();
      const byDriver = this.positions.get(node)!;
      const names = [...byDriver.keys()].sort();
      drivers.set(node, names);
      for (const driver of names) this.collect(node, driver, byDriver.get(driver)!, writers);
      // Most nodes have no writer of their own.
      if (writers.size === 0) {
        byNode.set(node, []);
        continue;
      }
      // A subject that may write any node's claims needs no associated-node entry beside it.
      const arbitrary = (w: ClaimStatusWriter) => writerKey(w.driver, 'arbitrary-node', w.subject);
      const list = [...writers.values()].filter((w) => w.mode === 'arbitrary-node' || (!writers.has(arbitrary(w)) && !this.everywhere.has(arbitrary(w))));
      list.sort(compareClaimWriters);
      byNode.set(
        node,
        list.map((w) => ({ ...w, via: this.normalise(w.via) })),
      );
    }
    const allNodes = [...this.everywhere.values()].sort(compareClaimWriters).map((w) => ({ ...w, via: this.normalise(w.via) }));
    return { allNodes, byNode, drivers };
  }

  /** Writers of `driver` in every namespace, decided once per driver (any claim of it serves as the sample). */
  private writeEverywhere(driver: string, sample: ResourceClaim): Candidate[] {
    let rest = this.everywhereRest.get(driver);
    if (rest) return rest;
    rest = [];
    const kind: CandidateKind = this.granular ? 'arbitrary' : 'legacy-status';
    for (const c of membersLast(this.candidates.cluster(kind, driver).list)) {
      if (this.groupListed(driver, c)) continue;
      // Its own grant names claims: any path to every claim is another grant's, listed under that grant's subject.
      if (c.namedOnly) {
        rest.push(c);
        continue;
      }
      const d = this.clusterWideDecision(c.subject, driver, sample);
      const accepted = this.granular ? d?.mode === 'arbitrary-node' : d !== undefined;
      if (accepted) {
        const key = writerKey(driver, 'arbitrary-node', c.subject);
        this.everywhere.set(key, { driver, subject: c.subject, mode: 'arbitrary-node', via: this.granular ? d!.via : [...d!.via, LEGACY_NOTE] });
      } else rest.push(c);
    }
    this.everywhereRest.set(driver, rest);
    return rest;
  }

  /**
   * Writers of the status.devices entries of `driver` in the claims at positions `at` (all placed on
   * `node`; in allocatedClaims order, so each namespace's claims are one run of the list).
   */
  private collect(node: string, driver: string, at: readonly number[], writers: Map<string, ClaimStatusWriter>): void {
    const mode: ClaimStatusWriter['mode'] = 'arbitrary-node';
    const granular = this.granular;
    const kind: CandidateKind = granular ? 'arbitrary' : 'legacy-status';
    const claims = this.allocatedClaims;
    const namespaceOf = this.namespaceOf;

    // ClusterRoleBinding candidates that write such claims in every namespace are listed once; the
    // others may still write them through the namespaces' RoleBindings or claim names.
    const perNamespace = this.writeEverywhere(driver, claims[at[0]]);
    const answers = this.answersOf(driver);
    // associated-node: the node's accounts a cluster-wide grant applies to are found once per driver,
    // those a namespace's RoleBindings add once per namespace with claims here.
    const cluster = this.candidates.cluster('associated', driver);
    const clusterAccounts = this.clusterAccountsOf(driver, cluster);
    const accounts = this.ctx.podIndex.serviceAccountsOnNode(node);
    let clusterHits: readonly ServiceAccountName[] | undefined;
    // The accounts already listed as associated-node writers of this driver on this node: nothing
    // more to learn about them (a driver's plugin account is on every node, with claims of many namespaces).
    const listed = new Set<ServiceAccountName>();
    const bound = this.boundFlags(driver, kind, perNamespace);
    for (let start = 0, end = 0; start < at.length; start = end) {
      const n = namespaceOf[at[start]];
      end = start + 1;
      while (end < at.length && namespaceOf[at[end]] === n) end++;
      // Most namespaces bind no candidate and list no claim name: no writer of their own to find
      // (namespaceWriters and the local candidates are empty), only the cluster-wide accounts to test.
      if (bound[n] === 0 && !this.listsAnyName(at, start, end)) {
        if (!granular) continue;
        clusterHits ??= clusterAccounts.size === 0 ? [] : accounts.filter((sa) => clusterAccounts.has(sa));
        if (clusterHits.length === 0 || clusterHits.every((sa) => listed.has(sa))) continue;
        if (this.anyStrictOn(node, at, start, end)) this.collectAssociated(node, driver, at, start, end, clusterHits, writers, listed);
        continue;
      }
      const ns = this.namespaces[n];
      const found = this.namespaceWriters(kind, driver, n, perNamespace, at, start, end, answers);
      for (let k = 0; k < found.length; k++) {
        const w = found[k];
        const key = writerKey(driver, mode, w.subject);
        if (!writers.has(key)) writers.set(key, { driver, subject: w.subject, mode, via: granular ? w.via : [...w.via, LEGACY_NOTE] });
      }
      if (!granular) continue;
      let local = answers.local.get(n);
      if (!local) answers.local.set(n, (local = this.candidates.local('associated', ns, driver)));
      clusterHits ??= clusterAccounts.size === 0 ? [] : accounts.filter((sa) => clusterAccounts.has(sa));
      // No account on this node that a grant could apply to: its claims need no closer look.
      if (clusterHits.length === 0 && local.size === 0) continue;
      if (local.size === 0 && clusterHits.every((sa) => listed.has(sa))) continue;
      // Only claims whose strict allocated node is this node (not those placed by their pods) have associated-node writers.
      if (!this.anyStrictOn(node, at, start, end)) continue;
      const here = local.size === 0 ? clusterHits : accounts.filter((sa) => clusterAccounts.has(sa) || local.appliesToAccount(sa.namespace, sa.name));
      this.collectAssociated(node, driver, at, start, end, here, writers, listed);
    }
  }

  /**
   * The accounts with scheduled pods that the associated-node ClusterRoleBinding candidates of
   * `driver` apply to, found once per driver: a node's accounts are then looked up by object, where
   * matching each by namespace and name was ~200,000 tests on the bench cluster (~20 accounts on each
   * of 10,000 nodes).
   */
  private clusterAccountsOf(driver: string, cluster: CandidateSet): ReadonlySet<ServiceAccountName> {
    const known = this.clusterAccounts.get(driver);
    if (known) return known;
    const out = new Set<ServiceAccountName>();
    if (cluster.size > 0) for (const sa of this.ctx.podIndex.scheduledServiceAccounts) if (cluster.appliesToAccount(sa.namespace, sa.name)) out.add(sa);
    this.clusterAccounts.set(driver, out);
    return out;
  }

  /**
   * By namespace index, 1 where a RoleBinding may add a writer of `driver`: where local() may hold
   * candidates of `kind` or of associated-node, or a RoleBinding names one of the cluster-wide
   * candidates `perNamespace` (boundIn). Elsewhere, claims with no listed name have no non-associated
   * writer besides the every-namespace ones and no local associated-node candidate. Made once per
   * driver from the few namespaces with such bindings, so the others are passed over unasked.
   */
  private boundFlags(driver: string, kind: CandidateKind, perNamespace: Candidate[]): Uint8Array {
    let out = this.boundAt.get(driver);
    if (out) return out;
    // local() is asked of every claim's namespace '' (claims without one).
    const lists: Iterable<string>[] = [[''], this.candidates.localNamespaces(kind, driver)];
    if (this.granular) lists.push(this.candidates.localNamespaces('associated', driver));
    if (perNamespace.length > 0) lists.push(this.lookupOf(driver, perNamespace).namespaces);
    out = markNamespaces(this.namespaces, lists);
    this.boundAt.set(driver, out);
    return out;
  }

  private answersOf(driver: string): NamespaceAnswers {
    let out = this.perNamespace.get(driver);
    if (!out) this.perNamespace.set(driver, (out = { writers: new Map(), local: new Map() }));
    return out;
  }

  /**
   * The non-associated writers of `driver`'s claims at positions at[start, end) (all in namespace
   * number `n`) besides the every-namespace ones, with the evidence of the first claim that admits
   * each. A decision depends on a claim's name only when some resourceclaims/status rule lists it,
   * so claims with unlisted names are decided alike and the answer is shared by every node holding
   * the same kind of claims of this namespace: it is cached on the namespace and the listed names, in order.
   */
  private namespaceWriters(
    kind: CandidateKind,
    driver: string,
    n: number,
    perNamespace: Candidate[],
    at: readonly number[],
    start: number,
    end: number,
    answers: NamespaceAnswers,
  ): readonly NamespaceWriter[] {
    const ns = this.namespaces[n];
    // No status rule lists resourceNames, or none of these claims' names: every claim is decided
    // alike, the first is the sample, and the answer is kept per driver and namespace (asked once per
    // node holding such claims).
    if (!this.statusNamesMatter || !this.listsAnyName(at, start, end)) {
      let out = answers.writers.get(n);
      if (!out) answers.writers.set(n, (out = this.decideNamespaceWriters(kind, driver, ns, perNamespace, [['', this.allocatedClaims[at[start]]]])));
      return out;
    }
    const byName = new Map<string, ResourceClaim>();
    for (let i = start; i < end; i++) {
      const claim = this.allocatedClaims[at[i]];
      const name = this.listedName(claim);
      if (!byName.has(name)) byName.set(name, claim);
    }
    const samples = [...byName];
    const cacheKey = `${driver}|${ns}|${samples.map(([name]) => name).join('\u0000')}`;
    let out = this.namespaceWritersCache.get(cacheKey);
    if (!out) this.namespaceWritersCache.set(cacheKey, (out = this.decideNamespaceWriters(kind, driver, ns, perNamespace, samples)));
    return out;
  }

  private decideNamespaceWriters(
    kind: CandidateKind,
    driver: string,
    ns: string,
    perNamespace: Candidate[],
    samples: [string, ResourceClaim][],
  ): readonly NamespaceWriter[] {
    // Every cluster-wide candidate is worth asking only when one of these claims has a listed name.
    const listed = samples.length > 1 || samples[0][0] !== '';
    const cluster = listed ? perNamespace : this.boundIn(driver, perNamespace, ns);
    const local = this.candidates.local(kind, ns, driver).list;
    // Most namespaces of a large cluster bind no candidate: nothing to ask.
    if (local.length === 0 && cluster.length === 0) return NO_WRITERS;
    const out: { subject: SubjectRef; via: Evidence[] }[] = [];
    const seen = new Set<string>();
    for (const c of membersLast([...local, ...cluster])) {
      const key = `${driver}|arbitrary-node|${c.key}`;
      if (seen.has(key) || this.everywhere.has(key) || this.groupListed(driver, c, seen)) continue;
      // Without a RoleBinding here, only a claim name listed in some rule can change the
      // cluster-wide answer already given.
      const nsMatters = this.hasRoleBindingsIn(c.user, ns);
      if (!this.statusNamesMatter && !nsMatters) continue;
      for (const [name, claim] of samples) {
        if (!nsMatters && name === '') continue;
        const d = this.cachedDecision(`subject|${c.key}`, claim, driver, () => c.user);
        if (this.granular ? d?.mode === 'arbitrary-node' : d !== undefined) {
          seen.add(key);
          out.push({ subject: c.subject, via: d!.via });
          break;
        }
      }
    }
    return out;
  }

  /**
   * The candidates whose answer in `ns` can differ from their cluster-wide one when no claim in
   * question has a name a rule lists: only those a RoleBinding in `ns` names (as user or through a group). Looked up from
   * the namespace's bindings rather than by testing every candidate in every namespace.
   */
  private boundIn(driver: string, candidates: Candidate[], ns: string): Candidate[] {
    const idx = this.engine.rbac.namespaceBindings.get(ns);
    if (!idx || candidates.length === 0) return [];
    const lookup = this.lookupOf(driver, candidates);
    // Most namespaces with RoleBindings bind none of the candidates: answered without reading their keys.
    if (!lookup.namespaces.has(ns)) return [];
    // Most namespaces bind none of them: no set is made for those.
    let out: Set<Candidate> | undefined;
    for (const name of idx.byUser.keys()) for (const c of lookup.byUser.get(name) ?? []) (out ??= new Set()).add(c);
    for (const group of idx.byGroup.keys()) for (const c of lookup.byGroup.get(group) ?? []) (out ??= new Set()).add(c);
    return out ? [...out] : [];
  }

  /** boundIn's index of the cluster-wide candidates of `driver` (the same list every time), made once per driver. */
  private lookupOf(driver: string, candidates: Candidate[]): { byUser: Map<string, Candidate[]>; byGroup: Map<string, Candidate[]>; namespaces: Set<string> } {
    let lookup = this.candidateLookup.get(driver);
    if (lookup) return lookup;
    const made = { byUser: new Map<string, Candidate[]>(), byGroup: new Map<string, Candidate[]>(), namespaces: new Set<string>() };
    const gathered = roleBindingSubjects(this.engine.rbac);
    const addNamespaces = (lists: SubjectEntry[][] | undefined) => {
      for (const entries of lists ?? []) made.namespaces.add(entries[0].binding.ref.namespace ?? '');
    };
    for (const c of candidates) {
      const user = c.user;
      pushTo(made.byUser, user.name, c);
      addNamespaces(gathered.byUser.get(user.name));
      for (const g of user.groups) {
        pushTo(made.byGroup, g, c);
        addNamespaces(gathered.byGroup.get(g));
      }
    }
    this.candidateLookup.set(driver, (lookup = made));
    return lookup;
  }

  /** Whether a claim at positions at[start, end) has a name some resourceclaims/status rule lists. */
  private listsAnyName(at: readonly number[], start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (this.listedAt[at[i]] === 1) return true;
    return false;
  }

  private anyStrictOn(node: string, at: readonly number[], start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (this.strictNodes[at[i]] === node) return true;
    return false;
  }

  /**
   * associated-node: which of `here`, service accounts with pods on `node`, write the claims at
   * positions at[start, end) whose strict allocated node is `node`.
   */
  private collectAssociated(
    node: string,
    driver: string,
    at: readonly number[],
    start: number,
    end: number,
    here: readonly ServiceAccountName[],
    writers: Map<string, ClaimStatusWriter>,
    listed: Set<ServiceAccountName>,
  ): void {
    for (const sa of here) {
      if (listed.has(sa)) continue;
      let c = this.saCandidates.get(sa);
      if (!c) this.saCandidates.set(sa, (c = candidate({ kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace })));
      const subject = c.subject;
      let decisions = this.associatedDecisions.get(c);
      if (!decisions) this.associatedDecisions.set(c, (decisions = new Map()));
      // The claims at[start, end) share a namespace; one no RoleBinding of which names the account
      // (or its groups) answers as every such namespace does: the ClusterRoleBindings' answer (-1).
      const n = this.hasRoleBindingsIn(c.user, this.namespaces[this.namespaceOf[at[start]]]) ? this.namespaceOf[at[start]] : -1;
      for (let i = start; i < end; i++) {
        if (this.strictNodes[at[i]] !== node) continue;
        // The claim's strict allocated node is `node` (tested above), the node the token names: the
        // decision is the same on every node (see associatedDecisions), asked once per namespace
        // (or once for all those without bindings), driver and listed name rather than once per node.
        const claim = this.allocatedClaims[at[i]];
        const key = `${n}|${driver}|${this.listedAt[at[i]] === 1 ? this.claimNames[at[i]] : ''}`;
        let d = decisions.get(key);
        if (d === undefined) decisions.set(key, (d = this.decide(serviceAccountUser(sa.namespace, sa.name, node), claim, driver) ?? null));
        if (d?.mode === 'associated-node') {
          // The decision's evidence is normalised once and the node's note placed into it: normalising
          // each node's copy serialised every grant again (~10,000 nodes with a plugin account each).
          const via = withNote(this.normalise(d.via), { type: 'note', text: `its pods on ${node} carry tokens bound to ${node}, the claim's allocated node` });
          this.normalised.set(via, via);
          writers.set(writerKey(driver, 'associated-node', subject), { driver, subject, mode: 'associated-node', via });
          listed.add(sa);
          break;
        }
      }
    }
  }

  /**
   * Whether `user` (identified by `userKey`) may write the status.devices entries of `driver` in
   * `claim`, and how. Used by the blast radius; candidates filter the engine questions.
   */
  decideFor(userKey: string, user: UserInfo, claim: ResourceClaim, driver: string, clusterHit = this.clusterApplies(user, driver)): WriteDecision | undefined {
    const ns = claim.metadata.namespace ?? '';
    if (!clusterHit) {
      // Only a RoleBinding in the namespace naming the identity (or its groups) can still grant it.
      if (!this.hasRoleBindingsIn(user, ns)) return undefined;
      if (!this.kinds().some((k) => this.candidates.local(k, ns, driver).appliesTo(user))) return undefined;
    }
    const d = this.cachedDecision(`id|${userKey}`, claim, driver, () => user);
    if (!d) return undefined;
    return this.granular ? d : { mode: 'arbitrary-node', via: d.via };
  }

  /**
   * Whether `user` may write the status.devices entries of `driver` in every claim of it, wherever it
   * is allocated: decided once, on `sample` moved to a namespace no RoleBinding names and a name no
   * rule lists (RBAC only adds, so what is allowed there is allowed in every namespace, for every name).
   * Only an arbitrary-node answer (or, before granular authorization, any) holds for every node.
   */
  writesEveryClaim(userKey: string, user: UserInfo, driver: string, sample: ResourceClaim): WriteDecision | undefined {
    if (!this.clusterApplies(user, driver)) return undefined;
    const probe: ResourceClaim = { ...sample, metadata: { ...sample.metadata, namespace: PROBE_NAMESPACE, name: PROBE_NAME } };
    const d = this.cachedDecision(`id|${userKey}`, probe, driver, () => user);
    if (!d || (this.granular && d.mode !== 'arbitrary-node')) return undefined;
    return { mode: 'arbitrary-node', via: d.via };
  }

  /** The namespaces whose RoleBindings name the user or one of its groups: without a cluster-wide grant, only there can it write. */
  namespacesBinding(user: UserInfo): string[] {
    // Inverted once (users and groups → namespaces): scanning 20,000 namespaces per identity was a
    // third of a node's blast radius on the bench cluster.
    if (!this.bindingNamespaces) {
      const byUser = new Map<string, string[]>();
      const byGroup = new Map<string, string[]>();
      for (const [ns, idx] of this.engine.rbac.namespaceBindings) {
        for (const u of idx.byUser.keys()) pushTo(byUser, u, ns);
        for (const g of idx.byGroup.keys()) pushTo(byGroup, g, ns);
      }
      this.bindingNamespaces = { byUser, byGroup };
    }
    const { byUser, byGroup } = this.bindingNamespaces;
    const found = new Set(byUser.get(user.name));
    for (const g of user.groups) for (const ns of byGroup.get(g) ?? []) found.add(ns);
    return [...found];
  }
  private bindingNamespaces?: { byUser: Map<string, string[]>; byGroup: Map<string, string[]> };

  /** Whether a ClusterRoleBinding candidate for `driver` applies to the identity. */
  clusterApplies(user: UserInfo, driver: string): boolean {
    return this.kinds().some((k) => this.candidates.cluster(k, driver).appliesTo(user));
  }

  private kinds(): CandidateKind[] {
    return this.granular ? ['associated', 'arbitrary'] : ['legacy-status'];
  }

  /** The identity of a binding subject, built once. */
  private userOf(subject: SubjectRef): UserInfo {
    const key = refKey(subject);
    let user = this.userCache.get(key);
    if (!user) this.userCache.set(key, (user = userForSubject(subject)));
    return user;
  }

  /** Evidence lists are shared by every writer a decision admits: normalised once each. */
  private normalise(via: Evidence[]): Evidence[] {
    let out = this.normalised.get(via);
    if (!out) this.normalised.set(via, (out = normaliseEvidence(via)));
    return out;
  }

  /** The decision at a namespace where only ClusterRoleBindings apply (and, for a name, one no rule lists). */
  private clusterWideDecision(subject: SubjectRef, driver: string, sample: ResourceClaim): WriteDecision | undefined {
    const probe: ResourceClaim = { ...sample, metadata: { ...sample.metadata, namespace: PROBE_NAMESPACE, name: PROBE_NAME } };
    return this.cachedDecision(`subject|${refKey(subject)}`, probe, driver, () => this.userOf(subject));
  }

  /**
   * A candidate added for what it completes (a group member, or a holder of a grant naming claims)
   * that a group already listed as an arbitrary-node writer of `driver` (everywhere, or in `seen`)
   * covers: the group's entry stands for it.
   */
  private groupListed(driver: string, c: Candidate, seen?: ReadonlySet<string>): boolean {
    if (!c.memberOf && !c.namedOnly) return false;
    const groups = c.memberOf ?? this.listedGroups(driver, seen).filter((g) => subjectAppliesTo({ kind: 'Group', name: g }, c.subject));
    return groups.some((g) => {
      const key = writerKey(driver, 'arbitrary-node', { kind: 'Group', name: g });
      return this.everywhere.has(key) || !!seen?.has(key);
    });
  }

  /** Groups listed as writers of `driver`: everywhere, and in `seen` (keys of one namespace's writers). */
  private listedGroups(driver: string, seen?: ReadonlySet<string>): string[] {
    // The every-namespace writers of a driver are all known once writeEverywhere ran for it.
    let everywhere = this.everywhereGroups.get(driver);
    if (!everywhere) {
      everywhere = [...this.everywhere.values()].filter((w) => w.driver === driver && w.subject.kind === 'Group').map((w) => w.subject.name);
      this.everywhereGroups.set(driver, everywhere);
    }
    const prefix = `${driver}|arbitrary-node|${refKey({ kind: 'Group', name: '' })}`;
    const local = [...(seen ?? [])].filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
    return [...everywhere, ...local];
  }

  /** Whether any RoleBinding in `ns` names the user or one of its groups (else the namespace changes nothing). */
  private hasRoleBindingsIn(user: UserInfo, ns: string): boolean {
    const idx = this.engine.rbac.namespaceBindings.get(ns);
    if (!idx) return false;
    if (idx.byUser.has(user.name)) return true;
    return user.groups.some((g) => idx.byGroup.has(g));
  }

  /** The claim's name when some resourceclaims/status rule lists it, else '': the only way a name changes a decision. */
  private listedName(claim: ResourceClaim): string {
    return this.statusNames.has(claim.metadata.name) ? claim.metadata.name : '';
  }

  /**
   * A decision depends on the identity, the claim's namespace, the driver and the allocated node; on
   * the claim's name only when some resourceclaims/status rule lists resourceNames.
   */
  private cachedDecision(identityKey: string, claim: ResourceClaim, driver: string, user: () => UserInfo): WriteDecision | undefined {
    const ns = claim.metadata.namespace ?? '';
    // Claims whose names no rule lists are decided alike: one engine question covers them all.
    const name = this.listedName(claim);
    // The allocated node only matters to identities whose tokens name a node (associated-node).
    const node = identityKey.startsWith('subject|') ? '' : (allocatedNodeName(claim) ?? '');
    const key = `${identityKey}|${ns}|${driver}|${node}|${name}`;
    let d = this.decisionCache.get(key);
    if (d === undefined) this.decisionCache.set(key, (d = this.decide(user(), claim, driver) ?? null));
    return d ?? undefined;
  }

  /** claimStatusWrite for a devices-only change by `driver`, update then patch. */
  private decide(user: UserInfo, claim: ResourceClaim, driver: string): WriteDecision | undefined {
    for (const verb of WRITE_VERBS) {
      const d: ClaimStatusDecision = this.engine.claimStatusWrite(user, claim, { verb, changesBinding: false, drivers: [driver] });
      if (!d.allowed) continue;
      const via: Evidence[] = [];
      for (const c of d.checks) via.push(...decisionEvidence(c.decision));
      return { mode: d.drivers[0]?.mode, via };
    }
    return undefined;
  }
}

/**
 * normaliseEvidence([...normalised, note]) for a list normaliseEvidence made: notes sort after grants
 * and fields, among themselves by their JSON text, and a note already there is not repeated.
 */
export function withNote(normalised: readonly Evidence[], note: Evidence & { type: 'note' }): Evidence[] {
  // Serialised only when there are notes to compare with (most decisions' evidence is grants alone).
  let key: string | undefined;
  let at = normalised.length;
  for (; at > 0 && normalised[at - 1].type === 'note'; at--) {
    const c = compareStrings(JSON.stringify(normalised[at - 1]), (key ??= JSON.stringify(note)));
    if (c === 0) return normalised as Evidence[];
    if (c < 0) break;
  }
  return [...normalised.slice(0, at), note, ...normalised.slice(at)];
}

/** Group members after the groups, so a member is only decided once its groups' answers are known. */
function membersLast(list: readonly Candidate[]): Candidate[] {
  return [...list.filter((c) => !c.memberOf), ...list.filter((c) => c.memberOf)];
}

function writerKey(driver: string, mode: ClaimStatusWriter['mode'], subject: SubjectRef): string {
  return `${driver}|${mode}|${refKey(subject)}`;
}

export function compareClaimWriters(a: ClaimStatusWriter, b: ClaimStatusWriter): number {
  return compareStrings(a.driver, b.driver) || MODE_ORDER[a.mode] - MODE_ORDER[b.mode] || compareSubjects(a.subject, b.subject);
}
