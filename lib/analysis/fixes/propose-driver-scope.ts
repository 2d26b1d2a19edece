import { describeSubject } from '@/lib/k8s/refs';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Finding, FixProbe } from '@/lib/analysis/types';
import { list } from '@/lib/analysis/checks/check-helpers';
import { unscopedDriverVerbs } from '@/lib/analysis/checks/dra-shared';
import { DRIVER_VERBS } from '@/lib/analysis/context/questions';
import { ownDriverProbes } from './holder';
import { holdersOfIssue } from './propose-remove-access';
import { RbacEdits } from './role-edits';
import { distinctSources, ruleSitesOf, sourceRoleNames } from './rule-sites';
import { servedDrivers } from './served-drivers';
import { STANDARD_VERBS, subtractAccess } from './subtract-access';
import type { Proposed } from './verify-fix';

// DRA004: a resourceclaims/driver rule without resourceNames. The fix names the one driver its
// holders serve (taken from facts about their pods and slices, servedDrivers), not every driver of
// the cluster: with every driver named the rule still lets one driver write the others' device status.
// A role whose holders serve different drivers, or whose driver cannot be told, has no automatic fix.

const DRA = 'resource.k8s.io';
const PLACEHOLDER_DRIVER = 'dra-posture.invalid';

export function proposeDriverScope(ctx: AnalysisContext, findings: readonly Finding[]): Proposed {
  const holders = holdersOfIssue(ctx, findings);
  const served = holders.map((h) => ({ h, drivers: servedDrivers(ctx, h.subject) }));
  const unknown = served.filter((s) => s.drivers.length === 0);
  if (unknown.length > 0)
    return {
      none: `the driver ${list(unknown.map((s) => describeSubject(s.h.subject)))} serve${unknown.length === 1 ? 's' : ''} cannot be told from its pods (plugin directory, registration socket, arguments) or the ResourceSlices on its nodes; name it in resourceNames by hand`,
    };
  const drivers = served[0].drivers;
  if (served.some((s) => s.drivers.join(',') !== drivers.join(',')))
    return {
      none: `its holders serve different drivers (${served.map((s) => `${describeSubject(s.h.subject)}: ${s.drivers.join(', ')}`).join('; ')}): give each its own role scoped to its own driver name`,
    };
  const sites = ruleSitesOf(ctx, findings, (role, i) => {
    const rule =
      role.kind === 'ClusterRole'
        ? ctx.engine.rbac.clusterRoles.get(role.name)?.rules[i]
        : ctx.engine.rbac.roles.get(role.namespace ?? '')?.get(role.name)?.rules[i];
    return !!rule && unscopedDriverVerbs(rule.rule).length > 0;
  });
  const edits = new RbacEdits();
  const verbsOfFix = new Set<string>();
  for (const src of distinctSources(sites)) {
    const rule = src.object.rules?.[src.index];
    if (!rule) continue;
    const verbs = unscopedDriverVerbs(rule);
    if (verbs.length === 0) continue;
    const rest = subtractAccess(rule, {
      group: DRA,
      resources: ['resourceclaims/driver'],
      verbs: [...new Set([...rule.verbs, ...DRIVER_VERBS, ...STANDARD_VERBS])],
    });
    if ('cannot' in rest) return { none: rest.cannot };
    for (const v of verbs) verbsOfFix.add(v);
    edits.replaceRule(
      src,
      [...rest.rules, { apiGroups: [DRA], resources: ['resourceclaims/driver'], resourceNames: [...drivers], verbs: [...verbs] }],
      `resourceclaims/driver only for ${list(drivers)}`,
    );
  }
  if (edits.empty) return { none: 'the unscoped resourceclaims/driver rules are not in a role of the snapshot' };
  const other = ctx.knownDrivers.find((d) => !drivers.includes(d)) ?? PLACEHOLDER_DRIVER;
  const probes: FixProbe[] = [];
  for (const { h } of served) {
    const grant = findings.flatMap((f) => f.evidence).find((e) => e.type === 'grant' && e.binding.kind === 'RoleBinding');
    const namespace = grant?.type === 'grant' ? (grant.binding.namespace ?? 'default') : (ctx.state.resourceClaims[0]?.metadata.namespace ?? 'default');
    for (const verb of verbsOfFix) probes.push(...ownDriverProbes(h, verb, verb, drivers, other, namespace));
  }
  const roles = sourceRoleNames(sites);
  return {
    holders,
    edits,
    probes,
    checks: ['the rules are valid for the API server', `holders write device status for ${list(drivers)} only`],
    summary: `Scope resourceclaims/driver in ${list(roles)} to the driver its holders serve (${list(drivers)})`,
  };
}
