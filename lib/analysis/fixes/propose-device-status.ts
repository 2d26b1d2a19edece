import { describeRef, describeSubject } from '@/lib/k8s/refs';
import type { PolicyRule } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { capability } from '@/lib/analysis/capabilities';
import { holdingOf } from '@/lib/analysis/capability-holders';
import { isStockRole } from '@/lib/analysis/issues/root-cause';
import type { Finding, FixProbe } from '@/lib/analysis/types';
import { list } from '@/lib/analysis/checks/check-helpers';
import { DRIVER_VERBS } from '@/lib/analysis/context/questions';
import { ownDriverProbes, res, type Holder } from './holder';
import { holdersOfIssue, proposeRemoveAccess, refusedProbes } from './propose-remove-access';
import { RbacEdits } from './role-edits';
import { distinctSources, ruleSitesOf, sourceRoleNames } from './rule-sites';
import { servedDrivers } from './served-drivers';
import { STANDARD_VERBS, subtractAccess } from './subtract-access';
import type { Proposal, Proposed } from './verify-fix';

// DRA005: device-status writes (status.devices) by an identity other than a driver acting for its own
// driver on its own node. With granular status authorization (1.36+) the grant is arbitrary-node
// verbs on resourceclaims/driver; what replaces them depends on who holds them:
// - a kubelet plugin (pods on nodes, its token bound to its node) gets associated-node verbs for the
//   driver it serves: the API server then accepts its writes only for claims allocated on its own node;
// - a multi-node controller of a platform namespace keeps arbitrary-node verbs, scoped with
//   resourceNames to the driver it serves (the expected holder, DRA005's description);
// - a group, a user or a tenant's service account loses every verb on resourceclaims/driver.
// The driver comes from facts (servedDrivers); when it cannot be told, or the holders of one rule need
// different fixes, there is no safe automatic fix. Without granular authorization the finding is
// resourceclaims/status held by a group, a user or a tenant, and that write comes out.
// Identities that reach the writes only by impersonating a holder need the impersonation grant
// removed, not the holder's grant: no automatic fix here.

const DRA = 'resource.k8s.io';
const ARBITRARY = ['arbitrary-node:update', 'arbitrary-node:patch'];
const PLACEHOLDER_DRIVER = 'dra-posture.invalid';

type Kind = 'plugin' | 'controller' | 'remove';

function kindOf(ctx: AnalysisContext, h: Holder): Kind {
  const s = h.subject;
  if (s.kind !== 'ServiceAccount' || !ctx.isPlatformNamespace(s.namespace ?? '')) return 'remove';
  return ctx.isNodeLocalIdentity(s) ? 'plugin' : 'controller';
}

const claimNamespace = (ctx: AnalysisContext) => ctx.state.resourceClaims[0]?.metadata.namespace ?? 'default';

export function proposeDeviceStatus(ctx: AnalysisContext, findings: readonly Finding[]): Proposed {
  const granular = ctx.engine.features.granularStatusAuthorization;
  const cap = capability(granular ? 'forge-device-status' : 'claim-status-without-granular');
  const holders = holdersOfIssue(ctx, findings);
  const indirect = holders.filter((h) => !holdingOf(ctx, cap, h.subject));
  if (indirect.length > 0)
    return {
      none: `${list(indirect.map((h) => describeSubject(h.subject)))} reach${indirect.length === 1 ? 'es' : ''} device-status writes by impersonating a holder: remove the impersonation grants named in the finding; the holder's own grant is its own`,
    };
  const namespace = claimNamespace(ctx);
  if (!granular)
    return proposeRemoveAccess(ctx, findings, {
      remove: { group: DRA, resources: ['resourceclaims/status'], verbs: ['update', 'patch'] },
      capabilities: [cap],
      refused: () => ['update', 'patch'].map((verb) => res(verb, DRA, 'resourceclaims', { subresource: 'status', namespace, name: 'any-claim' })),
    });
  const kinds = new Map(holders.map((h) => [h, kindOf(ctx, h)]));
  const distinct = [...new Set(kinds.values())];
  if (distinct.length > 1)
    return {
      none: `its holders need different fixes (${holders.map((h) => `${describeSubject(h.subject)}: ${kinds.get(h)}`).join('; ')}): give the kubelet plugin, the controller and the others each their own role`,
    };
  const kind = distinct[0];
  // Nobody but a driver writes device status: every verb on resourceclaims/driver goes, not only arbitrary-node.
  if (kind === 'remove')
    return proposeRemoveAccess(ctx, findings, {
      remove: { group: DRA, resources: ['resourceclaims/driver'], verbs: [...DRIVER_VERBS, ...STANDARD_VERBS] },
      what: 'every verb on resourceclaims/driver',
      capabilities: [cap],
      refused: () =>
        ARBITRARY.map((verb) => res(verb, DRA, 'resourceclaims', { subresource: 'driver', namespace, name: ctx.knownDrivers[0] ?? PLACEHOLDER_DRIVER })),
    });
  return scopeToServedDriver(ctx, findings, holders, kind);
}

/** A driver's own identity: its arbitrary-node verbs become the ones it needs, for the driver it serves. */
function scopeToServedDriver(ctx: AnalysisContext, findings: readonly Finding[], holders: readonly Holder[], kind: 'plugin' | 'controller'): Proposed {
  const served = holders.map((h) => ({ h, drivers: servedDrivers(ctx, h.subject) }));
  const unknown = served.filter((s) => s.drivers.length === 0);
  if (unknown.length > 0)
    return {
      none: `the driver ${list(unknown.map((s) => describeSubject(s.h.subject)))} serve${unknown.length === 1 ? 's' : ''} cannot be told from its pods (plugin directory, registration socket, arguments) or the ResourceSlices on its nodes; scope resourceclaims/driver to it by hand`,
    };
  const drivers = served[0].drivers;
  if (served.some((s) => s.drivers.join(',') !== drivers.join(',')))
    return {
      none: `its holders serve different drivers (${served.map((s) => `${describeSubject(s.h.subject)}: ${s.drivers.join(', ')}`).join('; ')}): give each its own role scoped to its own driver name`,
    };
  const edits = new RbacEdits();
  const sites = ruleSitesOf(ctx, findings);
  const stock = sites.filter((s) => isStockRole(s.role));
  if (stock.length > 0)
    return {
      none: `the grant is in ${list(stock.map((s) => describeRef(s.role)))}, a stock role that is not edited: bind the driver's identity to a role of its own with the resourceclaims/driver verbs it needs instead`,
    };
  const taken = new Set<string>();
  for (const src of distinctSources(sites)) {
    const rule = src.object.rules?.[src.index];
    if (!rule) continue;
    const sub = subtractAccess(rule, { group: DRA, resources: ['resourceclaims/driver'], verbs: ARBITRARY });
    if ('cannot' in sub) return { none: sub.cannot };
    if (!sub.changed) continue;
    const verbs = rule.verbs.includes('*') ? ARBITRARY : ARBITRARY.filter((v) => rule.verbs.includes(v));
    for (const v of verbs) taken.add(v);
    const replacement: PolicyRule = {
      apiGroups: [DRA],
      resources: ['resourceclaims/driver'],
      resourceNames: [...drivers],
      verbs: kind === 'plugin' ? verbs.map((v) => v.replace('arbitrary-node:', 'associated-node:')) : [...verbs],
    };
    edits.replaceRule(
      src,
      [...sub.rules, replacement],
      kind === 'plugin' ? `associated-node instead of arbitrary-node verbs, for ${list(drivers)} only` : `arbitrary-node verbs for ${list(drivers)} only`,
    );
  }
  if (edits.empty) return { none: 'the grants behind it are not rules the fix can edit (no role in the snapshot holds them)' };
  const namespace = claimNamespace(ctx);
  const other = ctx.knownDrivers.find((d) => !drivers.includes(d)) ?? PLACEHOLDER_DRIVER;
  const probes: FixProbe[] = [];
  for (const h of holders)
    for (const verb of taken)
      probes.push(...ownDriverProbes(h, kind === 'plugin' ? verb.replace('arbitrary-node:', 'associated-node:') : verb, verb, drivers, other, namespace));
  const roles = sourceRoleNames(sites);
  const proposal: Proposal = {
    holders: [...holders],
    edits,
    probes:
      kind === 'plugin'
        ? [
            ...probes,
            ...refusedProbes(ctx, holders, () =>
              [...taken].flatMap((verb) => drivers.map((d) => res(verb, DRA, 'resourceclaims', { subresource: 'driver', namespace, name: d }))),
            ),
          ]
        : probes,
    // A scoped controller keeps arbitrary-node verbs (the expected holder); a plugin may hold none.
    ...(kind === 'plugin' ? { capabilities: [capability('forge-device-status')] } : {}),
    checks: [
      'the rules are valid for the API server',
      kind === 'plugin'
        ? `holders write device status only of claims on their own node, for ${list(drivers)}`
        : `holders write device status for ${list(drivers)} only`,
    ],
    summary:
      kind === 'plugin'
        ? `Replace the arbitrary-node verbs on resourceclaims/driver in ${list(roles)} with associated-node verbs for the driver its holders serve (${list(drivers)})`
        : `Scope the arbitrary-node verbs on resourceclaims/driver in ${list(roles)} to the driver its holders serve (${list(drivers)})`,
  };
  return proposal;
}
