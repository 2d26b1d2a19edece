import { createAuthzEngine, type AuthzEngine } from '@/lib/authz/authz-engine';
import type { AuthorizerName } from '@/lib/authz/types';
import { mergeSettings, type AnalysisSettings } from '@/lib/analysis/settings';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { SubjectRef } from '@/lib/k8s/types';
import { buildReportWithContext } from '@/lib/report/build-report';
import { findingTextOf } from '@/lib/analysis/finding-texts';
import type { Finding, Report } from '@/lib/analysis/types';
import { identityUser, subjectRef } from './identity';
import { identityEngine, identityFindings, type CurrentAnalysis } from './incremental-validation';
import { reasonsForFullValidation, reasonsInAccess } from './incremental-limits';
import { missingNamespaceNotes } from './missing-namespaces';
import { mergeBundle } from './merge-bundle';
import { nodeUser, nodeNameFromUsername, parseServiceAccountUsername, serviceAccountUser } from '@/lib/authz/user-info';
import type { UserInfo } from '@/lib/authz/types';
import { operationContext } from './operation-context';
import { PERSONAS } from '@/lib/personas/registry';
import type { BuilderIdentity, Operation, OperationContext, RoleBundle } from './types';

export interface OperationResult {
  operation: Operation;
  expected: 'allowed' | 'refused';
  allowed: boolean;
  /** The engine's answer matches what the persona needs. */
  ok: boolean;
  reason: string;
}

export interface ValidationFinding {
  id: string;
  check: string;
  severity: string;
  title: string;
  message: string;
  /** The finding exists today already, before the bundle is applied. */
  alreadyToday: boolean;
}

export interface BundleValidation {
  context: OperationContext;
  intended: OperationResult[];
  dangerous: OperationResult[];
  /** Posture findings about this identity once the bundle is applied. */
  findings: ValidationFinding[];
  notes: string[];
  ok: boolean;
}

export interface ValidateOptions {
  settings?: Partial<AnalysisSettings>;
  chain?: readonly AuthorizerName[];
  /** The report of the cluster as it is, to tell new findings from existing ones (default: the analysis's). */
  baseline?: Report;
  /**
   * The current analysis of `state` (the server keeps one per version): when given, the bundle is
   * validated against it, re-asking only the identity's questions, unless incremental-limits.ts
   * finds a reason to analyse the whole cluster again. The answers are the same either way.
   */
  analysis?: CurrentAnalysis;
}

/** How a validation was answered: from the current analysis, or by analysing the cluster with the bundle applied (and why). */
export type ValidationPath = { incremental: true } | { incremental: false; reasons: string[] };

/** Decides one operation as `identity` would send it. */
export function decideOperation(engine: AuthzEngine, identity: BuilderIdentity, op: Operation): { allowed: boolean; reason: string } {
  if (op.kind === 'impersonate') {
    const d = engine.authorizeImpersonated(identityUser(identity, op.nodeName), { user: op.impersonateUser }, { resource: op.resource });
    return { allowed: d.allowed, reason: d.reason };
  }
  const user = identityUser(identity, op.kind === 'request' ? op.nodeName : undefined);
  const d = op.kind === 'request' ? engine.authorize({ user, resource: op.resource }) : engine.authorize({ user, nonResource: op.nonResource });
  return { allowed: d.allowed, reason: d.reason };
}

function sameSubject(a: SubjectRef, b: SubjectRef): boolean {
  return a.kind === b.kind && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');
}

/** The user an impersonating operation acts as, with every group the impersonation can give it (for the identity's engine). */
function impersonatedUser(name: string): UserInfo {
  const node = nodeNameFromUsername(name);
  if (node !== undefined) return nodeUser(node);
  const sa = parseServiceAccountUsername(name);
  return sa ? serviceAccountUser(sa.namespace, sa.name) : { name, groups: ['system:authenticated'] };
}

/**
 * Applies the bundle to a copy of the cluster and asks the engine: is every intended operation
 * allowed, every dangerous one refused, and does no posture check fire with this identity as subject?
 */
export function validateBundle(state: ClusterState, bundle: RoleBundle, options: ValidateOptions = {}): BundleValidation {
  return validateBundleWithPath(state, bundle, options).validation;
}

/** validateBundle, saying whether the current analysis answered it or the whole cluster was analysed again. */
export function validateBundleWithPath(
  state: ClusterState,
  bundle: RoleBundle,
  options: ValidateOptions = {},
): { validation: BundleValidation; path: ValidationPath } {
  const persona = PERSONAS[bundle.input.persona];
  const identity = bundle.input.identity;
  const ctx = operationContext(state, bundle.input);
  const notes: string[] = missingNamespaceNotes(state, bundle);
  const intendedOps = persona.intended(ctx, bundle.input);
  const dangerousOps = persona.dangerous(ctx, bundle.input);

  const settings = mergeSettings(options.settings);
  const analysis = options.analysis;
  const reasons = analysis ? reasonsForFullValidation(analysis.context, state, bundle, settings, options.chain) : ['no current analysis was given'];
  const subject = subjectRef(identity);
  if (persona.id === 'scheduler') {
    const username = identityUser(identity).name;
    if (identity.kind !== 'Group' && !settings.allocatorIdentities.includes(username)) {
      settings.allocatorIdentities = [...settings.allocatorIdentities, username];
      notes.push(`Validated with "${username}" added to settings.allocatorIdentities (an allocator must be listed there, else DRA007 reports it).`);
    }
  }
  // The identity's own engine: the current analysis's answers for it, with the bundle applied.
  const own = analysis && reasons.length === 0 ? identityEngine(analysis.context.engine, [identityUser(identity)], bundle) : undefined;
  if (own) reasons.push(...reasonsInAccess(own));
  const merged = mergeBundle(state, bundle);
  const baseline = options.baseline ?? analysis?.report;
  const before = new Set((baseline?.findings ?? []).map((f) => f.id));

  let engine: AuthzEngine;
  let findings: ValidationFinding[];
  if (analysis && own && reasons.length === 0) {
    // Impersonating operations also ask about the user they act as.
    const acting = [...intendedOps, ...dangerousOps].flatMap((op) => (op.kind === 'impersonate' ? [impersonatedUser(op.impersonateUser)] : []));
    engine = acting.length > 0 ? identityEngine(analysis.context.engine, [identityUser(identity), ...acting], bundle) : own;
    findings = identityFindings(analysis, merged, own, settings, subject, bundle).map(({ finding: f, title, message }) => ({
      id: f.id,
      check: f.check,
      severity: f.severity,
      title,
      message,
      alreadyToday: before.has(f.id),
    }));
  } else {
    engine = createAuthzEngine(merged, options.chain ? { chain: options.chain } : {});
    const { report, texts } = buildReportWithContext(merged, { settings, chain: options.chain });
    findings = report.findings
      .filter((f: Finding) => f.subjects.some((s) => sameSubject(s, subject)))
      .map((f) => {
        const { title, message } = findingTextOf(f, texts);
        return { id: f.id, check: f.check, severity: f.severity, title, message, alreadyToday: before.has(f.id) };
      });
  }

  const run = (ops: Operation[], expected: 'allowed' | 'refused'): OperationResult[] =>
    ops.map((operation) => {
      const d = decideOperation(engine, identity, operation);
      return { operation, expected, allowed: d.allowed, ok: d.allowed === (expected === 'allowed'), reason: d.reason };
    });
  const intended = run(intendedOps, 'allowed');
  const dangerous = run(dangerousOps, 'refused');
  const ok = intended.every((r) => r.ok) && dangerous.every((r) => r.ok) && findings.length === 0;
  return {
    validation: { context: ctx, intended, dangerous, findings, notes, ok },
    path: reasons.length === 0 ? { incremental: true } : { incremental: false, reasons },
  };
}
