import { ruleAllowsResource } from '@/lib/authz/rule-matches';
import type { ResourceAttributes } from '@/lib/authz/types';
import { describeRef, describeSubject } from '@/lib/k8s/refs';
import type { PolicyRule } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Finding, FixProbe } from '@/lib/analysis/types';
import { list } from '@/lib/analysis/checks/check-helpers';
import { isWildcardDraRule } from '@/lib/analysis/checks/dra-shared';
import { DRIVER_VERBS } from '@/lib/analysis/context/questions';
import { res, reviewOf } from './holder';
import { todayAllowed } from './fixed-access';
import { holdersOfIssue } from './propose-remove-access';
import { RbacEdits } from './role-edits';
import { distinctSources, ruleSitesOf } from './rule-sites';
import { DRA_RESOURCE_PATHS, STANDARD_VERBS } from './subtract-access';
import type { Proposed } from './verify-fix';

// DRA002: a wildcard rule in resource.k8s.io, written out as the resources and verbs it matches today.
// `*/driver` becomes resourceclaims/driver with the same verbs (the driver's own status writes keep
// working); a whole `*` resource becomes every served resource and subresource except the synthetic
// binding and driver ones (allocation and device status writes are never granted by accident); a `*`
// verb becomes the standard verbs (and the node verbs on resourceclaims/driver). A wildcard API group
// cannot be written out. The check: for every served DRA resource and verb, each holder keeps what
// the rule gave it, except binding and driver reached only through a whole `*`.

const DRA = 'resource.k8s.io';
const SYNTHETIC = new Set(['resourceclaims/binding', 'resourceclaims/driver']);
/** A resource.k8s.io resource that does not exist yet: a wildcard grants it the day it is served. */
const FUTURE = 'dra-posture-future-resources';

const verbsFor = (path: string) => (path === 'resourceclaims/driver' ? [...DRIVER_VERBS] : [...STANDARD_VERBS]);

/** The rule's DRA part written out; other groups keep the rule as it is. */
function narrowed(rule: PolicyRule): PolicyRule[] | { cannot: string } {
  const groups = rule.apiGroups ?? [];
  if (groups.includes('*')) return { cannot: 'it grants every API group (apiGroups: ["*"]), which cannot be written out without knowing what its holders use' };
  const out: PolicyRule[] = [];
  const names = rule.resourceNames?.length ? { resourceNames: [...rule.resourceNames] } : {};
  const others = groups.filter((g) => g !== DRA);
  if (others.length > 0) out.push({ ...rule, apiGroups: others });
  const paths: string[] = [];
  for (const r of rule.resources ?? []) {
    const hits =
      r === '*' ? DRA_RESOURCE_PATHS.filter((p) => !SYNTHETIC.has(p)) : r.startsWith('*/') ? DRA_RESOURCE_PATHS.filter((p) => p.endsWith(r.slice(1))) : [r];
    for (const h of hits) if (!paths.includes(h)) paths.push(h);
  }
  const wildVerbs = (rule.verbs ?? []).includes('*');
  const plain = paths.filter((p) => p !== 'resourceclaims/driver');
  if (plain.length > 0) out.push({ apiGroups: [DRA], resources: plain, ...names, verbs: wildVerbs ? [...STANDARD_VERBS] : [...rule.verbs] });
  if (paths.includes('resourceclaims/driver'))
    out.push({ apiGroups: [DRA], resources: ['resourceclaims/driver'], ...names, verbs: wildVerbs ? [...DRIVER_VERBS] : [...rule.verbs] });
  return out;
}

export function proposeWildcardNarrowing(ctx: AnalysisContext, findings: readonly Finding[]): Proposed {
  const sites = ruleSitesOf(ctx, findings);
  const edits = new RbacEdits();
  const before: PolicyRule[] = [];
  for (const src of distinctSources(sites)) {
    const rule = src.object.rules?.[src.index];
    if (!rule || !isWildcardDraRule(rule)) continue;
    const n = narrowed(rule);
    if ('cannot' in n)
      return {
        none: `rule #${src.index} of ${describeRef({ kind: src.object.kind, name: src.object.metadata.name, namespace: src.object.metadata.namespace })}: ${n.cannot}`,
      };
    before.push(rule);
    edits.replaceRule(src, n, 'the wildcard written out as the resources and verbs it matches today (without resourceclaims/binding and /driver unless named)');
  }
  if (edits.empty) return { none: 'the wildcard rules are not in a role of the snapshot' };
  const holders = holdersOfIssue(ctx, findings);
  // What the old rules gave, per served path and verb (the only part the fix may drop: binding and driver through a whole *).
  // Each with its request, made once: the after-check asks it for every holder (hundreds on a large cluster).
  const kept: { path: string; verb: string; attrs: ResourceAttributes }[] = [];
  for (const path of DRA_RESOURCE_PATHS) {
    const [resource, subresource = ''] = path.split('/');
    for (const verb of verbsFor(path)) {
      const attrs = res(verb, DRA, resource, { subresource, namespace: 'default', name: 'x' });
      const viaRule = before.filter((r) => ruleAllowsResource(r, attrs));
      if (viaRule.length === 0) continue;
      const onlyWholeStar =
        SYNTHETIC.has(path) && viaRule.every((r) => !(r.resources ?? []).some((x) => x === path || (x.startsWith('*/') && path.endsWith(x.slice(1)))));
      if (!onlyWholeStar) kept.push({ path, verb, attrs });
    }
  }
  const probes: FixProbe[] = [];
  const allowedToday = todayAllowed(
    ctx.engine,
    holders.map((h) => h.user),
  );
  for (const h of holders) {
    const who = describeSubject(h.subject);
    const future = res('list', DRA, FUTURE, { namespace: 'default' });
    if (allowedToday({ user: h.user, resource: future }))
      probes.push({ expect: 'denied', text: `${who}: list a resource.k8s.io resource added later`, review: reviewOf(h.user, future) });
    // One kept verb per resource as a request to show (the after-check below asks every verb).
    for (const path of new Set(kept.map((k) => k.path))) {
      const { verb, attrs } = kept.find((k) => k.path === path)!;
      if (allowedToday({ user: h.user, resource: attrs })) probes.push({ expect: 'allowed', text: `${who}: ${verb} ${path}`, review: reviewOf(h.user, attrs) });
    }
  }
  return {
    holders,
    edits,
    probes,
    after: (fixed) => {
      const out: string[] = [];
      for (const h of holders) {
        for (const { path, verb, attrs } of kept) {
          if (allowedToday({ user: h.user, resource: attrs }) && !fixed.allowed({ user: h.user, resource: attrs }))
            out.push(`${describeSubject(h.subject)} could no longer ${verb} ${path}`);
        }
      }
      return out;
    },
    checks: [
      'the rules are valid for the API server',
      'no wildcard resource or verb is left in resource.k8s.io',
      'every holder keeps each verb on each served DRA resource the wildcard gave it, except resourceclaims/binding and /driver reached only through a whole "*"',
    ],
    summary: `Write out the wildcard in ${list([...new Set(distinctSources(sites).map((s) => describeRef({ kind: s.object.kind, name: s.object.metadata.name, namespace: s.object.metadata.namespace })))])} as explicit resources and verbs; then remove the write verbs its holders do not use`,
  };
}
