import type { AuthzEngine } from '@/lib/authz/authz-engine';
import type { UserInfo } from '@/lib/authz/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { CATALOG } from '@/lib/analysis/catalog';
import { CHECK_LIST, compareFindings } from '@/lib/analysis/checks/registry';
import type { Check } from '@/lib/analysis/checks/check-types';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { canonicalSubject } from '@/lib/analysis/context/identities';
import { findingId } from '@/lib/analysis/finding-id';
import { findingTextOf } from '@/lib/analysis/finding-texts';
import { holderEngine } from '@/lib/analysis/fixes/holder-engine';
import { ClaimWriterAnalysis } from '@/lib/analysis/node-writers/claim-status-writers';
import { listNodeStatusWriters } from '@/lib/analysis/node-writers/node-status-writers';
import type { NodeStatusWriterMap } from '@/lib/analysis/node-writers/node-writer-accumulator';
import type { AnalysisSettings } from '@/lib/analysis/settings';
import type { CheckId, Finding, FindingTexts, Report } from '@/lib/analysis/types';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { compareSubjects, refKey } from '@/lib/k8s/refs';
import type { SubjectRef } from '@/lib/k8s/types';
import { bundleRbacChanges } from './bundle-rbac-changes';
import type { RoleBundle } from './types';

// The findings about one identity once a bundle is applied, from the current analysis instead of a
// new analysis of the whole cluster (issue #26: 42 s on 49,000 RBAC objects). The identity's access
// comes from the holder-scoped engine that fix verification uses (lib/analysis/fixes/holder-engine):
// the bindings naming the identity or its groups, and the bundle's objects. Everything that is not
// its access (pods, namespaces and their classes, DRA driver pods, node-local identities) is the
// current analysis's, which incremental-limits.ts makes sure the bundle cannot change. A test holds
// the answers equal to the full validation's.

/** The current analysis of the cluster the bundle is validated against (the server keeps one per version). */
export interface CurrentAnalysis {
  report: Report;
  context: AnalysisContext;
  texts: FindingTexts;
}

export interface IdentityFinding {
  finding: Finding;
  title: string;
  message: string;
}

// Checks whose findings never name the identity here: they report no subject (cluster configuration,
// claims, quotas, zeroing, audit), or the service account of a pod (the identity runs none).
const NEVER_ABOUT_THE_IDENTITY = new Set<CheckId>([
  'NODE005',
  'CLAIM001',
  'CLAIM002',
  'CLAIM004',
  'CLAIM005',
  'QUOTA001',
  'QUOTA002',
  'QUOTA003',
  'QUOTA004',
  'ZERO001',
  'ZERO002',
  'POD001',
  'POD002',
  'POD003',
  'POD004',
  'AUDIT001',
  'AUDIT002',
  'AUDIT003',
  'AUDIT004',
  'AUDIT005',
  'AUDIT006',
]);

// Checks about one role and every subject bound to it. On the identity's engine a role holds only
// the bindings that name the identity, so these are taken from it for the bundle's own roles (bound
// to the identity alone) and from the current analysis for the others, which the bundle leaves as they are.
const ABOUT_ROLES = new Set<CheckId>(['DRA002', 'DRA004', 'DRA009', 'NODE004', 'NODE006']);

/** The identity's engine: the current engine's answers for `users`, with the bundle's RBAC objects applied. */
export function identityEngine(engine: AuthzEngine, users: readonly UserInfo[], bundle: RoleBundle): AuthzEngine {
  return holderEngine(engine, users, bundleRbacChanges(bundle));
}

/**
 * The analysis context as the checks see the cluster with the bundle applied, for questions about
 * `user`'s identity: its access, DRA component and admin facts from its own engine; pods, namespaces
 * and driver facts from the current analysis.
 */
function identityContext(current: AnalysisContext, merged: ClusterState, engine: AuthzEngine, settings: AnalysisSettings): AnalysisContext {
  // The identity runs no pods: its context is built without any, which keeps it small and leaves the
  // pod facts to the current analysis below.
  const podless: ClusterState = {
    ...engine.state,
    pods: [],
    serviceAccounts: [],
    resourceQuotas: [],
    daemonSets: [],
    deployments: [],
    statefulSets: [],
    replicaSets: [],
    configMaps: [],
    persistentVolumeClaims: [],
    resourceClaims: [],
    resourceClaimTemplates: [],
    validatingAdmissionPolicies: merged.validatingAdmissionPolicies,
    validatingAdmissionPolicyBindings: merged.validatingAdmissionPolicyBindings,
  };
  const own = buildAnalysisContext(podless, engine, settings);
  const fromCurrent = (keys: (keyof AnalysisContext)[]) => Object.fromEntries(keys.map((k) => [k, { value: current[k] }]));
  let nodeStatusWriters: NodeStatusWriterMap | undefined;
  let claimWriters: ClaimWriterAnalysis | undefined;
  const ctx: AnalysisContext = Object.create(own, {
    state: { value: merged },
    ...fromCurrent([
      'isPlatformNamespace',
      'isTenantNamespace',
      'admitsPrivilegedPods',
      'namespaces',
      'driverPods',
      'isDriverPod',
      'pluginDirPods',
      'nodeLocalIdentities',
      'isNodeLocalIdentity',
      'ownerOf',
      'pods',
      'podIndex',
      'knownDrivers',
      'quotas',
      'deviceClasses',
    ]),
    nodeStatusWriters: { get: () => (nodeStatusWriters ??= listNodeStatusWriters(ctx)) },
    claimWriters: { get: () => (claimWriters ??= new ClaimWriterAnalysis(ctx)) },
  });
  return ctx;
}

const names = (subjects: readonly SubjectRef[], subject: SubjectRef) => subjects.some((s) => refKey(s) === refKey(subject));

/**
 * Every finding naming `subject` once the bundle is applied, in report order: the checks run on the
 * identity's context, and the role checks' findings about roles the bundle does not touch are the
 * current analysis's (DRA009 again on the current context when the identity's own facts changed).
 */
export function identityFindings(
  current: CurrentAnalysis,
  merged: ClusterState,
  engine: AuthzEngine,
  settings: AnalysisSettings,
  subject: SubjectRef,
  bundle: RoleBundle,
): IdentityFinding[] {
  const ctx = identityContext(current.context, merged, engine, settings);
  const bundleRefs = new Set(bundle.objects.map((o) => refKey({ kind: o.object.kind, name: o.object.metadata.name, namespace: o.object.metadata.namespace })));
  const touchesBundle = (f: Pick<Finding, 'objects'>) => f.objects.some((o) => bundleRefs.has(refKey(o)));
  const out: IdentityFinding[] = [];
  const draft = (check: Check, c: AnalysisContext, keep: (f: Finding) => boolean) => {
    for (const d of check.run(c)) {
      if (!names(d.subjects, subject)) continue;
      const { severity, title } = CATALOG[check.id];
      const finding: Finding = {
        id: findingId(check.id, d.subjects, d.objects),
        check: check.id,
        severity,
        subjects: d.subjects,
        objects: d.objects,
        evidence: d.evidence,
      } as Finding;
      if (keep(finding)) out.push({ finding, title, message: d.message });
    }
  };
  for (const check of CHECK_LIST) {
    if (NEVER_ABOUT_THE_IDENTITY.has(check.id)) continue;
    draft(check, ctx, (f) => !ABOUT_ROLES.has(f.check) || touchesBundle(f));
  }

  // The roles it was bound to before: unchanged, so are their findings, except DRA009 when the
  // identity became (or stopped being) a DRA component or admin-equivalent.
  const before = current.context;
  const changed = before.isDraComponent(subject) !== ctx.isDraComponent(subject) || before.isAdminEquivalent(subject) !== ctx.isAdminEquivalent(subject);
  const key = refKey(subject);
  for (const f of current.report.findings) {
    if (!ABOUT_ROLES.has(f.check) || !names(f.subjects, subject) || touchesBundle(f) || (changed && f.check === 'DRA009')) continue;
    const { title, message } = findingTextOf(f, current.texts);
    out.push({ finding: f, title, message });
  }
  if (changed) {
    // DRA009 walks every bound role: here only those the identity is bound to (with all their bindings).
    const rbac = before.engine.rbac;
    const clusterRoles = new Map(
      [...engine.rbac.clusterRoles.keys()].flatMap((name) => (rbac.clusterRoles.has(name) ? [[name, rbac.clusterRoles.get(name)!] as const] : [])),
    );
    const roles = new Map(
      [...engine.rbac.roles].map(
        ([ns, mine]) =>
          [ns, new Map([...mine.keys()].flatMap((name) => (rbac.roles.get(ns)?.has(name) ? [[name, rbac.roles.get(ns)!.get(name)!] as const] : [])))] as const,
      ),
    );
    const view = { ...rbac, clusterRoles, roles };
    // The component list agrees with isDraComponent (DRA009 finds the roles bound to components from it).
    const own = refKey(canonicalSubject(subject));
    const others = before.draComponents.filter((c) => refKey(c) !== own);
    const components = ctx.isDraComponent(subject) ? [...others, canonicalSubject(subject)].sort(compareSubjects) : others;
    const overlay: AnalysisContext = Object.create(before, {
      engine: { value: Object.create(before.engine, { rbac: { value: view } }) },
      draComponents: { value: components },
      isDraComponent: { value: (s: SubjectRef) => (refKey(s) === key ? ctx.isDraComponent(s) : before.isDraComponent(s)) },
      isAdminEquivalent: { value: (s: SubjectRef) => (refKey(s) === key ? ctx.isAdminEquivalent(s) : before.isAdminEquivalent(s)) },
    });
    const dra009 = CHECK_LIST.find((c) => c.id === 'DRA009');
    if (dra009) draft(dra009, overlay, (f) => !touchesBundle(f));
  }
  return out.sort((a, b) => compareFindings(a.finding, b.finding));
}
