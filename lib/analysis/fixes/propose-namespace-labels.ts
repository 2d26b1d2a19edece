import { parseKubernetesVersion } from '@/lib/authz/feature-gates';
import type { UserInfo } from '@/lib/authz/types';
import type { Namespace } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Finding, FixChange, FixProbe } from '@/lib/analysis/types';
import { ADMIN_ACCESS_LABEL, LEGACY_ADMIN_ACCESS_LABEL } from '@/lib/analysis/checks/claim-checks';
import { list } from '@/lib/analysis/checks/check-helpers';
import { describeRef } from '@/lib/k8s/refs';
import { claimSpecRequestsAdminAccess } from '@/lib/k8s/normalize-dra';
import type { Proposed } from './verify-fix';
import { decideWrite, writeProbe } from './write-probes';

// CLAIM001 and CLAIM005: a label to take off a Namespace (a JSON merge patch whose null deletes the
// key). CLAIM001's label is the one the API server reads before it stores a claim or template asking
// for adminAccess (AuthorizedForAdmin, pkg/registry/resource/utils.go), so the fix is checked by
// writes: after it, a claim with adminAccess in the namespace is refused, for anyone, and a claim
// without it is still accepted. CLAIM005's legacy label has been inert since 1.34: removing it
// changes no answer.

/** Who sends the write probes: a member of system:masters, whom authorization never refuses, so only the label decides. */
const ADMIN: UserInfo = { name: 'dra-posture-fix-check-admin', groups: ['system:masters', 'system:authenticated'] };

function namespacesOf(findings: readonly Finding[]): string[] {
  return [...new Set(findings.flatMap((f) => f.objects.filter((o) => o.kind === 'Namespace').map((o) => o.name)))].sort();
}

function labelPatch(ctx: AnalysisContext, names: readonly string[], label: string, why: string): { changes: FixChange[]; namespaces: Namespace[] } {
  const changes: FixChange[] = names.map((name) => ({
    action: 'patch',
    target: { kind: 'Namespace', name },
    apiVersion: 'v1',
    patchType: 'merge',
    patch: { metadata: { labels: { [label]: null } } },
    why,
  }));
  const namespaces = ctx.state.namespaces.map((ns) => {
    if (!names.includes(ns.metadata.name) || ns.metadata.labels?.[label] === undefined) return ns;
    const labels = { ...ns.metadata.labels };
    delete labels[label];
    return { ...ns, metadata: { ...ns.metadata, labels } };
  });
  return { changes, namespaces };
}

function claim(kind: 'ResourceClaim' | 'ResourceClaimTemplate', namespace: string, deviceClassName: string, adminAccess: boolean): Record<string, unknown> {
  const spec = { devices: { requests: [{ name: 'req', exactly: { deviceClassName, ...(adminAccess ? { adminAccess: true } : {}) } }] } };
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind,
    metadata: { name: adminAccess ? 'fix-check-admin-access' : 'fix-check-claim', namespace },
    spec: kind === 'ResourceClaim' ? spec : { spec },
  };
}

/** A DeviceClass the namespace's claims use, else the cluster's first. */
function classFor(ctx: AnalysisContext, namespace: string): string {
  const used = ctx.deviceClasses.find((dc) => dc.usedByNamespaces.includes(namespace))?.name;
  return used ?? ctx.state.deviceClasses[0]?.metadata.name ?? 'fix-check.dra-posture.io';
}

export function proposeAdminAccessLabelRemoval(ctx: AnalysisContext, findings: readonly Finding[]): Proposed {
  const names = namespacesOf(findings);
  if (names.length === 0) return { none: 'the findings name no namespace' };
  const { changes, namespaces } = labelPatch(
    ctx,
    names,
    ADMIN_ACCESS_LABEL,
    `remove ${ADMIN_ACCESS_LABEL}: claims and templates in it may no longer ask for adminAccess`,
  );
  const probes: FixProbe[] = [];
  for (const ns of names) {
    const cls = classFor(ctx, ns);
    // Both kinds: an admission policy of the cluster may already refuse one of them.
    const kinds = ['ResourceClaim', 'ResourceClaimTemplate'] as const;
    for (const probe of kinds.flatMap((kind) => [
      writeProbe('denied', `create a ${kind} with adminAccess in ${ns} (refused for anyone without the label)`, ADMIN, 'CREATE', claim(kind, ns, cls, true)),
      writeProbe('allowed', `create a ${kind} without adminAccess in ${ns}`, ADMIN, 'CREATE', claim(kind, ns, cls, false)),
    ])) {
      const today = decideWrite(ctx.engine, probe);
      if ('allowed' in today && today.allowed) probes.push(probe);
    }
  }
  // What the namespaces' owners lose: templates asking for adminAccess then fail to make claims.
  const inScope = (o: { metadata: { namespace?: string } }) => names.includes(o.metadata.namespace ?? '');
  const asking = [
    ...ctx.state.resourceClaimTemplates.filter((t) => inScope(t) && claimSpecRequestsAdminAccess(t.spec?.spec)),
    // Claims a template generated come back with the template; the others are listed themselves.
    ...ctx.state.resourceClaims.filter((c) => inScope(c) && !c.metadata.ownerReferences?.length && claimSpecRequestsAdminAccess(c.spec)),
  ].map((o) => describeRef({ kind: o.kind, name: o.metadata.name, namespace: o.metadata.namespace }));
  return {
    holders: [],
    otherChanges: changes,
    probes,
    stateLists: { namespaces },
    checks: [
      `a claim or claim template with adminAccess in ${list(names)} is then refused (the API server reads the label before it stores one), one without it still accepted`,
    ],
    summary: `Remove the ${ADMIN_ACCESS_LABEL} label from ${list(names.map((n) => `Namespace ${n}`))}`,
    ...(asking.length > 0
      ? {
          leftover: `${list(asking)} ${asking.length === 1 ? 'asks' : 'ask'} for adminAccess: new claims from ${asking.length === 1 ? 'it' : 'them'} are then refused; remove adminAccess there (CLAIM002), and restrict who may label the namespace (CLAIM003)`,
        }
      : {}),
  };
}

export function proposeLegacyLabelRemoval(ctx: AnalysisContext, findings: readonly Finding[]): Proposed {
  const names = namespacesOf(findings);
  if (names.length === 0) return { none: 'the findings name no namespace' };
  const version = parseKubernetesVersion(ctx.state.source.kubernetesVersion);
  if (version && (version[0] < 1 || (version[0] === 1 && version[1] < 34)))
    return { none: `the cluster runs ${ctx.state.source.kubernetesVersion}, where ${LEGACY_ADMIN_ACCESS_LABEL} is the label the API server reads` };
  const { changes } = labelPatch(ctx, names, LEGACY_ADMIN_ACCESS_LABEL, `remove ${LEGACY_ADMIN_ACCESS_LABEL}, read only by Kubernetes 1.33`);
  return {
    holders: [],
    otherChanges: changes,
    probes: [],
    checks: [`the label is inert since 1.34 (only ${ADMIN_ACCESS_LABEL} is read), so no request's answer changes`],
    summary: `Remove the legacy ${LEGACY_ADMIN_ACCESS_LABEL} label from ${list(names.map((n) => `Namespace ${n}`))}`,
  };
}
