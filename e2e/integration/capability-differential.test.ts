import { afterAll, describe, expect, it } from 'vitest';
import { buildAnalysisContext } from '../../lib/analysis/context/build-analysis-context';
import { listNodeWriters, writersOfNode } from '../../lib/analysis/node-writers/node-writers';
import { subjectMatchesUser } from '../../lib/analysis/node-writers/subjects';
import { DEFAULT_SETTINGS } from '../../lib/analysis/settings';
import type { ClaimStatusWriter, NodeStatusWriter } from '../../lib/analysis/types';
import { createAuthzEngine } from '../../lib/authz/authz-engine';
import type { ClusterConfigOverrides } from '../../lib/authz/cluster-config';
import type { ImpersonationHeaders } from '../../lib/authz/impersonation';
import type { UserInfo } from '../../lib/authz/types';
import { boundNodeName, nodeIdentity, serviceAccountUser, serviceAccountUsername, withAuthenticationGroup } from '../../lib/authz/user-info';
import type { SubjectRef } from '../../lib/k8s/types';
import { collectLiveCluster } from '../../server/kube/collect-cluster';
import { IDENTITIES, startControlPlane, type ControlPlane } from '../kube/control-plane';
import { kubeRequest, type KubeRequestOptions, type KubeResponse } from '../kube/http';
import { seedObjects } from '../kube/seed-manifests';
import { ANCHOR_NAMESPACE, CAP_DRIVERS, CAP_NAMESPACES, CAP_NODES, capabilityGrantObjects, claimLayout, podPlacement } from './capability-grants';

// Issue #23: the capability model against a real kube-apiserver. Random RBAC, impersonation grants
// and node identities; for every identity and node, the model's node-status writers
// (writersOfNode) and claim-status writers say who writes that node's nodes/status and the
// status.devices of claims allocated there, and how. Each write is then sent for real (dryRun=All)
// as that identity (a pod-bound token carrying its node, or a static token): every path the model
// names must get through, and an identity it does not name must be refused on every path: directly,
// impersonating the node (constrained and legacy), impersonating any identity the server lets write
// that node, or system:masters. Three API servers in turn: the harness's defaults, NodeRestriction
// off, and ConstrainedImpersonation plus DRAResourceClaimGranularStatusAuthorization off.

// CAP_DIFF_SEED explores other random clusters; the committed seed is the one CI runs.
const SEED = Number(process.env.CAP_DIFF_SEED ?? 2311);
const RANDOM_GRANTS = 40;
const CONCURRENCY = 4;
const DRA = 'resource.k8s.io';

type Config = { name: string; apiserverArgs: string[]; overrides: ClusterConfigOverrides };
const gates = (on: boolean) =>
  new Map([
    ['ConstrainedImpersonation', on],
    ['DRAResourceClaimGranularStatusAuthorization', on],
  ]);
const CONFIGS: Config[] = [
  {
    name: 'defaults (NodeRestriction on, gates on)',
    apiserverArgs: [],
    overrides: { authorizationModes: ['Node', 'RBAC'], nodeRestriction: true, featureGates: gates(true) },
  },
  {
    name: 'NodeRestriction off',
    // The harness enables NodeRestriction; name a default-on plugin instead (NodeRestriction is default-off).
    apiserverArgs: ['--enable-admission-plugins=NamespaceLifecycle'],
    overrides: { authorizationModes: ['Node', 'RBAC'], nodeRestriction: false, featureGates: gates(true) },
  },
  {
    name: 'ConstrainedImpersonation and granular status authorization off',
    apiserverArgs: ['--feature-gates=ConstrainedImpersonation=false,DRAResourceClaimGranularStatusAuthorization=false'],
    overrides: { authorizationModes: ['Node', 'RBAC'], nodeRestriction: true, featureGates: gates(false) },
  },
];

/** Who sends a request: a real bearer token, or (no token) the admin impersonating `user`, for direct writes only. */
interface Actor {
  label: string;
  /** The identity the server authenticates (or impersonates): what the model's writers are matched against. */
  user: UserInfo;
  token?: string;
  /** For the admin-impersonated actors: the headers that make the admin this identity. */
  as?: Record<string, string>;
}

type VariantKind = 'direct' | 'constrained-node' | 'legacy-node' | 'writer' | 'masters';
interface Variant {
  kind: VariantKind;
  headers?: ImpersonationHeaders;
}

interface Outcome {
  allowed: boolean;
  detail: string;
}

const DIRECT_MODES = new Set<NodeStatusWriter['mode']>(['node-authorizer', 'rbac']);

interface Report {
  config: string;
  disagreements: string[];
  untested: string[];
  /** (identity, node) pairs allowed by the server, by how (the engine's reading of the request that got through). */
  nodeAllowedBy: Record<string, number>;
  /** Model entries met per mode (node status) on pairs the server allowed. */
  nodeNamedModes: Record<string, number>;
  nodePairs: { named: number; notNamed: number };
  refusedVariants: Record<VariantKind, number>;
  claimAllowedBy: Record<string, number>;
  claimPairs: { named: number; notNamed: number; refusedWrites: number };
  /** Writes to one node's status by another node's identity (a kubelet's, or one impersonated) that got through. */
  crossNodeAllowed: number;
  constrainedEntries: number;
  requests: number;
}

const bump = (r: Record<string, number>, k: string) => (r[k] = (r[k] ?? 0) + 1);
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

async function pool<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

function headerMap(h: ImpersonationHeaders | undefined): Record<string, string> {
  if (!h) return {};
  const out: Record<string, string> = { 'Impersonate-User': h.user };
  if (h.groups?.length) out['Impersonate-Group'] = h.groups.join(', ');
  return out;
}

function describeVariant(v: Variant): string {
  if (!v.headers) return 'direct';
  return `${v.kind} as ${v.headers.user}${v.headers.groups?.length ? ` +groups ${v.headers.groups.join(',')}` : ''}`;
}

const subjectLabel = (s: SubjectRef) => (s.kind === 'ServiceAccount' ? `ServiceAccount ${s.namespace}/${s.name}` : `${s.kind} ${s.name}`);

/** The identity an RBAC binding subject stands for when the admin impersonates it (a group: one member nobody else is). */
function impersonatedActor(s: SubjectRef): Actor {
  if (s.kind === 'ServiceAccount') {
    const name = serviceAccountUsername(s.namespace ?? '', s.name);
    return { label: subjectLabel(s), user: serviceAccountUser(s.namespace ?? '', s.name), as: { 'Impersonate-User': name } };
  }
  if (s.kind === 'User') {
    // A kubelet's identity is its user name with group system:nodes (what the Node authorizer recognises).
    const groups = s.name.startsWith('system:node:') ? ['system:nodes'] : [];
    const as: Record<string, string> = { 'Impersonate-User': s.name, ...(groups.length ? { 'Impersonate-Group': groups.join(',') } : {}) };
    return { label: subjectLabel(s), user: { name: s.name, groups: withAuthenticationGroup(s.name, groups) }, as };
  }
  const name = `dp-member-of-${s.name}`;
  return {
    label: subjectLabel(s),
    user: { name, groups: withAuthenticationGroup(name, [s.name]) },
    as: { 'Impersonate-User': name, 'Impersonate-Group': s.name },
  };
}

/** Whether a model entry names this identity: its subject is the identity or one of its groups; a node-authorizer entry only ever names node identities. */
function names(entry: { subject: SubjectRef; mode: string }, user: UserInfo): boolean {
  if (entry.mode === 'node-authorizer' && !nodeIdentity(user)) return false;
  return subjectMatchesUser(entry.subject, user);
}

async function runConfiguration(config: Config): Promise<Report> {
  const report: Report = {
    config: config.name,
    disagreements: [],
    untested: [],
    nodeAllowedBy: {},
    nodeNamedModes: {},
    nodePairs: { named: 0, notNamed: 0 },
    refusedVariants: { direct: 0, 'constrained-node': 0, 'legacy-node': 0, writer: 0, masters: 0 },
    claimAllowedBy: {},
    claimPairs: { named: 0, notNamed: 0, refusedWrites: 0 },
    crossNodeAllowed: 0,
    constrainedEntries: 0,
    requests: 0,
  };
  const t0 = Date.now();
  const cp: ControlPlane = await startControlPlane({ controllers: false, extraApiserverArgs: config.apiserverArgs });
  running.add(cp);
  try {
    const admin = async (path: string, method = 'GET', body?: unknown) => {
      const res = await cp.request('admin', path, { method, body });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      return res.body;
    };

    // ---------------------------------------------------------------- seed
    const placement = podPlacement(SEED);
    const claims = claimLayout(SEED);
    const objects: Record<string, any>[] = [
      ...[...CAP_NAMESPACES, ANCHOR_NAMESPACE].map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })),
      // Every account of the placement (the random grants' and the fixed grants'), pods or not.
      ...[...placement.keys()].map((key) => {
        const [namespace, name] = key.split('/');
        return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } };
      }),
      ...CAP_NODES.map((name) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } } })),
      { apiVersion: `${DRA}/v1`, kind: 'DeviceClass', metadata: { name: 'cap-devices' }, spec: {} },
      ...[...placement].flatMap(([key, nodes]) => {
        const [namespace, sa] = key.split('/');
        return nodes.map((node) => ({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: `p-${sa}-${node}`, namespace },
          spec: { nodeName: node, serviceAccountName: sa, containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] },
        }));
      }),
      ...claims.map((c) => ({
        apiVersion: `${DRA}/v1`,
        kind: 'ResourceClaim',
        metadata: { name: c.name, namespace: c.namespace },
        spec: { devices: { requests: [{ name: 'dev', exactly: { deviceClassName: 'cap-devices' } }] } },
        status: {
          allocation: {
            devices: { results: c.drivers.map((driver) => ({ request: 'dev', driver, pool: c.node, device: 'dev-0' })) },
            // The strict single-node form: the only one associated-node verbs apply to.
            nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [c.node] }] }] },
          },
        },
      })),
      ...capabilityGrantObjects(SEED, RANDOM_GRANTS),
    ];
    await seedObjects(cp, objects as never);

    // ---------------------------------------------------------------- requesters
    const tokenRequest = async (ns: string, sa: string, pod?: string) => {
      const boundObjectRef = pod
        ? { kind: 'Pod', apiVersion: 'v1', name: pod, uid: (await admin(`/api/v1/namespaces/${ns}/pods/${pod}`)).metadata.uid }
        : undefined;
      const res = await admin(`/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`, 'POST', {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { audiences: [], expirationSeconds: 3600, ...(boundObjectRef ? { boundObjectRef } : {}) },
      });
      return res.status.token as string;
    };
    const requesters: Actor[] = [];
    for (const [key, nodes] of placement) {
      const [ns, sa] = key.split('/');
      // A pod's token names the pod's node; an account with no pods gets a token that names none.
      if (nodes.length === 0) requesters.push({ label: `${key} (no pods)`, user: serviceAccountUser(ns, sa), token: await tokenRequest(ns, sa) });
      for (const node of nodes)
        requesters.push({ label: `${key}@${node}`, user: serviceAccountUser(ns, sa, node), token: await tokenRequest(ns, sa, `p-${sa}-${node}`) });
    }
    for (const name of ['viewer', 'ns-viewer', 'node-a', 'node-b'] as const) {
      const id = IDENTITIES[name];
      requesters.push({ label: name, user: { name: id.user, groups: withAuthenticationGroup(id.user, [...id.groups]) }, token: cp.tokens[name] });
    }

    // ---------------------------------------------------------------- the model
    const state = (await collectLiveCluster({ kubeconfig: cp.kubeconfigPath })).state;
    const engine = createAuthzEngine(state, { overrides: config.overrides });
    const ctx = buildAnalysisContext(state, engine, DEFAULT_SETTINGS);
    const lists = listNodeWriters(ctx);
    report.constrainedEntries = [...lists.allNodes.statusWriters, ...lists.nodes.flatMap((n) => n.statusWriters)].filter(
      (w) => w.mode === 'constrained-impersonation',
    ).length;

    // Every RBAC subject, and every subject the model names, that no requester is: the admin impersonates it (direct writes only).
    const bySubject = new Map<string, SubjectRef>();
    const addSubject = (s: SubjectRef) => bySubject.set(subjectLabel(s), s);
    for (const b of [...state.clusterRoleBindings, ...state.roleBindings])
      for (const s of b.subjects ?? [])
        addSubject(
          s.kind === 'ServiceAccount'
            ? { kind: 'ServiceAccount', name: s.name, namespace: s.namespace ?? b.metadata.namespace }
            : { kind: s.kind as 'User' | 'Group', name: s.name },
        );
    for (const w of [
      ...lists.allNodes.statusWriters,
      ...lists.allNodes.claimStatusWriters,
      ...lists.nodes.flatMap((n) => [...n.statusWriters, ...n.claimStatusWriters]),
    ])
      addSubject(w.subject);
    const isRequester = (s: SubjectRef) =>
      requesters.some((r) =>
        s.kind === 'ServiceAccount' ? r.user.name === serviceAccountUsername(s.namespace ?? '', s.name) : s.kind === 'User' && r.user.name === s.name,
      );
    const impersonated = [...bySubject.values()].filter((s) => !isRequester(s)).map(impersonatedActor);
    const actors = [...requesters, ...impersonated];

    // User names a requester may put beside an impersonated group: one no grant names, and every name
    // the cluster's user-impersonation rules list (read from the RBAC objects, not from the model).
    const groupMemberNames = ['dp-anyone'];
    for (const role of [...state.clusterRoles, ...state.roles])
      for (const rule of role.rules ?? [])
        if (rule.resources?.includes('users') && rule.verbs.some((v) => v === 'impersonate' || v === 'impersonate:user-info'))
          for (const n of rule.resourceNames ?? []) if (!groupMemberNames.includes(n)) groupMemberNames.push(n);

    // ---------------------------------------------------------------- sending
    const send = (actor: Actor, path: string, opts: KubeRequestOptions): Promise<KubeResponse> => {
      report.requests++;
      const sep = path.includes('?') ? '&' : '?';
      const p = `${path}${sep}dryRun=All`;
      if (actor.token) return kubeRequest(cp.url, actor.token, p, opts);
      return cp.request('admin', p, { ...opts, headers: { ...opts.headers, ...actor.as } });
    };
    /** 2xx: through; 403, or 422 from DRA status authorization: refused; anything else is a broken test. */
    const outcome = (res: KubeResponse, what: string): Outcome => {
      const message = String(res.body?.message ?? '');
      if (res.status >= 200 && res.status < 300) return { allowed: true, detail: `${res.status}` };
      if (res.status === 403 || (res.status === 422 && /requires/.test(message))) return { allowed: false, detail: `${res.status} ${message.slice(0, 220)}` };
      throw new Error(`${what}: unexpected ${res.status} ${message.slice(0, 400)}`);
    };

    const nodeObjects = new Map<string, any>();
    for (const n of CAP_NODES) nodeObjects.set(n, await admin(`/api/v1/nodes/${n}`));
    const condition = (reason: string) => ({
      type: 'example.com/CapabilityProbe',
      status: 'True',
      reason,
      message: 'capability differential',
      lastHeartbeatTime: now(),
      lastTransitionTime: now(),
    });
    /** patch, then (if refused) update of nodes/status: the model counts either verb. */
    /** One write of nodes/status with one verb. */
    const writeNodeStatusWith = async (actor: Actor, node: string, v: Variant, verb: StatusVerb): Promise<Outcome> => {
      const headers = headerMap(v.headers);
      const path = `/api/v1/nodes/${node}/status`;
      const what = `${actor.label} ${describeVariant(v)} → ${verb} nodes/${node}/status`;
      let o: Outcome;
      if (verb === 'patch') {
        const body = { status: { conditions: [condition('Patch')] } };
        o = outcome(await send(actor, path, { method: 'PATCH', body, contentType: 'application/strategic-merge-patch+json', headers }), what);
      } else {
        const old = nodeObjects.get(node);
        const body = { ...old, status: { ...old.status, conditions: [...(old.status?.conditions ?? []), condition('Update')] } };
        o = outcome(await send(actor, path, { method: 'PUT', body, headers }), what);
      }
      return { ...o, detail: `${verb} ${o.detail}` };
    };
    /** Both verbs' outcomes as one: the model counts a writer by either. */
    const combine = (outs: Outcome[]): Outcome => outs.find((o) => o.allowed) ?? { allowed: false, detail: outs.map((o) => o.detail).join('; ') };
    /** patch, then (if refused) update. */
    const writeNodeStatus = async (actor: Actor, node: string, v: Variant): Promise<Outcome> => {
      const patched = await writeNodeStatusWith(actor, node, v, 'patch');
      return patched.allowed ? patched : combine([patched, await writeNodeStatusWith(actor, node, v, 'update')]);
    };

    // ---------------------------------------------------------------- nodes/status: direct writes of every actor
    const direct = new Map<string, Outcome>();
    const directKey = (a: Actor, node: string) => `${a.label}|${node}`;
    await pool(
      actors.flatMap((a) => CAP_NODES.map((node) => ({ a, node }))),
      async ({ a, node }) => void direct.set(directKey(a, node), await writeNodeStatus(a, node, { kind: 'direct' })),
    );

    // Identities the server lets write a node's status directly: what a requester may impersonate to write it.
    const writerTargets = (node: string): ImpersonationHeaders[] => {
      const out = new Map<string, ImpersonationHeaders>();
      const add = (h: ImpersonationHeaders) => out.set(JSON.stringify(h), h);
      for (const a of actors) {
        if (!direct.get(directKey(a, node))?.allowed || nodeIdentity(a.user)) continue;
        const viaGroup = a.as?.['Impersonate-Group'];
        if (viaGroup) for (const u of groupMemberNames) add({ user: u, groups: [viaGroup] });
        else add({ user: a.user.name });
      }
      return [...out.values()];
    };
    const variantsFor = (node: string): Variant[] => {
      // Every node identity: without NodeRestriction any of them writes every node; with it, one
      // writing another node must be refused (admission), which the cross-node count checks.
      return [
        { kind: 'direct' },
        ...CAP_NODES.map((n): Variant => ({ kind: 'constrained-node', headers: { user: `system:node:${n}` } })),
        ...CAP_NODES.map((n): Variant => ({ kind: 'legacy-node', headers: { user: `system:node:${n}`, groups: ['system:nodes'] } })),
        ...writerTargets(node).map((headers): Variant => ({ kind: 'writer', headers })),
        ...groupMemberNames.map((u): Variant => ({ kind: 'masters', headers: { user: u, groups: ['system:masters'] } })),
      ];
    };

    /** How the engine reads a direct write the server allowed (the deciding authorizer). */
    const directHow = (user: UserInfo, node: string) =>
      `direct:${STATUS_VERBS.map((verb) => engine.authorize({ user, resource: statusAttrs(node, verb) })).find((d) => d.allowed)?.decidedBy ?? 'engine-refused'}`;

    // ---------------------------------------------------------------- nodes/status: impersonating requests
    // kube-apiserver keeps, per requester user name, the impersonation mode that last succeeded and
    // tries it first (k8s.io/apiserver pkg/endpoints/filters/impersonation: getImpersonatedUser and
    // modeIndexCache, an LRU with no expiry). Once a requester that may legacy-impersonate the user
    // system:node:<x> has succeeded in legacy mode, Impersonate-User: system:node:<x> is decided by
    // legacy impersonation first, which gives a user outside system:nodes, even where a constrained
    // node mode (which gives the kubelet's identity) allows it. On a fresh server the constrained modes
    // come first. So each requester's node impersonations that the engine expects a constrained mode
    // to allow (that verb only: the other may fall through to legacy) are sent before any request
    // that could succeed in legacy mode.
    const outcomes = new Map<string, Outcome>();
    const outcomeKey = (a: Actor, node: string, i: number) => `${a.label}|${node}|${i}`;
    const constrainedExpected = (a: Actor, node: string, v: Variant, verb: StatusVerb) => {
      if (v.kind !== 'constrained-node') return false;
      const d = engine.authorizeImpersonated(a.user, v.headers!, { resource: statusAttrs(node, verb) });
      return d.allowed && d.impersonation.mode !== 'legacy';
    };
    const byUsername = new Map<string, Actor[]>();
    for (const a of requesters) byUsername.set(a.user.name, [...(byUsername.get(a.user.name) ?? []), a]);
    await pool([...byUsername.values()], async (group) => {
      const jobs = group.flatMap((a) =>
        CAP_NODES.flatMap((node) => variantsFor(node).flatMap((v, i) => (v.kind === 'direct' ? [] : STATUS_VERBS.map((verb) => ({ a, node, v, i, verb }))))),
      );
      const rank = (j: (typeof jobs)[number]) => (j.v.kind !== 'constrained-node' ? 2 : constrainedExpected(j.a, j.node, j.v, j.verb) ? 0 : 1);
      const byVariant = new Map<string, Outcome[]>();
      for (const j of jobs.sort((x, y) => rank(x) - rank(y))) {
        const key = outcomeKey(j.a, j.node, j.i);
        const done = byVariant.get(key) ?? [];
        if (done.some((o) => o.allowed)) continue;
        byVariant.set(key, [...done, await writeNodeStatusWith(j.a, j.node, j.v, j.verb)]);
      }
      for (const [key, outs] of byVariant) outcomes.set(key, combine(outs));
    });

    // ---------------------------------------------------------------- nodes/status: compare
    /** Model entries some actor was checked against, by node. */
    const exercised = new Set<string>();
    const entryKey = (node: string, w: NodeStatusWriter) => `${node}|${w.mode}/${w.scope}|${subjectLabel(w.subject)}`;
    const tasks = actors.flatMap((a) => CAP_NODES.map((node) => ({ a, node })));
    for (const { a, node } of tasks) {
      const tokenNode = boundNodeName(a.user);
      const named = writersOfNode(lists, node).statusWriters.filter(
        // A constrained own-node writer writes a node through its pods there: only with a token bound to that node.
        (w) => names(w, a.user) && !(w.mode === 'constrained-impersonation' && w.scope === 'own-node' && tokenNode !== node),
      );
      const at = `${config.name}: ${a.label} → nodes/${node}/status`;
      const modelSays = named.map((w) => `${w.mode}/${w.scope} (${subjectLabel(w.subject)})`).join(', ') || 'no writer';
      if (!a.token) {
        // The admin impersonates this identity: only its direct writes can be sent.
        const d = direct.get(directKey(a, node))!;
        const directNamed = named.filter((w) => DIRECT_MODES.has(w.mode));
        for (const w of directNamed) exercised.add(entryKey(node, w));
        if (d.allowed !== directNamed.length > 0)
          report.disagreements.push(`${at} direct: server ${d.allowed ? 'allowed' : `refused (${d.detail})`}; model: ${modelSays}`);
        if (d.allowed) bump(report.nodeAllowedBy, directHow(a.user, node));
        else report.refusedVariants.direct++;
        continue;
      }
      for (const w of named) exercised.add(entryKey(node, w));
      const results: { v: Variant; o: Outcome }[] = [];
      for (const [i, v] of variantsFor(node).entries())
        results.push({ v, o: v.kind === 'direct' ? direct.get(directKey(a, node))! : outcomes.get(outcomeKey(a, node, i))! });
      const allowed = results.filter((r) => r.o.allowed);
      const show = (rs: typeof results) => rs.map((r) => describeVariant(r.v)).join('; ');
      if (named.length > 0) report.nodePairs.named++;
      else report.nodePairs.notNamed++;
      for (const r of results) if (!r.o.allowed) report.refusedVariants[r.v.kind]++;

      // The model names the identity iff some request gets through.
      if (named.length > 0 && allowed.length === 0)
        report.disagreements.push(
          `${at}: model names it (${modelSays}); server refused every request (${results
            .map((r) => `${describeVariant(r.v)}: ${r.o.detail}`)
            .join(' | ')
            .slice(0, 1500)})`,
        );
      if (named.length === 0 && allowed.length > 0) report.disagreements.push(`${at}: model names no path; server allowed ${show(allowed)}`);
      // The plain request gets through iff the model names a direct mode (RBAC or the Node authorizer).
      const directAllowed = results[0].o.allowed;
      const directNamed = named.some((w) => DIRECT_MODES.has(w.mode));
      if (directAllowed !== directNamed)
        report.disagreements.push(`${at}: direct request ${directAllowed ? 'allowed' : `refused (${results[0].o.detail})`}; model: ${modelSays}`);
      // Each impersonation mode the model names has a request of that kind that gets through.
      const impersonating = allowed.filter((r) => r.v.headers);
      if (named.some((w) => w.mode === 'constrained-impersonation') && !impersonating.some((r) => r.v.kind !== 'legacy-node' && r.v.kind !== 'masters'))
        report.disagreements.push(
          `${at}: model names constrained impersonation (${modelSays}); no such request got through (allowed: ${show(allowed) || 'none'})`,
        );
      if (named.some((w) => w.mode === 'impersonation') && impersonating.length === 0)
        report.disagreements.push(`${at}: model names legacy impersonation (${modelSays}); no impersonating request got through`);

      // Counts: how each allowed pair got through, as the engine reads the request the server let through.
      for (const w of named) if (allowed.length > 0) bump(report.nodeNamedModes, `${w.mode}/${w.scope}`);
      const how = new Set<string>();
      for (const r of allowed) {
        if (!r.v.headers) {
          how.add(directHow(a.user, node));
          continue;
        }
        const target = r.v.headers.user.startsWith('system:node:') && config.overrides.nodeRestriction ? r.v.headers.user.slice('system:node:'.length) : node;
        const d = STATUS_VERBS.map((verb) => engine.authorizeImpersonated(a.user, r.v.headers!, { resource: statusAttrs(target, verb) })).find(
          (x) => x.allowed,
        );
        how.add(d?.impersonation.mode ?? `engine-refused:${r.v.kind}`);
        if (!d) console.log(`engine refuses what the server allowed: ${at} ${describeVariant(r.v)}`);
        // A node identity (constrained node mode, or legacy with system:nodes) writing another node.
        const asNode = r.v.kind === 'constrained-node' || r.v.kind === 'legacy-node';
        if (asNode && r.v.headers.user !== `system:node:${node}`) report.crossNodeAllowed++;
      }
      if (nodeIdentity(a.user) && a.user.name !== `system:node:${node}` && directAllowed) report.crossNodeAllowed++;
      for (const h of how) bump(report.nodeAllowedBy, h);
    }

    // Every entry the model lists must have been sent by some identity it names.
    for (const node of CAP_NODES)
      for (const w of writersOfNode(lists, node).statusWriters)
        if (!exercised.has(entryKey(node, w)))
          report.untested.push(`${config.name}: nodes/${node}/status ${w.mode}/${w.scope} (${subjectLabel(w.subject)}): no requester it names`);

    // ---------------------------------------------------------------- status.devices of claims
    const claimObjects = new Map<string, any>();
    for (const c of claims) claimObjects.set(c.name, await admin(`/apis/${DRA}/v1/namespaces/${c.namespace}/resourceclaims/${c.name}`));
    const writeDevices = async (actor: Actor, claim: (typeof claims)[number], driver: string): Promise<Outcome> => {
      const old = claimObjects.get(claim.name);
      const path = `/apis/${DRA}/v1/namespaces/${claim.namespace}/resourceclaims/${claim.name}/status`;
      const what = `${actor.label} → ${claim.namespace}/${claim.name} devices of ${driver}`;
      const devices = [
        {
          driver,
          pool: claim.node,
          device: 'dev-0',
          conditions: [{ type: 'Ready', status: 'True', reason: 'Probe', message: 'capability differential', lastTransitionTime: now() }],
        },
      ];
      const patched = outcome(await send(actor, path, { method: 'PATCH', body: { status: { devices } }, contentType: 'application/merge-patch+json' }), what);
      if (patched.allowed) return patched;
      const updated = outcome(await send(actor, path, { method: 'PUT', body: { ...old, status: { ...old.status, devices } } }), what);
      return updated.allowed ? updated : { allowed: false, detail: `patch ${patched.detail}; update ${updated.detail}` };
    };
    const claimsExercised = new Set<string>();
    const claimKey = (node: string, w: ClaimStatusWriter) => `${node}|${w.driver}|${w.mode}|${subjectLabel(w.subject)}`;
    const claimTasks = actors.flatMap((a) => CAP_NODES.flatMap((node) => CAP_DRIVERS.map((driver) => ({ a, node, driver }))));
    await pool(claimTasks, async ({ a, node, driver }) => {
      const here = claims.filter((c) => c.node === node && c.drivers.includes(driver));
      if (here.length === 0) return;
      const tokenNode = boundNodeName(a.user);
      const covers = (w: ClaimStatusWriter) => w.driver === driver && names(w, a.user) && (w.mode !== 'associated-node' || tokenNode === node);
      const named = writersOfNode(lists, node).claimStatusWriters.filter(covers);
      for (const w of named) claimsExercised.add(claimKey(node, w));
      const everywhere = lists.allNodes.claimStatusWriters.filter(covers);
      const results = [];
      for (const c of here) results.push({ c, o: await writeDevices(a, c, driver) });
      const allowed = results.filter((r) => r.o.allowed);
      const at = `${config.name}: ${a.label} → status.devices of ${driver} on ${node}`;
      const modelSays = named.map((w) => `${w.mode} (${subjectLabel(w.subject)})`).join(', ') || 'no writer';
      if (named.length > 0) report.claimPairs.named++;
      else report.claimPairs.notNamed++;
      report.claimPairs.refusedWrites += results.length - allowed.length;
      if (named.length > 0 !== allowed.length > 0)
        report.disagreements.push(
          `${at}: model ${modelSays}; server ${allowed.length ? `allowed ${allowed.map((r) => `${r.c.namespace}/${r.c.name}`).join(', ')}` : `refused (${results.map((r) => `${r.c.namespace}/${r.c.name}: ${r.o.detail}`).join(' | ')})`}`,
        );
      // A writer the model lists for every node writes every such claim, wherever it is.
      if (everywhere.length > 0 && allowed.length < results.length)
        report.disagreements.push(
          `${at}: model lists ${everywhere.map((w) => subjectLabel(w.subject)).join(', ')} as writing ${driver} claims on every node; server refused ${results
            .filter((r) => !r.o.allowed)
            .map((r) => `${r.c.namespace}/${r.c.name} (${r.o.detail})`)
            .join(', ')}`,
        );
      if (allowed.length > 0)
        for (const m of new Set(named.map((w) => (engine.features.granularStatusAuthorization ? w.mode : 'legacy-status')))) bump(report.claimAllowedBy, m);
    });
    for (const node of CAP_NODES)
      for (const w of writersOfNode(lists, node).claimStatusWriters)
        if (!claimsExercised.has(claimKey(node, w)))
          report.untested.push(`${config.name}: status.devices of ${w.driver} on ${node} ${w.mode} (${subjectLabel(w.subject)}): no requester it names`);
  } finally {
    await cp.stop();
    running.delete(cp);
  }
  console.log(
    `capability differential [${config.name}] in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${report.requests} requests: ` +
      `nodes/status pairs named ${report.nodePairs.named} / not named ${report.nodePairs.notNamed}, allowed by ${JSON.stringify(report.nodeAllowedBy)}, ` +
      `named modes ${JSON.stringify(report.nodeNamedModes)}, refused requests ${JSON.stringify(report.refusedVariants)}, cross-node ${report.crossNodeAllowed}; ` +
      `status.devices pairs named ${report.claimPairs.named} / not named ${report.claimPairs.notNamed} (refused writes ${report.claimPairs.refusedWrites}), allowed by ${JSON.stringify(report.claimAllowedBy)}; ` +
      `${report.disagreements.length} disagreements, ${report.untested.length} untested`,
  );
  if (report.disagreements.length) console.error(report.disagreements.join('\n'));
  if (report.untested.length) console.log(`untested:\n${report.untested.join('\n')}`);
  return report;
}

const STATUS_VERBS = ['patch', 'update'] as const;
type StatusVerb = (typeof STATUS_VERBS)[number];
function statusAttrs(node: string, verb: string) {
  return { verb, group: '', resource: 'nodes', subresource: 'status', namespace: '', name: node };
}

const running = new Set<ControlPlane>();
afterAll(async () => {
  for (const cp of running) await cp.stop();
});

const THREE_MINUTES_EACH = 180_000;

describe('capability model vs the real kube-apiserver (dryRun=All writes)', () => {
  it(
    `${CONFIGS[0].name}: every named writer gets through, every other identity is refused`,
    async () => {
      const r = await runConfiguration(CONFIGS[0]);
      expect(r.disagreements).toEqual([]);
      expect(r.untested).toEqual([]);
      for (const how of ['direct:rbac', 'direct:node', 'associated-node', 'arbitrary-node', 'legacy', 'serviceaccount', 'user-info'])
        expect(r.nodeAllowedBy[how] ?? 0, how).toBeGreaterThan(0);
      for (const kind of ['direct', 'constrained-node', 'legacy-node', 'writer', 'masters'] as const) expect(r.refusedVariants[kind], kind).toBeGreaterThan(0);
      expect(r.nodePairs.notNamed).toBeGreaterThan(5);
      expect(r.claimAllowedBy['associated-node'] ?? 0).toBeGreaterThan(0);
      expect(r.claimAllowedBy['arbitrary-node'] ?? 0).toBeGreaterThan(0);
      expect(r.claimPairs.notNamed).toBeGreaterThan(5);
      // NodeRestriction holds every node identity (and whoever impersonates one) to its own node.
      expect(r.crossNodeAllowed).toBe(0);
    },
    THREE_MINUTES_EACH,
  );

  it(
    `${CONFIGS[1].name}: node identities write every node, and so does whoever impersonates one`,
    async () => {
      const r = await runConfiguration(CONFIGS[1]);
      expect(r.disagreements).toEqual([]);
      expect(r.untested).toEqual([]);
      for (const how of ['direct:rbac', 'direct:node', 'associated-node', 'arbitrary-node', 'legacy'])
        expect(r.nodeAllowedBy[how] ?? 0, how).toBeGreaterThan(0);
      expect(r.crossNodeAllowed).toBeGreaterThan(0);
      expect(r.nodeNamedModes['node-authorizer/all-nodes'] ?? 0).toBeGreaterThan(0);
      expect(r.nodeNamedModes['constrained-impersonation/all-nodes'] ?? 0).toBeGreaterThan(0);
    },
    THREE_MINUTES_EACH,
  );

  it(
    `${CONFIGS[2].name}: legacy impersonation only, and resourceclaims/status alone writes device status`,
    async () => {
      const r = await runConfiguration(CONFIGS[2]);
      expect(r.disagreements).toEqual([]);
      expect(r.untested).toEqual([]);
      expect(r.constrainedEntries).toBe(0);
      for (const how of ['direct:rbac', 'direct:node', 'legacy']) expect(r.nodeAllowedBy[how] ?? 0, how).toBeGreaterThan(0);
      for (const how of ['associated-node', 'arbitrary-node', 'serviceaccount', 'user-info']) expect(r.nodeAllowedBy[how] ?? 0, how).toBe(0);
      expect(r.claimAllowedBy['legacy-status'] ?? 0).toBeGreaterThan(0);
      expect(r.claimPairs.notNamed).toBeGreaterThan(5);
    },
    THREE_MINUTES_EACH,
  );
});
