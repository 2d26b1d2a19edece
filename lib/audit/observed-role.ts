import { isNamespacedResource } from '@/lib/personas/custom-rules';
import type { BuildInput, BuilderIdentity, ReasonedRule } from '@/lib/role-builder/types';
import { compareStrings as cmp } from '@/lib/k8s/refs';
import type { PolicyRule } from '@/lib/k8s/types';
import { parseUsageKey } from './classify-request';

// The role builder's "from observed use": the least rules that cover exactly the successful requests
// an identity made in the audit window (audit2rbac's idea, DRA-aware). Output is a custom-persona
// input, so the builder picks Role vs ClusterRole, renders, validates with the engine and diffs it
// against today's grants as for any other persona.

type Usage = ReturnType<typeof parseUsageKey>;

/** Verbs that name one object; the rest (create, list, watch, deletecollection) never carry a name. */
const NAMED_VERBS = new Set(['get', 'update', 'patch', 'delete']);

function ruleKey(u: Usage): string {
  return [u.group, u.subresource ? `${u.resource}/${u.subresource}` : u.resource].join('\u001f');
}

/**
 * Names to pin: driver names on resourceclaims/driver (the rule's scope by design) and the users a
 * legacy impersonation named. Ordinary objects are not pinned (a controller's next claim has a new name),
 * nor are nodes of associated-node verbs (the server already limits them to the requester's node).
 */
function pinNames(u: Usage): boolean {
  if (u.group === 'resource.k8s.io' && u.resource === 'resourceclaims' && u.subresource === 'driver') return true;
  return u.verb === 'impersonate' && (u.resource === 'users' || u.resource === 'serviceaccounts');
}

/** Legacy keys recorded beside the constrained ones for node targets (the server tries constrained modes first). */
function redundantLegacy(u: Usage, all: readonly Usage[]): boolean {
  if (u.verb !== 'impersonate') return false;
  const nodeConstrained = all.some((o) => o.verb.startsWith('impersonate:') && o.resource === 'nodes');
  if (!nodeConstrained) return false;
  return (
    (u.resource === 'users' && u.name.startsWith('system:node:')) ||
    (u.resource === 'groups' && (u.name === 'system:nodes' || u.name === 'system:authenticated'))
  );
}

export interface ObservedRole {
  input: BuildInput;
  /** What the rules rest on and what they cannot show. */
  notes: string[];
}

export function builderIdentityOf(username: string): BuilderIdentity {
  const m = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(username);
  return m ? { kind: 'ServiceAccount', namespace: m[1], name: m[2], create: false } : { kind: 'User', name: username };
}

/** The custom-persona input covering exactly `used` (usage keys of successful requests) for `username`. */
export function observedRole(username: string, used: Iterable<string>, window: { first: string | null; last: string | null }): ObservedRole {
  const all = [...used].map(parseUsageKey);
  const requests = all.filter((u) => !redundantLegacy(u, all));
  const namespaces = new Set(requests.filter((u) => u.namespace !== '').map((u) => u.namespace));
  const groups = new Map<string, { group: string; resource: string; named: Map<string, Set<string>>; unnamed: Set<string> }>();
  for (const u of requests) {
    const key = ruleKey(u);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { group: u.group, resource: key.split('\u001f')[1], named: new Map(), unnamed: new Set() }));
    if (pinNames(u) && u.name !== '') {
      let names = g.named.get(u.verb);
      if (!names) g.named.set(u.verb, (names = new Set()));
      names.add(u.name);
    } else g.unnamed.add(u.verb);
  }
  const span = `${window.first ?? '?'} to ${window.last ?? '?'}`;
  const rules: ReasonedRule[] = [];
  for (const g of [...groups.values()].sort((a, b) => cmp(a.group, b.group) || cmp(a.resource, b.resource))) {
    if (g.unnamed.size > 0) {
      const verbs = [...g.unnamed].sort(cmp);
      rules.push({ rule: { apiGroups: [g.group], resources: [g.resource], verbs }, reason: `observed ${verbs.join(', ')} on ${g.resource} (${span})` });
    }
    // Verbs with the same names share one rule.
    const byNames = new Map<string, string[]>();
    for (const [verb, names] of g.named) {
      if (g.unnamed.has(verb)) continue;
      const k = [...names].sort(cmp).join(',');
      byNames.set(k, [...(byNames.get(k) ?? []), verb]);
    }
    for (const [names, verbs] of [...byNames].sort((a, b) => cmp(a[0], b[0]))) {
      const rule: PolicyRule = { apiGroups: [g.group], resources: [g.resource], verbs: verbs.sort(cmp), resourceNames: names.split(',') };
      rules.push({ rule, reason: `observed ${rule.verbs.join(', ')} on ${g.resource} for ${names} (${span})` });
    }
  }
  const notes = [
    `Rules cover the successful requests of ${username} logged between ${span}; requests the audit policy did not log, and anything done outside the window, are not covered.`,
  ];
  const namespacedRules = rules.filter((r) => (r.rule.resources ?? []).every(isNamespacedResource));
  let namespace: string | undefined;
  if (namespaces.size === 1) namespace = [...namespaces][0];
  else if (namespaces.size > 1 && namespacedRules.length > 0)
    notes.push(`Namespaced requests span ${namespaces.size} namespaces (${[...namespaces].sort(cmp).join(', ')}): those rules go into the ClusterRole.`);
  if (
    requests.some((u) => NAMED_VERBS.has(u.verb) && u.resource === 'resourceclaims' && u.subresource === 'status') &&
    !requests.some((u) => u.subresource === 'driver' || u.subresource === 'binding')
  )
    notes.push(
      'Claim status writes were logged without bodies (Metadata level): the driver and binding rules they need cannot be derived; log resourceclaims/status at Request level.',
    );
  const input: BuildInput = { persona: 'custom', identity: builderIdentityOf(username), drivers: [], customRules: rules };
  if (namespace) input.namespace = namespace;
  return { input, notes };
}
