import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { ObjectRef, ValidatingAdmissionPolicy } from '@/lib/k8s/types';
import { objectRef } from '@/lib/k8s/refs';
import { flagList, visibleApiServers } from '@/lib/k8s/api-server-flags';

// Which ValidatingAdmissionPolicies pin a node-local driver's ResourceSlice writes to its own node
// (the form the reference driver ships: matchConditions naming the driver's username, a validation
// comparing the slice's spec.nodeName with the node named in the caller's token). Recognised by that
// form, not evaluated: a condition or validation of another form is not counted as pinning, and the
// finding says so. (Evaluating CEL is a separate step.)

const NODE_NAME_EXTRA = 'authentication.kubernetes.io/node-name';

export interface PinningPolicy {
  policy: ObjectRef;
  bindings: ObjectRef[];
  /** Usernames its matchConditions admit; undefined = every user (no conditions). */
  usernames?: string[];
  /** A matchCondition of a form that was not read, or API versions not known to be served: whether the policy applies is unknown. */
  unreadCondition?: string;
}

/**
 * The resource.k8s.io versions the API server serves: v1 (GA since 1.34), and a beta version only
 * when a visible --runtime-config turns it on (beta APIs are off by default, KEP-3136). A policy rule
 * listing only versions that are not served matches no request: matchPolicy Equivalent converts a
 * request only to versions the server has installed.
 */
function servedDraVersions(state: Pick<ClusterState, 'pods'>): Set<string> {
  const served = new Set(['v1']);
  for (const { flags } of visibleApiServers(state.pods)) {
    for (const entry of flagList(flags.get('runtime-config'))) {
      const [key, value = 'true'] = entry.split('=');
      if (value !== 'true') continue;
      if (key === 'api/all' || key === 'api/beta') ['v1beta1', 'v1beta2'].forEach((v) => served.add(v));
      const m = /^resource\.k8s\.io\/(v\w+)$/.exec(key);
      if (m) served.add(m[1]);
    }
  }
  return served;
}

/**
 * Bound (Deny) policies on ResourceSlice create and update whose validations tie spec.nodeName to
 * the token's node name.
 */
export function slicePinningPolicies(state: Pick<ClusterState, 'validatingAdmissionPolicies' | 'validatingAdmissionPolicyBindings' | 'pods'>): PinningPolicy[] {
  const out: PinningPolicy[] = [];
  const served = servedDraVersions(state);
  for (const p of state.validatingAdmissionPolicies) {
    const versions = coveredVersions(p);
    if (!versions || !pinsNodeName(p)) continue;
    const bindings = state.validatingAdmissionPolicyBindings
      .filter((b) => b.spec?.policyName === p.metadata.name && (b.spec?.validationActions ?? []).includes('Deny'))
      .map((b) => objectRef('ValidatingAdmissionPolicyBinding', b.metadata.name));
    if (bindings.length === 0) continue;
    const entry: PinningPolicy = { policy: objectRef('ValidatingAdmissionPolicy', p.metadata.name), bindings };
    if (versions.size > 0 && !versions.has('*') && ![...versions].some((v) => served.has(v)))
      entry.unreadCondition = `it matches only resource.k8s.io ${[...versions].sort().join(', ')}, which the API server serves only when --runtime-config enables it`;
    for (const c of entry.unreadCondition ? [] : (p.spec?.matchConditions ?? [])) {
      const names = usernamesOf(c.expression);
      if (!names) {
        entry.unreadCondition = `a matchCondition was not read: ${c.expression}`;
        break;
      }
      entry.usernames = entry.usernames ? entry.usernames.filter((n) => names.includes(n)) : names;
    }
    out.push(entry);
  }
  return out;
}

/** The API versions of the rules that cover ResourceSlice create and update, or undefined when none do. */
function coveredVersions(p: ValidatingAdmissionPolicy): Set<string> | undefined {
  const ops = new Set<string>();
  const versions = new Set<string>();
  for (const r of p.spec?.matchConstraints?.resourceRules ?? []) {
    const group = (r.apiGroups ?? []).some((g) => g === '*' || g === 'resource.k8s.io');
    const resource = (r.resources ?? []).some((x) => x === '*' || x === 'resourceslices');
    if (!group || !resource || (r.resourceNames ?? []).length > 0) continue;
    for (const op of r.operations ?? []) ops.add(op);
    for (const v of r.apiVersions ?? []) versions.add(v);
  }
  return ops.has('*') || (ops.has('CREATE') && ops.has('UPDATE')) ? versions : undefined;
}

/** Some validation, with the policy's variables written out, compares spec.nodeName with the token's node name. */
function pinsNodeName(p: ValidatingAdmissionPolicy): boolean {
  const variables = new Map<string, string>();
  for (const v of (p.spec?.variables as { name?: unknown; expression?: unknown }[] | undefined) ?? []) {
    if (typeof v?.name === 'string' && typeof v.expression === 'string') variables.set(v.name, v.expression);
  }
  const expand = (text: string, depth = 0): string =>
    depth > 4
      ? text
      : text.replace(/variables\.([A-Za-z_][A-Za-z0-9_]*)/g, (m, name: string) => (variables.has(name) ? `(${expand(variables.get(name)!, depth + 1)})` : m));
  return (p.spec?.validations ?? []).some((v) => {
    const text = expand(v.expression);
    // An alternative (`... || object.spec.allNodes == true`) lets some writes through unpinned.
    return !text.includes('||') && text.includes('==') && text.includes(NODE_NAME_EXTRA) && /spec\.\??nodeName/.test(text);
  });
}

const LITERAL = String.raw`("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')`;
const EQUALS = new RegExp(String.raw`^\s*(?:request\.userInfo\.username\s*==\s*${LITERAL}|${LITERAL}\s*==\s*request\.userInfo\.username)\s*$`);
const IN_LIST = new RegExp(String.raw`^\s*request\.userInfo\.username\s+in\s*\[([^\]]*)\]\s*$`);

/** The usernames a matchCondition admits, when it is `request.userInfo.username == "x"` or `... in ["x", "y"]`. */
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

/** How the pinning policies treat one username. */
export function pinningFor(
  policies: readonly PinningPolicy[],
  username: string,
): { pinnedBy: PinningPolicy[]; unread: PinningPolicy[]; others: PinningPolicy[] } {
  const pinnedBy: PinningPolicy[] = [];
  const unread: PinningPolicy[] = [];
  const others: PinningPolicy[] = [];
  for (const p of policies) {
    if (p.unreadCondition !== undefined) unread.push(p);
    else if (!p.usernames || p.usernames.includes(username)) pinnedBy.push(p);
    else others.push(p);
  }
  return { pinnedBy, unread, others };
}
