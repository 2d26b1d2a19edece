import { createAuthzEngine, type AuthzEngine } from '@/lib/authz/authz-engine';
import type { AuthorizerName } from '@/lib/authz/types';
import { mergeSettings, type AnalysisSettings } from '@/lib/analysis/settings';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { SubjectRef } from '@/lib/k8s/types';
import { buildReportWithContext } from '@/lib/report/build-report';
import { findingTextOf } from '@/lib/analysis/finding-texts';
import type { Finding, Report } from '@/lib/analysis/types';
import { identityUser, subjectRef } from './identity';
import { mergeBundle } from './merge-bundle';
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
  /** The report of the cluster as it is, to tell new findings from existing ones. */
  baseline?: Report;
}

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

/**
 * Applies the bundle to a copy of the cluster and asks the engine: is every intended operation
 * allowed, every dangerous one refused, and does no posture check fire with this identity as subject?
 */
export function validateBundle(state: ClusterState, bundle: RoleBundle, options: ValidateOptions = {}): BundleValidation {
  const persona = PERSONAS[bundle.input.persona];
  const identity = bundle.input.identity;
  const merged = mergeBundle(state, bundle);
  const engine = createAuthzEngine(merged, options.chain ? { chain: options.chain } : {});
  const ctx = operationContext(state, bundle.input);
  const notes: string[] = [];

  const run = (ops: Operation[], expected: 'allowed' | 'refused'): OperationResult[] =>
    ops.map((operation) => {
      const d = decideOperation(engine, identity, operation);
      return { operation, expected, allowed: d.allowed, ok: d.allowed === (expected === 'allowed'), reason: d.reason };
    });
  const intended = run(persona.intended(ctx, bundle.input), 'allowed');
  const dangerous = run(persona.dangerous(ctx, bundle.input), 'refused');

  const settings = mergeSettings(options.settings);
  const subject = subjectRef(identity);
  if (persona.id === 'scheduler') {
    const username = identityUser(identity).name;
    if (identity.kind !== 'Group' && !settings.allocatorIdentities.includes(username)) {
      settings.allocatorIdentities = [...settings.allocatorIdentities, username];
      notes.push(`Validated with "${username}" added to settings.allocatorIdentities (an allocator must be listed there, else DRA007 reports it).`);
    }
  }
  const before = new Set((options.baseline?.findings ?? []).map((f) => f.id));
  const { report, texts } = buildReportWithContext(merged, { settings, chain: options.chain });
  const findings: ValidationFinding[] = report.findings
    .filter((f: Finding) => f.subjects.some((s) => sameSubject(s, subject)))
    .map((f) => {
      const { title, message } = findingTextOf(f, texts);
      return { id: f.id, check: f.check, severity: f.severity, title, message, alreadyToday: before.has(f.id) };
    });

  const ok = intended.every((r) => r.ok) && dangerous.every((r) => r.ok) && findings.length === 0;
  return { context: ctx, intended, dangerous, findings, notes, ok };
}
