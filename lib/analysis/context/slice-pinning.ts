import { clusterPolicies, servedDraVersions } from '@/lib/admission/cluster-policies';
import type { AdmissionRequest } from '@/lib/admission/types';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { ObjectRef, ValidatingAdmissionPolicy } from '@/lib/k8s/types';
import { objectRef } from '@/lib/k8s/refs';
import { podIndexOf } from './pod-index';

// Which ValidatingAdmissionPolicies pin a node-local driver's ResourceSlice writes to its own node.
// Evaluated (lib/admission), not recognised by their form: a writer is pinned by a policy when that
// policy refuses each write it could make to another node's slices (create one naming another node,
// one for all nodes, one with a node selector; update and delete another node's) as that identity,
// its token naming the node it runs on. An outcome the evaluator cannot decide pins nothing.

const NODE_NAME_EXTRA = 'authentication.kubernetes.io/node-name';
const SA_PREFIX = 'system:serviceaccount:';

export type PinningVerdict = { pinned: true } | { pinned: false; unknown?: string };

export interface PinningPolicy {
  policy: ObjectRef;
  bindings: ObjectRef[];
  /** Usernames its matchConditions name (for the explanation); undefined = its conditions name none. */
  usernames?: string[];
  /** Why the policy cannot apply at all (API versions not served); undefined otherwise. */
  unreadCondition?: string;
  /** Whether this policy refuses every probe write of another node's slices by this user (carrying these groups too: a group's member). */
  verdict(username: string, groups?: readonly string[]): PinningVerdict;
}

type PinningState = Pick<ClusterState, 'validatingAdmissionPolicies' | 'validatingAdmissionPolicyBindings' | 'pods' | 'namespaces'> &
  Partial<Pick<ClusterState, 'nodes' | 'resourceSlices'>>;

/** Bound (Deny) policies on ResourceSlice writes, each with its evaluated verdict per writer. */
export function slicePinningPolicies(state: PinningState): PinningPolicy[] {
  const out: PinningPolicy[] = [];
  const served = servedDraVersions(state);
  const evaluator = clusterPolicies(state);
  const verdicts = new Map<string, Map<string, PinningVerdict>>();
  const probeDecisions = (username: string, groups: readonly string[]) => {
    const key = verdictKey(username, groups);
    let byPolicy = verdicts.get(key);
    if (byPolicy) return byPolicy;
    byPolicy = new Map();
    const seen = new Map<string, { denied: number; unknown?: string; admitted: boolean }>();
    const probes = probeWrites(state, username, groups);
    for (const probe of probes) {
      const decided = new Set<string>();
      for (const d of evaluator.decisions(probe)) {
        const name = d.ref.policy.name;
        const s = seen.get(name) ?? { denied: 0, admitted: false };
        seen.set(name, s);
        if (d.decision === 'deny' && !decided.has(name)) {
          s.denied++;
          decided.add(name);
        } else if (d.decision === 'unknown') s.unknown ??= d.reason;
      }
    }
    for (const [name, s] of seen)
      byPolicy.set(name, s.denied === probes.length ? { pinned: true } : s.unknown ? { pinned: false, unknown: s.unknown } : { pinned: false });
    verdicts.set(key, byPolicy);
    return byPolicy;
  };
  for (const p of state.validatingAdmissionPolicies) {
    const versions = sliceVersions(p);
    if (!versions) continue;
    const bindings = state.validatingAdmissionPolicyBindings
      .filter((b) => b.spec?.policyName === p.metadata.name && (b.spec?.validationActions ?? []).includes('Deny'))
      .map((b) => objectRef('ValidatingAdmissionPolicyBinding', b.metadata.name));
    if (bindings.length === 0) continue;
    const name = p.metadata.name;
    const entry: PinningPolicy = {
      policy: objectRef('ValidatingAdmissionPolicy', name),
      bindings,
      verdict: (username, groups = []) => probeDecisions(username, groups).get(name) ?? { pinned: false },
    };
    if (versions.size > 0 && !versions.has('*') && ![...versions].some((v) => served.has(v)))
      entry.unreadCondition = `it matches only resource.k8s.io ${[...versions].sort().join(', ')}, which the API server serves only when --runtime-config enables it`;
    for (const c of p.spec?.matchConditions ?? []) {
      const names = usernamesOf(c.expression);
      if (names) entry.usernames = entry.usernames ? entry.usernames.filter((n) => names.includes(n)) : names;
    }
    out.push(entry);
  }
  const readable = new Set(out.filter((p) => p.unreadCondition === undefined).map((p) => p.policy.name));
  pinsAnyOf.set(out, (username, groups) => {
    const known = verdicts.get(verdictKey(username, groups));
    if (known) {
      for (const name of readable) if (known.get(name)?.pinned) return true;
      return false;
    }
    // A policy pins only when it refuses every probe: once no policy has refused all probes so far the
    // answer is no, and the rest are not evaluated (most writers asked about, e.g. by the issues' risk,
    // are pinned by no policy, and their first probe already says so).
    let refusedAll: Set<string> | undefined;
    for (const probe of probeWrites(state, username, groups)) {
      const refused = new Set<string>();
      for (const d of evaluator.decisions(probe)) {
        const name = d.ref.policy.name;
        if (d.decision === 'deny' && (refusedAll ?? readable).has(name)) refused.add(name);
      }
      if (refused.size === 0) return false;
      refusedAll = refused;
    }
    return refusedAll !== undefined;
  });
  return out;
}

/**
 * Per list slicePinningPolicies made: whether one of its policies pins a writer, evaluating no more
 * probes than that takes.
 */
const pinsAnyOf = new WeakMap<readonly PinningPolicy[], (username: string, groups: readonly string[]) => boolean>();

/**
 * Whether one of the pinning policies pins this username (with these groups besides its own): as
 * pinningFor(...).pinnedBy.length > 0, without deciding every policy's verdict when none pins it.
 */
export function pinnedByAny(policies: readonly PinningPolicy[], username: string, groups: readonly string[] = []): boolean {
  const pinsAny = pinsAnyOf.get(policies);
  return pinsAny ? pinsAny(username, groups) : pinningFor(policies, username, groups).pinnedBy.length > 0;
}

/**
 * The verdicts' key: the username and the groups it does not carry already (userOf adds them either
 * way), so that a check asking about a service account by its name and the issues asking with its
 * groups share one evaluation.
 */
function verdictKey(username: string, groups: readonly string[]): string {
  const own = ownGroups(username);
  return [username, ...groups.filter((g) => !own.includes(g)).sort()].join('\u0000');
}

/** The API versions of the rules that cover ResourceSlice writes, or undefined when none do. */
function sliceVersions(p: ValidatingAdmissionPolicy): Set<string> | undefined {
  const versions = new Set<string>();
  let covered = false;
  for (const r of p.spec?.matchConstraints?.resourceRules ?? []) {
    const group = (r.apiGroups ?? []).some((g) => g === '*' || g === 'resource.k8s.io');
    const resource = (r.resources ?? []).some((x) => x === '*' || x === '*/*' || x === 'resourceslices' || x === 'resourceslices/*');
    const ops = (r.operations ?? []).some((o) => o === '*' || o === 'CREATE' || o === 'UPDATE' || o === 'DELETE');
    if (!group || !resource || !ops) continue;
    covered = true;
    for (const v of r.apiVersions ?? []) versions.add(v);
  }
  return covered ? versions : undefined;
}

/** The node the identity's pods run on (the node its token names), and another node. */
function nodesFor(state: PinningState, username: string): { own: string; other: string } {
  let own: string | undefined;
  if (username.startsWith(SA_PREFIX)) {
    const [namespace, name] = username.slice(SA_PREFIX.length).split(':');
    own = podIndexOf(state.pods).nodesOfServiceAccount(namespace, name)[0];
  }
  own ??= 'dra-posture-probe-own-node';
  // Of the first two nodes one is not its own (10,000 names are not mapped per writer).
  const other = (state.nodes ?? []).slice(0, 2).find((n) => n.metadata.name !== own)?.metadata.name ?? 'dra-posture-probe-other-node';
  return { own, other };
}

/** The groups the authenticator gives this username. */
function ownGroups(username: string): string[] {
  if (!username.startsWith(SA_PREFIX)) return ['system:authenticated'];
  const [namespace] = username.slice(SA_PREFIX.length).split(':');
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'];
}

function userOf(username: string, own: string, groups: readonly string[]): AdmissionRequest['userInfo'] {
  const withGroups = [...new Set([...ownGroups(username), ...groups])];
  if (!username.startsWith(SA_PREFIX)) return { username, groups: withGroups };
  return { username, groups: withGroups, extra: { [NODE_NAME_EXTRA]: [own] } };
}

/** Writes of other nodes' slices the identity (with these groups besides its own) could attempt, as admission requests. */
export function probeWrites(state: PinningState, username: string, groups: readonly string[] = []): AdmissionRequest[] {
  const { own, other } = nodesFor(state, username);
  const userInfo = userOf(username, own, groups);
  return probeDrivers(state).flatMap((driver) => probesFor(driver, other, userInfo));
}

const DRIVER_LIKE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/;

/**
 * The driver names a writer might publish: those of the cluster's slices, the names the slice policies
 * themselves mention (a policy may let one driver's slices through from any node), and one no policy
 * can know. More names only make "pinned" harder to reach.
 */
function probeDrivers(state: PinningState): string[] {
  let found = probeDriverNames.get(state);
  if (!found) probeDriverNames.set(state, (found = collectProbeDrivers(state)));
  return found;
}

const probeDriverNames = new WeakMap<PinningState, string[]>();

function collectProbeDrivers(state: PinningState): string[] {
  const names = new Set<string>(['probe.dra-posture.io']);
  for (const s of state.resourceSlices ?? []) if (s.spec?.driver) names.add(s.spec.driver);
  for (const p of state.validatingAdmissionPolicies) {
    if (!sliceVersions(p)) continue;
    const texts = [
      ...(p.spec?.matchConditions ?? []),
      ...((p.spec?.variables as { expression?: unknown }[] | undefined) ?? []),
      ...(p.spec?.validations ?? []),
    ];
    for (const t of texts)
      if (typeof t?.expression === 'string')
        for (const m of t.expression.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g)) {
          const literal = m[1] ?? m[2];
          if (DRIVER_LIKE.test(literal) && literal.length <= 63) names.add(literal);
        }
  }
  return [...names].sort();
}

function probesFor(driver: string, other: string, userInfo: AdmissionRequest['userInfo']): AdmissionRequest[] {
  const slice = (name: string, placement: Record<string, unknown>, labels?: Record<string, string>) => ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: { driver, pool: { name: other, generation: 1, resourceSliceCount: 1 }, ...placement, devices: [] },
  });
  const foreign = slice(`${other}-${driver}-probe`, { nodeName: other });
  const request = (operation: AdmissionRequest['operation'], object: unknown, oldObject: unknown): AdmissionRequest => ({
    operation,
    group: 'resource.k8s.io',
    version: 'v1',
    resource: 'resourceslices',
    subresource: '',
    kind: 'ResourceSlice',
    namespace: '',
    name: operation === 'CREATE' ? ((object as { metadata: { name: string } }).metadata.name ?? '') : foreign.metadata.name,
    object,
    oldObject,
    userInfo,
  });
  const selector = { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [other] }] }] };
  return [
    request('CREATE', foreign, null),
    request('CREATE', slice('all-nodes-probe', { allNodes: true }), null),
    request('CREATE', slice('node-selector-probe', { nodeSelector: selector }), null),
    request('UPDATE', slice(foreign.metadata.name, { nodeName: other }, { 'probe.dra-posture.io/changed': 'true' }), foreign),
    request('DELETE', null, foreign),
  ];
}

const LITERAL = String.raw`("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')`;
const EQUALS = new RegExp(String.raw`^\s*(?:request\.userInfo\.username\s*==\s*${LITERAL}|${LITERAL}\s*==\s*request\.userInfo\.username)\s*$`);
const IN_LIST = new RegExp(String.raw`^\s*request\.userInfo\.username\s+in\s*\[([^\]]*)\]\s*$`);

/** The usernames a matchCondition names, when it is `request.userInfo.username == "x"` or `... in ["x", "y"]` (for explanations only). */
export function usernamesOf(expression: string): string[] | undefined {
  const eq = EQUALS.exec(expression);
  if (eq) return [unquote(eq[1] ?? eq[2])];
  const list = IN_LIST.exec(expression);
  if (list) {
    const items = list[1]
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (items.every((i) => new RegExp(`^${LITERAL}$`).test(i))) return items.map(unquote);
  }
  return undefined;
}

function unquote(literal: string): string {
  return literal.slice(1, -1).replace(/\\(.)/g, '$1');
}

/**
 * How the pinning policies treat one username (with these groups besides its own: a group's member):
 * pinning it, undecided (with why, in unreadCondition), or not pinning it.
 */
export function pinningFor(
  policies: readonly PinningPolicy[],
  username: string,
  groups: readonly string[] = [],
): { pinnedBy: PinningPolicy[]; unread: PinningPolicy[]; others: PinningPolicy[] } {
  const pinnedBy: PinningPolicy[] = [];
  const unread: PinningPolicy[] = [];
  const others: PinningPolicy[] = [];
  for (const p of policies) {
    if (p.unreadCondition !== undefined) {
      unread.push(p);
      continue;
    }
    const v = p.verdict(username, groups);
    if (v.pinned) pinnedBy.push(p);
    else if (v.unknown !== undefined) unread.push({ ...p, unreadCondition: `its outcome is unknown: ${v.unknown}` });
    else others.push(p);
  }
  return { pinnedBy, unread, others };
}
