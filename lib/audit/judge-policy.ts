import { AUDIT_NEEDS, type AuditNeed, type ProbeIdentity } from './analysis-needs';
import { firstMatchingRule, ruleMatches, type AuditRequest } from './policy-level';
import type { AuditLevel, AuditPolicy, AuditPolicyRule } from './recommended-policy';

// `audit-policy --check`: each request the analysis reads (analysis-needs.ts) is put through the policy
// as the API server does (first match wins), for ordinary identities in every namespace the policy or
// the caller names and in one it does not. Besides what falls short, three mistakes that make a policy
// look better than it is: a rule hiding a better one behind it, glob namespaces, dead resource entries.

const ORDER: readonly AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
const atLeast = (level: AuditLevel, needed: AuditLevel) => ORDER.indexOf(level) >= ORDER.indexOf(needed);

/** A namespace no rule names, standing for every such namespace. */
const OTHER_NAMESPACE = 'dra-posture-probe';
const NAMESPACE_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const GLOB = /[*?[\]{}]/;
/** Granular authorization subresources (kube-apiserver 1.36) that no request carries. */
const NEVER_REQUESTED = new Set(['resourceclaims/binding', 'resourceclaims/driver']);

export interface PolicyShortfall {
  need: AuditNeed;
  /** The namespaces (OTHER_NAMESPACE for those no rule names; '' when cluster-scoped) and identities it falls short for. */
  namespaces: string[];
  identities: ProbeIdentity[];
  level: AuditLevel;
  /** The rule that decided (index into rules), undefined when none matches. */
  rule?: number;
  /** The deciding rule drops the ResponseComplete stage, the event the analysis reads. */
  omitsResponse: boolean;
}

export interface PolicyJudgement {
  shortfalls: PolicyShortfall[];
  warnings: string[];
}

function probe(identity: ProbeIdentity, namespace: string): Pick<AuditRequest, 'user' | 'groups'> {
  const authenticated = 'system:authenticated';
  switch (identity) {
    case 'user':
      return { user: 'dra-posture:probe-user', groups: [authenticated] };
    case 'scheduler':
      return { user: 'system:kube-scheduler', groups: [authenticated] };
    case 'node':
      return { user: 'system:node:dra-posture-probe', groups: ['system:nodes', authenticated] };
    case 'service account': {
      const ns = namespace || OTHER_NAMESPACE;
      return { user: `system:serviceaccount:${ns}:dra-posture-probe`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, authenticated] };
    }
  }
}

export function requestLabel(need: Pick<AuditNeed, 'verb' | 'group' | 'resource' | 'subresource'>): string {
  const res = need.subresource ? `${need.resource}/${need.subresource}` : need.resource;
  return `${need.verb} ${need.group ? `${need.group}/` : ''}${res}`;
}

const omitsResponse = (policy: Pick<AuditPolicy, 'omitStages'>, rule: AuditPolicyRule) =>
  [...(policy.omitStages ?? []), ...(rule.omitStages ?? [])].includes('ResponseComplete');

/** Why a namespace entry matches nothing, or undefined when it is a name ('' is cluster-scoped requests). */
function deadNamespace(ns: string): string | undefined {
  if (ns === '' || NAMESPACE_NAME.test(ns)) return undefined;
  return GLOB.test(ns) ? 'is a glob, but namespaces are exact names (no globs), so it matches nothing' : 'is not a namespace name, so it matches nothing';
}

const deadResource = (group: string, res: string) => group === 'resource.k8s.io' && NEVER_REQUESTED.has(res);

function ruleWarnings(rules: readonly AuditPolicyRule[]): string[] {
  const out: string[] = [];
  rules.forEach((rule, i) => {
    const namespaces = rule.namespaces ?? [];
    const resources = rule.resources ?? [];
    const deadNs = namespaces.map(deadNamespace);
    const deadGroups = resources.map((gr) => (gr.resources?.length ?? 0) > 0 && gr.resources!.every((r) => deadResource(gr.group ?? '', r)));
    if (namespaces.length > 0 && deadNs.every(Boolean)) out.push(`rules[${i}] can never match: no namespace it names is a namespace name`);
    if (resources.length > 0 && deadGroups.every(Boolean)) {
      out.push(
        `rules[${i}] can never match: it names only resourceclaims/binding or /driver, which no request carries (the checks on them run inside resourceclaims/status writes)`,
      );
      return;
    }
    namespaces.forEach((ns, k) => deadNs[k] && out.push(`rules[${i}].namespaces: "${ns}" ${deadNs[k]}`));
    resources.forEach((gr, k) => {
      for (const res of gr.resources ?? [])
        if (deadResource(gr.group ?? '', res))
          out.push(
            `rules[${i}].resources[${k}]: "${res}" is never a request's subresource (checked inside resourceclaims/status writes), so it matches nothing`,
          );
    });
  });
  return out;
}

/** How far a policy gives the analysis what it reads, and the mistakes that hide it. */
export function judgeAuditPolicy(policy: Pick<AuditPolicy, 'rules' | 'omitStages'>, options: { tenantNamespaces?: readonly string[] } = {}): PolicyJudgement {
  const rules = policy.rules ?? [];
  const named = rules.flatMap((r) => r.namespaces ?? []).filter((ns) => ns !== '' && NAMESPACE_NAME.test(ns));
  const namespaces = [...new Set([...(options.tenantNamespaces ?? []), ...named])].sort();
  namespaces.push(OTHER_NAMESPACE);
  const shortfalls = new Map<string, PolicyShortfall>();
  const shadows = new Map<string, { first: number; later: number; requests: string[] }>();
  for (const need of AUDIT_NEEDS) {
    for (const namespace of need.namespaced ? namespaces : ['']) {
      for (const identity of need.identities) {
        const request: AuditRequest = { ...need, namespace, name: 'dra-posture-probe', ...probe(identity, namespace) };
        const i = firstMatchingRule(policy, request);
        const level = i === undefined ? 'None' : rules[i].level;
        const omits = i !== undefined && omitsResponse(policy, rules[i]);
        if (atLeast(level, need.level) && !omits) continue;
        const key = [requestLabel(need), level, i ?? '', omits].join('|');
        const s = shortfalls.get(key) ?? { need, namespaces: [], identities: [], level, ...(i === undefined ? {} : { rule: i }), omitsResponse: omits };
        if (need.namespaced && !s.namespaces.includes(namespace)) s.namespaces.push(namespace);
        if (!s.identities.includes(identity)) s.identities.push(identity);
        shortfalls.set(key, s);
        if (i === undefined) continue;
        const later = rules.findIndex((r, j) => j > i && atLeast(r.level, need.level) && !omitsResponse(policy, r) && ruleMatches(r, request));
        if (later < 0) continue;
        const shadow = shadows.get(`${i}|${later}`) ?? { first: i, later, requests: [] };
        if (!shadow.requests.includes(requestLabel(need))) shadow.requests.push(requestLabel(need));
        shadows.set(`${i}|${later}`, shadow);
      }
    }
  }
  const warnings = [...shadows.values()].map(({ first, later, requests }) => {
    const [one, ...rest] = requests;
    return `rules[${first}] (${rules[first].level}) matches ${one} first${rest.length ? ` (and ${rest.join(', ')})` : ''}, so rules[${later}] (${rules[later].level}), which would log them as needed, never applies to them: the first matching rule decides; put rules[${later}] above rules[${first}]`;
  });
  return { shortfalls: [...shortfalls.values()], warnings: [...warnings, ...ruleWarnings(rules)] };
}

/** One line per shortfall: the request, where and for whom, the level it gets from which rule, and what it needs. */
export function describeShortfall(s: PolicyShortfall): string {
  const where = s.namespaces.length ? ` in ${s.namespaces.map((ns) => (ns === OTHER_NAMESPACE ? 'any namespace no rule names' : ns)).join(', ')},` : '';
  const got =
    s.rule === undefined ? 'None (no rule matches)' : `${s.level} (rules[${s.rule}])${s.omitsResponse ? ' with the ResponseComplete stage omitted' : ''}`;
  return `${requestLabel(s.need)}${where} as ${s.identities.map((id) => `a ${id}`).join(' or ')}: ${got}; needs ${s.need.level} or more: ${s.need.why}`;
}
