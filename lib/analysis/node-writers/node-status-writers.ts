import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { AuthzEngine, ImpersonatedDecision } from '@/lib/authz/authz-engine';
import type { ImpersonationHeaders } from '@/lib/authz/impersonation';
import type { AuthzRequest } from '@/lib/authz/types';
import { nodeUser, serviceAccountUser, serviceAccountUsername } from '@/lib/authz/user-info';
import type { WhoCanEntry, WhoCanQuery } from '@/lib/authz/who-can';
import type { SubjectRef } from '@/lib/k8s/types';
import type { Evidence, NodeStatusWriter, StatusWriterMode } from '@/lib/report/types';
import { canonicalSubject } from '@/lib/analysis/context/identities';
import { resourceNamesInRules } from './rule-names';
import {
  cmp,
  compareSubjects,
  evidenceFromDecision,
  evidenceFromWhoCanGrant,
  keyOfSubject,
  normaliseEvidence,
  PROBE_NAME,
  podServiceAccount,
  subjectAppliesTo,
  userForSubject,
} from './subjects';

// DESIGN §3: for every node, each identity that can update or patch its nodes/status, with the mode
// (node-authorizer, constrained-impersonation, rbac, impersonation) and the scope (own-node,
// all-nodes, named). Candidates come from who-can queries on the engine's rule index; every
// candidate is then decided by the engine itself (authorize / authorizeImpersonated).

const AUTHN = 'authentication.k8s.io';
const STATUS_VERBS = ['update', 'patch'] as const;
type StatusVerb = (typeof STATUS_VERBS)[number];

const MODE_ORDER: Record<StatusWriterMode, number> = { 'node-authorizer': 0, 'constrained-impersonation': 1, rbac: 2, impersonation: 3 };
const SCOPE_RANK: Record<NodeStatusWriter['scope'], number> = { 'own-node': 0, named: 1, 'all-nodes': 2 };

const statusTarget = (verb: string, node: string): Pick<AuthzRequest, 'resource'> => ({
  resource: { verb, group: '', resource: 'nodes', subresource: 'status', namespace: '', name: node },
});

const nodeUsername = (node: string) => `system:node:${node}`;

/**
 * The result of the analysis. Writers that reach every node are listed once (on a cluster of
 * thousands of nodes, repeating them per node made the report gigabytes); `byNode` holds, for every
 * node, only the writers specific to it. Each list is sorted by mode, then subject.
 */
export interface NodeStatusWriterMap {
  allNodes: NodeStatusWriter[];
  byNode: Map<string, NodeStatusWriter[]>;
}

/** Every writer of one node's status: the all-nodes ones and its own, in one sorted list. */
export function statusWritersOf(writers: NodeStatusWriterMap, node: string): NodeStatusWriter[] {
  const own = writers.byNode.get(node);
  return own && own.length > 0 ? mergeSorted(writers.allNodes, own) : [...writers.allNodes];
}

export function listNodeStatusWriters(ctx: AnalysisContext): NodeStatusWriterMap {
  const engine = ctx.engine;
  const nodes = engine.nodeNames;
  const nodeSet = new Set(nodes);
  const acc = new WriterAccumulator(nodes, ctx);

  addNodeAuthorizer(engine, nodes, acc);
  const rbac = addRbac(engine, nodeSet, acc);
  if (engine.features.constrainedImpersonation) {
    addAssociatedNode(ctx, rbac, acc);
    addArbitraryNode(engine, nodeSet, rbac, acc);
  }
  addImpersonation(engine, nodeSet, rbac, acc);
  return acc.result();
}

// ------------------------------------------------------------------ node-authorizer

function addNodeAuthorizer(engine: AuthzEngine, nodes: readonly string[], acc: WriterAccumulator): void {
  if (!engine.chain.includes('Node')) return;
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
            text: `Node authorizer: the kubelet identity ${nodeUsername(node)} (group system:nodes) may update/patch nodes/status; NodeRestriction admission limits it to its own Node`,
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
      const key = keyOfSubject(entry.subject);
      let w = out.get(key);
      if (!w) out.set(key, (w = { subject: entry.subject, via: [] }));
      for (const g of entry.grants) w.via.push(evidenceFromWhoCanGrant(engine, g));
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
    const key = keyOfSubject(subject);
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
function addAssociatedNode(ctx: AnalysisContext, rbac: RbacWriters, acc: WriterAccumulator): void {
  const engine = ctx.engine;
  // The identity check always asks for name "*" (resourceNames-scoped grants never match).
  const identity = rbacEntries(engine, {
    resource: { verb: 'impersonate:associated-node', group: AUTHN, resource: 'nodes', subresource: '', namespace: '', name: '*' },
  });
  if (identity.length === 0) return;
  const actionVerbs = STATUS_VERBS.map((v) => `impersonate-on:associated-node:${v}`);
  const namedActions = resourceNamesInRules(engine, '', 'nodes', 'status', actionVerbs).size > 0;

  for (const sa of serviceAccountsWithPods(ctx)) {
    const user = serviceAccountUser(sa.namespace, sa.name);
    if (!identity.some((e) => subjectAppliesTo(e.subject, user))) continue;
    // Cheap pre-check: the action grant must exist, unrestricted or for some named node.
    if (!namedActions && !actionVerbs.some((verb) => engine.authorize({ user, ...statusTarget(verb, PROBE_NAME) }).allowed)) continue;
    const subject: SubjectRef = { kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace };
    if (rbac.all.has(keyOfSubject(subject))) continue;
    for (const node of ctx.nodesOfServiceAccount(sa.namespace, sa.name)) {
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

/** impersonate:arbitrary-node (+ the action grant): every node, or the nodes named in resourceNames. */
function addArbitraryNode(engine: AuthzEngine, nodeSet: ReadonlySet<string>, rbac: RbacWriters, acc: WriterAccumulator): void {
  const idQuery = (name: string): WhoCanQuery => ({
    resource: { verb: 'impersonate:arbitrary-node', group: AUTHN, resource: 'nodes', subresource: '', namespace: '', name },
  });
  const idNames = [...resourceNamesInRules(engine, AUTHN, 'nodes', '', ['impersonate:arbitrary-node'])].filter((n) => nodeSet.has(n));
  const candidates = new Map<string, SubjectRef>();
  for (const name of [PROBE_NAME, ...idNames]) for (const e of rbacEntries(engine, idQuery(name))) candidates.set(keyOfSubject(e.subject), e.subject);
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
    if (rbac.all.has(keyOfSubject(subject))) continue;
    const user = userForSubject(subject);
    const tryNode = (node: string): ImpersonatedDecision | undefined => {
      for (const verb of STATUS_VERBS) {
        const d = engine.authorizeImpersonated(user, { user: nodeUsername(node) }, statusTarget(verb, node));
        if (d.allowed && d.impersonation.mode === 'arbitrary-node') return d;
      }
      return undefined;
    };
    const any = tryNode(PROBE_NAME);
    if (any) {
      acc.addAll({
        subject,
        mode: 'constrained-impersonation',
        scope: 'all-nodes',
        via: [...impersonationEvidence(any), { type: 'note', text: 'impersonates any node identity (arbitrary-node)' }],
      });
      continue;
    }
    for (const node of named) {
      const d = tryNode(node);
      if (d)
        acc.addOn(node, {
          subject,
          mode: 'constrained-impersonation',
          scope: 'named',
          via: [...impersonationEvidence(d), { type: 'note', text: `impersonates ${nodeUsername(node)} (arbitrary-node, named)` }],
        });
    }
  }
}

// ------------------------------------------------------------------ impersonating a writer

interface ImpersonationTarget {
  headers: ImpersonationHeaders;
  /** undefined = every node; otherwise the nodes this identity can write. */
  nodes?: string[];
  description: string;
}

/**
 * Identities that can become a status writer: legacy `impersonate` of a node (with group
 * system:nodes), of system:masters or of a user/group/service account that writes status; and the
 * constrained serviceaccount/user-info modes towards such writers. As for the constrained node
 * modes above, subjects that already write every node's status through RBAC are not repeated (they
 * gain nothing, and admins would otherwise appear under every mode).
 */
function addImpersonation(engine: AuthzEngine, nodeSet: ReadonlySet<string>, rbac: RbacWriters, acc: WriterAccumulator): void {
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
    targets.push({ headers: writerHeaders(s), description: `${describe(s)}, which writes every node's status` });

  const nodeUserNames = [...resourceNamesInRules(engine, '', 'users', '', ['impersonate'])]
    .filter((n) => n.startsWith('system:node:') && nodeSet.has(n.slice('system:node:'.length)))
    .sort();
  for (const u of nodeUserNames)
    targets.push({ headers: { user: u, groups: ['system:nodes'] }, nodes: [u.slice('system:node:'.length)], description: `${u} (group system:nodes)` });
  for (const { subject, nodes } of [...rbac.named.values()].sort((a, b) => compareSubjects(a.subject, b.subject))) {
    targets.push({ headers: writerHeaders(subject), nodes, description: `${describe(subject)}, which writes the status of ${nodes.join(', ')}` });
  }

  // Requesters: every subject that holds one of the impersonation grants these targets need.
  const requesters = new Map<string, SubjectRef>();
  const ask = (verb: string, group: string, resource: string, name: string, namespace = '') => {
    for (const e of rbacEntries(engine, { resource: { verb, group, resource, subresource: '', namespace, name } }))
      requesters.set(keyOfSubject(e.subject), e.subject);
  };
  ask('impersonate', '', 'users', PROBE_NAME);
  ask('impersonate', '', 'groups', PROBE_NAME);
  ask('impersonate', '', 'serviceaccounts', PROBE_NAME);
  ask('impersonate', '', 'groups', 'system:nodes');
  ask('impersonate', '', 'groups', 'system:masters');
  ask('impersonate:user-info', AUTHN, 'users', PROBE_NAME);
  for (const u of nodeUserNames) ask('impersonate', '', 'users', u);
  for (const s of [...rbac.all.values(), ...[...rbac.named.values()].map((n) => n.subject)]) {
    if (s.kind === 'ServiceAccount') {
      ask('impersonate', '', 'serviceaccounts', s.name, s.namespace);
      ask('impersonate:serviceaccount', AUTHN, 'serviceaccounts', s.name, s.namespace);
    } else if (s.kind === 'User') {
      ask('impersonate', '', 'users', s.name);
      ask('impersonate:user-info', AUTHN, 'users', s.name);
    } else {
      ask('impersonate', '', 'groups', s.name);
      ask('impersonate:user-info', AUTHN, 'groups', s.name);
    }
  }

  for (const subject of [...requesters.values()].sort(compareSubjects)) {
    if (rbac.all.has(keyOfSubject(subject))) continue;
    const user = userForSubject(subject);
    const done = new Set<StatusWriterMode>();
    for (const target of targets) {
      const nodes = target.nodes ?? [undefined];
      for (const node of nodes) {
        const d = decideTarget(engine, user, target.headers, node ?? PROBE_NAME);
        if (!d) continue;
        const mode: StatusWriterMode = d.impersonation.mode === 'legacy' ? 'impersonation' : 'constrained-impersonation';
        const via: Evidence[] = [
          ...impersonationEvidence(d),
          { type: 'note', text: `impersonates ${target.description} (${d.impersonation.mode} impersonation)` },
        ];
        if (node === undefined) {
          if (done.has(mode)) continue;
          done.add(mode);
          acc.addAll({ subject, mode, scope: 'all-nodes', via });
        } else {
          acc.addOn(node, { subject, mode, scope: 'named', via });
        }
      }
    }
  }
}

function decideTarget(
  engine: AuthzEngine,
  requester: ReturnType<typeof userForSubject>,
  headers: ImpersonationHeaders,
  node: string,
): ImpersonatedDecision | undefined {
  // A node identity writes (through NodeRestriction) only its own Node: the written node follows the header.
  const writtenNode = headers.user.startsWith('system:node:') ? headers.user.slice('system:node:'.length) : node;
  for (const verb of STATUS_VERBS as readonly StatusVerb[]) {
    const d = engine.authorizeImpersonated(requester, headers, statusTarget(verb, writtenNode));
    if (d.allowed) return d;
  }
  return undefined;
}

/** The grants that let the impersonation and the impersonated write pass. */
function impersonationEvidence(d: ImpersonatedDecision): Evidence[] {
  const out: Evidence[] = [];
  for (const c of d.impersonation.checks) if (c.mode === d.impersonation.mode && c.decision.allowed) out.push(...evidenceFromDecision(c.decision));
  if (d.decision) out.push(...evidenceFromDecision(d.decision));
  return out;
}

// ------------------------------------------------------------------ helpers

function serviceAccountsWithPods(ctx: AnalysisContext): { namespace: string; name: string }[] {
  const seen = new Map<string, { namespace: string; name: string }>();
  for (const pod of ctx.state.pods) {
    if (!pod.spec?.nodeName) continue;
    const namespace = pod.metadata.namespace ?? '';
    const name = podServiceAccount(pod);
    seen.set(`${namespace}/${name}`, { namespace, name });
  }
  return [...seen.values()].sort((a, b) => cmp(a.namespace, b.namespace) || cmp(a.name, b.name));
}

class WriterAccumulator {
  private readonly all = new Map<string, NodeStatusWriter>();
  private readonly perNode = new Map<string, Map<string, NodeStatusWriter>>();

  constructor(
    private readonly nodes: readonly string[],
    private readonly ctx: AnalysisContext,
  ) {}

  addAll(w: NodeStatusWriter): void {
    const key = `${w.mode}|${keyOfSubject(w.subject)}`;
    const existing = this.all.get(key);
    if (existing) existing.via = [...existing.via, ...w.via];
    else this.all.set(key, { ...w, via: [...w.via] });
  }

  addOn(node: string, w: NodeStatusWriter): void {
    const key = `${w.mode}|${keyOfSubject(w.subject)}`;
    if (this.all.has(key)) return;
    let onNode = this.perNode.get(node);
    if (!onNode) this.perNode.set(node, (onNode = new Map()));
    const existing = onNode.get(key);
    if (!existing) onNode.set(key, { ...w, via: [...w.via] });
    else if (SCOPE_RANK[w.scope] > SCOPE_RANK[existing.scope]) onNode.set(key, { ...w, via: [...w.via, ...existing.via] });
    else existing.via = [...existing.via, ...w.via];
  }

  result(): NodeStatusWriterMap {
    const finalise = (w: NodeStatusWriter): NodeStatusWriter => {
      const via = [...w.via];
      if (this.isAdmin(w.subject)) via.push({ type: 'note', text: 'admin-equivalent: holds * verbs on * resources in * groups cluster-wide' });
      return { subject: w.subject, mode: w.mode, scope: w.scope, via: normaliseEvidence(via) };
    };
    const allNodes = [...this.all.values()].map(finalise).sort(compareWriters);
    const byNode = new Map<string, NodeStatusWriter[]>();
    for (const node of this.nodes) {
      // An entry added for one node before the same subject and mode turned out to reach every node is dropped.
      const own = [...(this.perNode.get(node)?.entries() ?? [])].filter(([key]) => !this.all.has(key)).map(([, w]) => finalise(w));
      byNode.set(node, own.sort(compareWriters));
    }
    return { allNodes, byNode };
  }

  private isAdmin(subject: SubjectRef): boolean {
    try {
      return this.ctx.isAdminEquivalent(subject);
    } catch {
      return false;
    }
  }
}

function mergeSorted(a: NodeStatusWriter[], b: NodeStatusWriter[]): NodeStatusWriter[] {
  const out: NodeStatusWriter[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(compareWriters(a[i], b[j]) <= 0 ? a[i++] : b[j++]);
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}

export function compareWriters(a: NodeStatusWriter, b: NodeStatusWriter): number {
  return MODE_ORDER[a.mode] - MODE_ORDER[b.mode] || compareSubjects(a.subject, b.subject) || SCOPE_RANK[b.scope] - SCOPE_RANK[a.scope];
}
