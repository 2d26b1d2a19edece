import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { AuthzEngine, ImpersonatedDecision } from '@/lib/authz/authz-engine';
import type { ImpersonationHeaders } from '@/lib/authz/impersonation';
import type { AuthzRequest } from '@/lib/authz/types';
import { nodeUser, serviceAccountUser, serviceAccountUsername } from '@/lib/authz/user-info';
import type { WhoCanEntry, WhoCanQuery } from '@/lib/authz/who-can';
import type { PolicyRule, SubjectRef } from '@/lib/k8s/types';
import { ruleAllowsResource } from '@/lib/authz/rule-matches';
import { pushTo } from '@/lib/k8s/push-to';
import type { Evidence, StatusWriterMode } from '@/lib/analysis/types';
import { canonicalSubject } from '@/lib/analysis/context/identities';
import { resourceNamesInGrants, resourceNamesInRules } from './rule-names';
import { SubjectMatcher, userForSubject } from './subjects';
import { decisionEvidence, grantEvidence, PROBE_NAME, PROBE_NAMESPACE } from '@/lib/analysis/evidence';
import { compareSubjects, refKey } from '@/lib/k8s/refs';
import { describeSource } from '@/lib/authz/cluster-config';

import { WriterAccumulator, type NodeStatusWriterMap } from './node-writer-accumulator';
import { identityCheckSubjects, impersonableIndex, impersonationFilter, impersonationIdentityChecks } from '@/lib/analysis/impersonation-reach';
// DESIGN §3: for every node, each identity that can update or patch its nodes/status, with the mode
// (node-authorizer, constrained-impersonation, rbac, impersonation) and the scope (own-node,
// all-nodes, named). Candidates come from who-can queries on the engine's rule index; every
// candidate is then decided by the engine itself (authorize / authorizeImpersonated).

const AUTHN = 'authentication.k8s.io';
const STATUS_VERBS = ['update', 'patch'] as const;
type StatusVerb = (typeof STATUS_VERBS)[number];

const statusTarget = (verb: string, node: string): Pick<AuthzRequest, 'resource'> => ({
  resource: { verb, group: '', resource: 'nodes', subresource: 'status', namespace: '', name: node },
});

const nodeUsername = (node: string) => `system:node:${node}`;

export function listNodeStatusWriters(ctx: AnalysisContext): NodeStatusWriterMap {
  const engine = ctx.engine;
  const nodes = engine.nodeNames;
  const nodeSet = new Set(nodes);
  const acc = new WriterAccumulator(nodes, ctx);

  addNodeAuthorizer(engine, nodes, acc);
  const rbac = addRbac(engine, nodeSet, acc);
  if (engine.features.constrainedImpersonation) {
    addAssociatedNode(ctx, nodeSet, rbac, acc);
    addArbitraryNode(engine, nodeSet, rbac, acc);
  }
  addImpersonation(ctx, nodeSet, rbac, acc);
  return acc.result();
}

/**
 * NodeRestriction admission is what limits a node identity to its own Node: the Node authorizer
 * allows any node to update/patch any nodes/status. Without it, whoever acts as some node writes
 * every node's status.
 */
const nodeRestricted = (engine: AuthzEngine) => engine.config.nodeRestriction.enabled;

function nodeRestrictionOffNote(engine: AuthzEngine): Evidence {
  return {
    type: 'note',
    text: `NodeRestriction admission is off (${describeSource(engine.config, engine.config.nodeRestriction.source)}): a node identity may write the status of any node, not only its own`,
  };
}

// ------------------------------------------------------------------ node-authorizer

function addNodeAuthorizer(engine: AuthzEngine, nodes: readonly string[], acc: WriterAccumulator): void {
  if (!engine.chain.includes('Node')) return;
  if (!nodeRestricted(engine)) {
    // One entry for every kubelet: each writes every node's status (a node's identity writing another node's).
    const d = engine.authorize({ user: nodeUser(PROBE_NAME), ...statusTarget('update', `${PROBE_NAME}-other`) });
    if (d.allowed && d.decidedBy === 'node')
      acc.addAll({
        subject: { kind: 'Group', name: 'system:nodes' },
        mode: 'node-authorizer',
        scope: 'all-nodes',
        via: [
          {
            type: 'note',
            text: 'Node authorizer: every kubelet identity system:node:<name> (group system:nodes) may update/patch nodes/status, and NodeRestriction admission is off, so nothing limits it to its own Node',
          },
          nodeRestrictionOffNote(engine),
        ],
      });
    return;
  }
  const source = engine.config.nodeRestriction.source;
  const restriction = source === 'api-server' ? '' : ` (${describeSource(engine.config, source)})`;
  for (const node of nodes) {
    for (const verb of STATUS_VERBS) {
      const d = engine.authorize({ user: nodeUser(node), ...statusTarget(verb, node) });
      if (!d.allowed || d.decidedBy !== 'node') continue;
      acc.addOn(node, {
        subject: { kind: 'User', name: nodeUsername(node) },
        mode: 'node-authorizer',
        scope: 'own-node',
        via: [
          {
            type: 'note',
            text: `Node authorizer: the kubelet identity ${nodeUsername(node)} (group system:nodes) may update/patch nodes/status; NodeRestriction admission${restriction} limits it to its own Node`,
          },
        ],
      });
      break;
    }
  }
}

// ------------------------------------------------------------------ rbac

interface RbacWriters {
  /** Subjects writing every node's status through plain RBAC. */
  all: Map<string, SubjectRef>;
  /** Subjects writing only named nodes: subject key → nodes. */
  named: Map<string, { subject: SubjectRef; nodes: string[] }>;
}

function addRbac(engine: AuthzEngine, nodeSet: ReadonlySet<string>, acc: WriterAccumulator): RbacWriters {
  const out: RbacWriters = { all: new Map(), named: new Map() };
  if (!engine.chain.includes('RBAC')) return out;

  const all = collectRbacWriters(engine, PROBE_NAME);
  for (const [key, { subject, via }] of all) {
    out.all.set(key, subject);
    acc.addAll({ subject, mode: 'rbac', scope: 'all-nodes', via });
  }
  const names = [...resourceNamesInRules(engine, '', 'nodes', 'status', STATUS_VERBS)].filter((n) => nodeSet.has(n)).sort();
  for (const node of names) {
    for (const [key, { subject, via }] of collectRbacWriters(engine, node)) {
      if (all.has(key)) continue;
      let entry = out.named.get(key);
      if (!entry) out.named.set(key, (entry = { subject, nodes: [] }));
      entry.nodes.push(node);
      acc.addOn(node, { subject, mode: 'rbac', scope: 'named', via });
    }
  }
  return out;
}

/** Binding subjects that may update or patch nodes/status `name`, each confirmed with authorize(). */
function collectRbacWriters(engine: AuthzEngine, name: string): Map<string, { subject: SubjectRef; via: Evidence[] }> {
  const out = new Map<string, { subject: SubjectRef; via: Evidence[] }>();
  for (const verb of STATUS_VERBS) {
    for (const entry of rbacEntries(engine, statusTarget(verb, name))) {
      const d = engine.authorize({ user: userForSubject(entry.subject), ...statusTarget(verb, name) });
      if (!d.allowed) continue;
      const key = refKey(entry.subject);
      let w = out.get(key);
      if (!w) out.set(key, (w = { subject: entry.subject, via: [] }));
      for (const g of entry.grants) w.via.push(grantEvidence(engine, g));
    }
  }
  return out;
}

/** RBAC who-can entries, subjects in canonical form (a User named system:serviceaccount:… is that ServiceAccount). */
function rbacEntries(engine: AuthzEngine, query: WhoCanQuery): WhoCanEntry[] {
  const out = new Map<string, WhoCanEntry>();
  for (const e of engine.whoCan(query)) {
    if (e.via !== 'rbac') continue;
    const subject = canonicalSubject(e.subject);
    const key = refKey(subject);
    const existing = out.get(key);
    if (existing) existing.grants = [...existing.grants, ...e.grants];
    else out.set(key, { ...e, subject });
  }
  return [...out.values()];
}

// ------------------------------------------------------------------ constrained impersonation

/**
 * impersonate:associated-node + impersonate-on:associated-node:update|patch on nodes/status: a pod's
 * token names the pod's node, so the service account writes exactly the nodes where it has pods.
 */
function addAssociatedNode(ctx: AnalysisContext, nodeSet: ReadonlySet<string>, rbac: RbacWriters, acc: WriterAccumulator): void {
  const engine = ctx.engine;
  // The identity check always asks for name "*" (resourceNames-scoped grants never match).
  const identity = rbacEntries(engine, {
    resource: { verb: 'impersonate:associated-node', group: AUTHN, resource: 'nodes', subresource: '', namespace: '', name: '*' },
  });
  if (identity.length === 0) return;
  const actionVerbs = STATUS_VERBS.map((v) => `impersonate-on:associated-node:${v}`);
  const actionNames = resourceNamesInRules(engine, '', 'nodes', 'status', actionVerbs);
  const namedActions = actionNames.size > 0;
  const namedTargets = [...actionNames].filter((n) => nodeSet.has(n)).sort();

  // Tested against every service account with pods: the identity of those it names is made.
  const holders = new SubjectMatcher(identity.map((e) => e.subject));
  for (const sa of ctx.podIndex.scheduledServiceAccounts) {
    if (!holders.appliesToAccount(sa.namespace, sa.name)) continue;
    const user = serviceAccountUser(sa.namespace, sa.name);
    // Cheap pre-check: the action grant must exist, unrestricted or for some named node.
    if (!namedActions && !actionVerbs.some((verb) => engine.authorize({ user, ...statusTarget(verb, PROBE_NAME) }).allowed)) continue;
    const subject: SubjectRef = { kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace };
    if (rbac.all.has(refKey(subject))) continue;
    const tokenNodes = ctx.podIndex.nodesOfServiceAccount(sa.namespace, sa.name);
    if (!nodeRestricted(engine) && addAssociatedNodeUnrestricted(engine, subject, tokenNodes, namedTargets, acc)) continue;
    for (const node of tokenNodes) {
      const requester = serviceAccountUser(sa.namespace, sa.name, node);
      for (const verb of STATUS_VERBS) {
        const d = engine.authorizeImpersonated(requester, { user: nodeUsername(node) }, statusTarget(verb, node));
        if (!d.allowed || d.impersonation.mode !== 'associated-node') continue;
        acc.addOn(node, {
          subject,
          mode: 'constrained-impersonation',
          scope: 'own-node',
          via: [
            ...impersonationEvidence(d),
            { type: 'note', text: `its pods on ${node} carry tokens bound to ${node}; it impersonates ${nodeUsername(node)} (associated-node)` },
          ],
        });
        break;
      }
    }
  }
}

/**
 * Without NodeRestriction, the node a pod's token lets the service account impersonate can write
 * any node's status: the action check asks about the node written (resourceNames of the
 * impersonate-on grant can still narrow it), the identity check about the impersonated node.
 * Records every node, or the named ones beyond its own; true when it reaches every node.
 */
function addAssociatedNodeUnrestricted(
  engine: AuthzEngine,
  subject: SubjectRef,
  tokenNodes: readonly string[],
  namedTargets: readonly string[],
  acc: WriterAccumulator,
): boolean {
  const decide = (from: string, target: string): ImpersonatedDecision | undefined => {
    const requester = serviceAccountUser(subject.namespace ?? '', subject.name, from);
    for (const verb of STATUS_VERBS) {
      const d = engine.authorizeImpersonated(requester, { user: nodeUsername(from) }, statusTarget(verb, target));
      if (d.allowed && d.impersonation.mode === 'associated-node') return d;
    }
    return undefined;
  };
  for (const from of tokenNodes) {
    const any = decide(from, PROBE_NAME);
    if (!any) continue;
    acc.addAll({
      subject,
      mode: 'constrained-impersonation',
      scope: 'all-nodes',
      via: [
        ...impersonationEvidence(any),
        {
          type: 'note',
          text: `its pods on ${from} carry tokens bound to ${from}; it impersonates ${nodeUsername(from)} (associated-node), which may write any node's status`,
        },
        nodeRestrictionOffNote(engine),
      ],
    });
    return true;
  }
  for (const target of namedTargets) {
    if (tokenNodes.includes(target)) continue;
    for (const from of tokenNodes) {
      const d = decide(from, target);
      if (!d) continue;
      acc.addOn(target, {
        subject,
        mode: 'constrained-impersonation',
        scope: 'named',
        via: [
          ...impersonationEvidence(d),
          { type: 'note', text: `it impersonates ${nodeUsername(from)} (associated-node, from its pods there) and writes ${target}'s status` },
          nodeRestrictionOffNote(engine),
        ],
      });
      break;
    }
  }
  return false;
}

/** impersonate:arbitrary-node (+ the action grant): every node, or the nodes named in resourceNames. */
function addArbitraryNode(engine: AuthzEngine, nodeSet: ReadonlySet<string>, rbac: RbacWriters, acc: WriterAccumulator): void {
  const idQuery = (name: string): WhoCanQuery => ({
    resource: { verb: 'impersonate:arbitrary-node', group: AUTHN, resource: 'nodes', subresource: '', namespace: '', name },
  });
  const idNames = [...resourceNamesInRules(engine, AUTHN, 'nodes', '', ['impersonate:arbitrary-node'])].filter((n) => nodeSet.has(n));
  const candidates = new Map<string, SubjectRef>();
  for (const name of [PROBE_NAME, ...idNames]) for (const e of rbacEntries(engine, idQuery(name))) candidates.set(refKey(e.subject), e.subject);
  if (candidates.size === 0) return;
  const actionNames = resourceNamesInRules(
    engine,
    '',
    'nodes',
    'status',
    STATUS_VERBS.map((v) => `impersonate-on:arbitrary-node:${v}`),
  );
  const named = [...new Set([...idNames, ...[...actionNames].filter((n) => nodeSet.has(n))])].sort();

  for (const subject of [...candidates.values()].sort(compareSubjects)) {
    if (rbac.all.has(refKey(subject))) continue;
    const user = userForSubject(subject);
    const tryNode = (node: string, written: string): ImpersonatedDecision | undefined => {
      for (const verb of STATUS_VERBS) {
        const d = engine.authorizeImpersonated(user, { user: nodeUsername(node) }, statusTarget(verb, written));
        if (d.allowed && d.impersonation.mode === 'arbitrary-node') return d;
      }
      return undefined;
    };
    // With NodeRestriction the impersonated node writes only itself; without it, any node it may impersonate writes `target`.
    const unrestricted = !nodeRestricted(engine);
    const tryWrite = (target: string): ImpersonatedDecision | undefined => {
      if (!unrestricted) return tryNode(target, target);
      for (const from of [PROBE_NAME, ...idNames]) {
        const d = tryNode(from, target);
        if (d) return d;
      }
      return undefined;
    };
    const offNote: Evidence[] = unrestricted ? [nodeRestrictionOffNote(engine)] : [];
    const any = tryWrite(PROBE_NAME);
    if (any) {
      acc.addAll({
        subject,
        mode: 'constrained-impersonation',
        scope: 'all-nodes',
        via: [...impersonationEvidence(any), { type: 'note', text: 'impersonates any node identity (arbitrary-node)' }, ...offNote],
      });
      continue;
    }
    for (const node of named) {
      const d = tryWrite(node);
      if (d)
        acc.addOn(node, {
          subject,
          mode: 'constrained-impersonation',
          scope: 'named',
          via: [
            ...impersonationEvidence(d),
            { type: 'note', text: `impersonates ${d.impersonation.impersonated?.name ?? nodeUsername(node)} (arbitrary-node, named)` },
            ...offNote,
          ],
        });
    }
  }
}

// ------------------------------------------------------------------ impersonating a writer

interface ImpersonationTarget {
  headers: ImpersonationHeaders;
  /** undefined = every node; otherwise the nodes this identity can write. */
  nodes?: string[];
  /** The RBAC writer impersonated, or whose member is, if the target is one. */
  writer?: SubjectRef;
  /** A service account impersonated as a member of a writer group. */
  serviceAccount?: SubjectRef;
  description: string;
}

/**
 * Identities that can become a status writer: legacy `impersonate` of a node (with group
 * system:nodes), of system:masters or of a user/group/service account that writes status; and the
 * constrained serviceaccount/user-info modes towards such writers. As for the constrained node
 * modes above, subjects that already write every node's status through RBAC are not repeated (they
 * gain nothing, and admins would otherwise appear under every mode).
 */
function addImpersonation(ctx: AnalysisContext, nodeSet: ReadonlySet<string>, rbac: RbacWriters, acc: WriterAccumulator): void {
  const engine = ctx.engine;
  const probeUser = PROBE_NAME;
  const targets: ImpersonationTarget[] = [
    { headers: { user: nodeUsername(PROBE_NAME), groups: ['system:nodes'] }, description: 'any node identity (system:node:<name> with group system:nodes)' },
    { headers: { user: probeUser, groups: ['system:masters'] }, description: 'a member of system:masters' },
  ];
  const writerHeaders = (s: SubjectRef): ImpersonationHeaders =>
    s.kind === 'Group'
      ? { user: probeUser, groups: [s.name] }
      : { user: s.kind === 'ServiceAccount' ? serviceAccountUsername(s.namespace ?? '', s.name) : s.name };
  const describe = (s: SubjectRef) => (s.kind === 'ServiceAccount' ? `ServiceAccount ${s.namespace}/${s.name}` : `${s.kind} ${s.name}`);
  for (const s of [...rbac.all.values()].sort(compareSubjects))
    targets.push({ headers: writerHeaders(s), writer: s, description: `${describe(s)}, which writes every node's status` });

  const nodeUserNames = [...resourceNamesInRules(engine, '', 'users', '', ['impersonate'])]
    .filter((n) => n.startsWith('system:node:') && nodeSet.has(n.slice('system:node:'.length)))
    .sort();
  // Without NodeRestriction, any one node identity writes every node's status.
  for (const u of nodeUserNames)
    targets.push({
      headers: { user: u, groups: ['system:nodes'] },
      nodes: nodeRestricted(engine) ? [u.slice('system:node:'.length)] : undefined,
      description: `${u} (group system:nodes)`,
    });
  for (const { subject, nodes } of [...rbac.named.values()].sort((a, b) => compareSubjects(a.subject, b.subject))) {
    targets.push({ headers: writerHeaders(subject), nodes, description: `${describe(subject)}, which writes the status of ${nodes.join(', ')}` });
  }
  // An impersonated service account carries system:serviceaccounts and system:serviceaccounts:<its
  // namespace>: where those groups write status, impersonating one of their service accounts is
  // enough (no group impersonation). Names: any (unrestricted grants), and those grants list that
  // are accounts of the namespace (a grant naming an account that does not exist is not followed:
  // asking about every listed name in every such namespace cost more than it finds).
  const listedSaNames = new Set([
    ...resourceNamesInRules(engine, '', 'serviceaccounts', '', ['impersonate']),
    ...resourceNamesInRules(engine, AUTHN, 'serviceaccounts', '', ['impersonate:serviceaccount']),
  ]);
  // The listed names that are accounts (or pods' accounts) of each namespace: found in one pass.
  let listedByNs: Map<string, string[]> | undefined;
  const saNamesIn = (ns: string) => {
    const names = new Set([PROBE_NAME]);
    if (listedSaNames.size === 0) return names;
    if (!listedByNs) {
      listedByNs = new Map();
      for (const sa of engine.state.serviceAccounts) if (listedSaNames.has(sa.metadata.name)) pushTo(listedByNs, sa.metadata.namespace ?? '', sa.metadata.name);
      for (const p of engine.state.pods) {
        const name = p.spec?.serviceAccountName;
        if (name && listedSaNames.has(name)) pushTo(listedByNs, p.metadata.namespace ?? '', name);
      }
    }
    for (const name of listedByNs.get(ns) ?? []) names.add(name);
    return names;
  };
  const memberTargets: ImpersonationTarget[] = [];
  const saGroupWriters = [
    ...[...rbac.all.values()].map((subject) => ({ subject, nodes: undefined as string[] | undefined })),
    ...[...rbac.named.values()].map(({ subject, nodes }) => ({ subject, nodes: nodes as string[] | undefined })),
  ].filter(({ subject }) => subject.kind === 'Group' && (subject.name === 'system:serviceaccounts' || subject.name.startsWith('system:serviceaccounts:')));
  for (const { subject, nodes } of saGroupWriters.sort((a, b) => compareSubjects(a.subject, b.subject))) {
    // The all-namespaces group: a service account of any namespace (grants in every namespace).
    const ns = subject.name === 'system:serviceaccounts' ? PROBE_NAMESPACE : subject.name.slice('system:serviceaccounts:'.length);
    if (ns === '') continue;
    const where = subject.name === 'system:serviceaccounts' ? 'any namespace' : `namespace ${ns}`;
    const writes = nodes ? `the status of ${nodes.join(', ')}` : "every node's status";
    for (const name of saNamesIn(ns))
      memberTargets.push({
        headers: { user: serviceAccountUsername(ns, name) },
        nodes,
        writer: nodes ? undefined : subject,
        description: `a service account of ${where} (member of Group ${subject.name}, which writes ${writes})`,
        serviceAccount: { kind: 'ServiceAccount', namespace: ns, name },
      });
  }
  targets.push(...memberTargets);

  // Requesters: every subject that holds one of the impersonation grants these targets need.
  const requesters = new Map<string, SubjectRef>();
  // Only the subjects are kept (as rbacEntries gives them, without merging their grants): ~1,000
  // questions on the bench cluster, whose answers repeat the same binding subjects (the
  // ClusterRoleBindings' answer, shared): each is read once.
  const read = new Set<SubjectRef>();
  const ask = (verb: string, group: string, resource: string, name: string, namespace = '') => {
    for (const s of identityCheckSubjects(ctx, { verb, group, resource, subresource: '', namespace, name })) {
      if (read.has(s)) continue;
      read.add(s);
      const subject = canonicalSubject(s);
      requesters.set(refKey(subject), subject);
    }
  };
  ask('impersonate', '', 'users', PROBE_NAME);
  ask('impersonate', '', 'groups', PROBE_NAME);
  ask('impersonate', '', 'serviceaccounts', PROBE_NAME);
  ask('impersonate', '', 'groups', 'system:nodes');
  ask('impersonate', '', 'groups', 'system:masters');
  ask('impersonate:user-info', AUTHN, 'users', PROBE_NAME);
  for (const u of nodeUserNames) ask('impersonate', '', 'users', u);
  const impersonated = new Map<string, SubjectRef>();
  for (const s of [...rbac.all.values(), ...[...rbac.named.values()].map((n) => n.subject), ...memberTargets.map((t) => t.serviceAccount!)])
    impersonated.set(refKey(s), s);
  for (const s of impersonated.values()) for (const a of impersonationIdentityChecks(s)) ask(a.verb, a.group, a.resource, a.name, a.namespace);

  // A target that cannot be written everywhere may still be written on nodes some nodes/status rule
  // names: the requester's impersonate-on action grant's names, or the target's own grant for the one
  // verb the action allows. Only those names can make a difference.
  const namedIn = (rules: readonly { rule: PolicyRule }[], verbs: readonly string[]) =>
    [...resourceNamesInGrants(rules, '', 'nodes', 'status', verbs)].filter((n) => nodeSet.has(n));
  const actionVerbs = ['serviceaccount', 'user-info'].flatMap((m) => STATUS_VERBS.map((v) => `impersonate-on:${m}:${v}`));
  const targetNames = new Map<ImpersonationTarget, string[]>();
  const namedFor = (target: ImpersonationTarget) => {
    let names = targetNames.get(target);
    if (!names) targetNames.set(target, (names = target.writer ? namedIn(engine.rulesFor(userForSubject(target.writer), ''), STATUS_VERBS) : []));
    return names;
  };

  // Most requesters may impersonate few of the targets (~110,000 pairs on the bench cluster): those
  // the filter refuses are never visited. A group target beside the probe user is also tried beside
  // the user names the requester's grants list: kept whenever one of those may be impersonated.
  const impersonable = impersonableIndex(
    ctx,
    targets.map((t) => t.headers.user),
  );
  const beside = targets.flatMap((t, i) => (t.headers.groups?.length && t.headers.user === PROBE_NAME ? [i] : []));
  const marks = new Uint8Array(targets.length);

  for (const subject of [...requesters.values()].sort(compareSubjects)) {
    if (rbac.all.has(refKey(subject))) continue;
    const user = userForSubject(subject);
    const rules = engine.rulesFor(user, '');
    const actionNames = namedIn(rules, actionVerbs);
    // A group is impersonated beside some user: where the requester's user grants name users, those
    // names (a grant naming one user still reaches any group it may impersonate).
    const userNames = [
      ...new Set([
        ...resourceNamesInGrants(rules, '', 'users', '', ['impersonate']),
        ...resourceNamesInGrants(rules, AUTHN, 'users', '', ['impersonate:user-info']),
      ]),
    ];
    const may = impersonationFilter(ctx, user);
    const decide = (target: ImpersonationTarget, node: string): ImpersonatedDecision | undefined => {
      const d = decideTarget(ctx, user, may, target.headers, node);
      if (d || !target.headers.groups?.length || target.headers.user !== PROBE_NAME) return d;
      for (const name of userNames) {
        const other = decideTarget(ctx, user, may, { ...target.headers, user: name }, node);
        if (other) return other;
      }
      return undefined;
    };
    const done = new Set<StatusWriterMode>();
    // Once the requester writes every node in each mode it could use, the other targets add nothing:
    // an all-nodes entry per mode is kept, and named entries in a mode held everywhere are dropped.
    const modes = engine.features.constrainedImpersonation && (engine.chain.includes('AlwaysAllow') || holdsConstrainedAction(rules)) ? 2 : 1;
    // Unmarked targets are those the requester may not impersonate (all marked: it may try any).
    if (!impersonable(user, marks)) marks.fill(1);
    else if (beside.length > 0 && userNames.some((name) => may({ user: name }))) for (const t of beside) marks[t] = 1;
    for (let t = 0; t < targets.length; t++) {
      if (marks[t] === 0) continue;
      const target = targets[t];
      if (done.size === modes) break;
      const nodes = target.nodes ?? EVERY_NODE;
      for (const node of nodes) {
        const d = decide(target, node ?? PROBE_NAME);
        if (!d) {
          // A node identity's written node follows the header (NodeRestriction): other names change nothing.
          if (node === undefined && !(target.headers.user.startsWith('system:node:') && nodeRestricted(engine)))
            // Most requesters and targets name no node: no list is made for those (~110,000 pairs on the bench cluster).
            for (const n of actionNames.length === 0 && namedFor(target).length === 0 ? NO_NAMES : new Set([...actionNames, ...namedFor(target)])) {
              const named = decide(target, n);
              if (named) acc.addOn(n, { subject, mode: modeOf(named), scope: 'named', via: targetEvidence(engine, named, target) });
            }
          continue;
        }
        const mode = modeOf(d);
        // Evidence only for what is kept: a requester that acts as many writers keeps one per mode.
        if (node === undefined) {
          if (done.has(mode)) continue;
          done.add(mode);
          acc.addAll({ subject, mode, scope: 'all-nodes', via: targetEvidence(engine, d, target) });
        } else {
          acc.addOn(node, { subject, mode, scope: 'named', via: targetEvidence(engine, d, target) });
        }
      }
    }
  }
}

const NO_NAMES: readonly string[] = [];
/** A target's nodes when it writes every node: the one undefined entry (asked for ~110,000 requester and target pairs). */
const EVERY_NODE: readonly (string | undefined)[] = [undefined];

/** The impersonate-on verbs of the constrained modes for a status write: without one, only legacy impersonation can pass. */
const CONSTRAINED_ACTIONS = ['associated-node', 'arbitrary-node', 'serviceaccount', 'user-info'].flatMap((m) =>
  STATUS_VERBS.map((v) => `impersonate-on:${m}:${v}`),
);

/** Whether some cluster-wide grant allows a constrained mode's action on nodes/status (of any node: names ignored). */
function holdsConstrainedAction(rules: readonly { rule: PolicyRule }[]): boolean {
  for (const { rule } of rules) {
    // Most rules name no such verb: decided without a copy of the rule.
    if (!rule.verbs.some((v) => v === '*' || v.startsWith('impersonate-on:'))) continue;
    const unnamed = { ...rule, resourceNames: undefined };
    const allows = (verb: string) => ruleAllowsResource(unnamed, { verb, group: '', resource: 'nodes', subresource: 'status', namespace: '', name: '' });
    if (CONSTRAINED_ACTIONS.some(allows)) return true;
  }
  return false;
}

const modeOf = (d: ImpersonatedDecision): StatusWriterMode => (d.impersonation.mode === 'legacy' ? 'impersonation' : 'constrained-impersonation');

function targetEvidence(engine: AuthzEngine, d: ImpersonatedDecision, target: ImpersonationTarget): Evidence[] {
  return [
    ...impersonationEvidence(d),
    { type: 'note', text: `impersonates ${target.description} (${d.impersonation.mode} impersonation)` },
    ...(target.headers.user.startsWith('system:node:') && !nodeRestricted(engine) ? [nodeRestrictionOffNote(engine)] : []),
  ];
}

function decideTarget(
  ctx: AnalysisContext,
  requester: ReturnType<typeof userForSubject>,
  mayImpersonate: (headers: ImpersonationHeaders) => boolean,
  headers: ImpersonationHeaders,
  node: string,
): ImpersonatedDecision | undefined {
  // Most requesters cannot act as most targets at all: refused before deciding each verb
  // (impersonationFilter of the requester).
  if (!mayImpersonate(headers)) return undefined;
  const engine = ctx.engine;
  // A node identity writes (through NodeRestriction) only its own Node: the written node follows the header.
  // Without NodeRestriction it writes any node.
  const writtenNode = headers.user.startsWith('system:node:') && nodeRestricted(engine) ? headers.user.slice('system:node:'.length) : node;
  for (const verb of STATUS_VERBS as readonly StatusVerb[]) {
    const d = engine.authorizeImpersonated(requester, headers, statusTarget(verb, writtenNode));
    if (d.allowed) return d;
  }
  return undefined;
}

/** The grants that let the impersonation and the impersonated write pass. */
function impersonationEvidence(d: ImpersonatedDecision): Evidence[] {
  const out: Evidence[] = [];
  for (const c of d.impersonation.checks) if (c.mode === d.impersonation.mode && c.decision.allowed) out.push(...decisionEvidence(c.decision));
  if (d.decision) out.push(...decisionEvidence(d.decision));
  return out;
}
