import type { CelInput, CelValue } from '@bufbuild/cel';
import { compareStrings, objectRef } from '@/lib/k8s/refs';
import { compileLabelSelector } from '@/lib/k8s/label-selector';
import type { KubeObject, LabelSelector, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '@/lib/k8s/types';
import { compileCel, toCelInput, type CelOutcome, type CelProgram } from './cel-program';
import { convertDraObject } from './convert-dra';
import { compileMatch, matchRequest, type CompiledMatch, type MatchLookups, type MatchResources } from './match-resources';
import type { AdmissionOutcome, AdmissionRequest, PolicyBindingRef } from './types';

// ValidatingAdmissionPolicies (admissionregistration.k8s.io/v1) and their bindings evaluated on one
// admission request, in the order of k8s.io/apiserver admission/plugin/policy/validating: the policy's
// matchConstraints, each binding's matchResources, the parameter objects of its paramRef, the
// matchConditions (any false skips; an error goes to failurePolicy), the variables, the validations
// (false is a violation, an error goes to failurePolicy), and the binding's validationActions (only
// Deny refuses). What this evaluator cannot decide is "unknown", never admit or deny.

export interface AdmissionLookups extends MatchLookups {
  /** The Namespace object (the CEL variable namespaceObject). */
  namespaceObject(name: string): unknown;
  /** The objects of a paramKind, or why they are not known. */
  params(paramKind: { apiVersion?: string; kind?: string }): { objects: readonly KubeObject[]; namespaced: boolean } | { unknown: string };
}

export type BindingDecision =
  | { ref: PolicyBindingRef; decision: 'admit'; warnings: string[] }
  | { ref: PolicyBindingRef; decision: 'deny'; message: string }
  | { ref: PolicyBindingRef; decision: 'unknown'; reason: string };

export interface PolicyEvaluator {
  /** The outcome of every bound policy together: a definite deny wins, then unknown, then admit. */
  admit(request: AdmissionRequest): AdmissionOutcome;
  /** The decision of each binding that applies to the request (those its match rules or matchConditions skip are left out). */
  decisions(request: AdmissionRequest): BindingDecision[];
}

interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelector;
  parameterNotFoundAction?: string;
}

interface CompiledPolicy {
  policy: ValidatingAdmissionPolicy;
  match: CompiledMatch;
  failClosed: boolean;
  paramKind?: { apiVersion?: string; kind?: string };
  conditions: { name: string; program: CelProgram }[];
  variables: { name: string; program: CelProgram }[];
  validations: { program: CelProgram; message?: string; messageExpression?: CelProgram }[];
  bindings: { binding: ValidatingAdmissionPolicyBinding; match?: CompiledMatch; actions: string[]; paramRef?: ParamRef }[];
}

type Once =
  { kind: 'skip' } | { kind: 'pass' } | { kind: 'violation'; message: string } | { kind: 'error'; message: string } | { kind: 'unknown'; reason: string };

const asArray = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

function compilePolicy(policy: ValidatingAdmissionPolicy, bindings: ValidatingAdmissionPolicyBinding[]): CompiledPolicy {
  const spec = policy.spec ?? {};
  const named = (list: unknown) =>
    asArray<{ name?: unknown; expression?: unknown }>(list)
      .filter((c) => typeof c?.expression === 'string')
      .map((c) => ({ name: String(c.name ?? ''), program: compileCel(c.expression as string) }));
  return {
    policy,
    match: compileMatch(spec.matchConstraints as MatchResources | undefined),
    // v1 defaults failurePolicy to Fail.
    failClosed: spec.failurePolicy !== 'Ignore',
    paramKind: spec.paramKind as CompiledPolicy['paramKind'],
    conditions: named(spec.matchConditions),
    variables: named(spec.variables),
    validations: asArray<{ expression?: unknown; message?: unknown; messageExpression?: unknown }>(spec.validations)
      .filter((v) => typeof v?.expression === 'string')
      .map((v) => ({
        program: compileCel(v.expression as string),
        message: typeof v.message === 'string' ? v.message : undefined,
        messageExpression: typeof v.messageExpression === 'string' ? compileCel(v.messageExpression) : undefined,
      })),
    bindings: bindings
      .sort((a, b) => compareStrings(a.metadata.name, b.metadata.name))
      .map((binding) => ({
        binding,
        match: binding.spec?.matchResources ? compileMatch(binding.spec.matchResources as MatchResources) : undefined,
        actions: asArray<string>(binding.spec?.validationActions),
        paramRef: binding.spec?.paramRef as ParamRef | undefined,
      })),
  };
}

function requestInput(r: AdmissionRequest, version: string): CelInput {
  const kind = { group: r.group, version, kind: r.kind };
  const resource = { group: r.group, version, resource: r.resource };
  return toCelInput({
    uid: '',
    kind,
    resource,
    subResource: r.subresource,
    requestKind: kind,
    requestResource: resource,
    requestSubResource: r.subresource,
    name: r.name,
    namespace: r.namespace,
    operation: r.operation,
    userInfo: { username: r.userInfo.username, uid: r.userInfo.uid ?? '', groups: r.userInfo.groups, extra: r.userInfo.extra ?? {} },
    dryRun: r.dryRun ?? false,
    options: null,
  });
}

/** Runs a program unless it reads a variable that was unknown. */
function runWith(program: CelProgram, bindings: Record<string, CelInput>, unknownVars: Map<string, string>): CelOutcome {
  for (const v of program.variables) {
    const why = unknownVars.get(v);
    if (why !== undefined) return { kind: 'unknown', reason: `variables.${v} is unknown: ${why}` };
  }
  return program.run(bindings);
}

function evaluateOnce(p: CompiledPolicy, base: Record<string, CelInput>, params: CelInput): Once {
  const variables = new Map<string, CelValue>();
  const unknownVars = new Map<string, string>();
  const bindings: Record<string, CelInput> = { ...base, params, variables };
  // Variables are lazy in the API server; evaluated here in order, an error one is left out so that
  // reading it errors (as it would there) and an unknown one makes whatever reads it unknown.
  for (const v of p.variables) {
    const out = runWith(v.program, bindings, unknownVars);
    if (out.kind === 'value') variables.set(v.name, out.value);
    else if (out.kind === 'unknown') unknownVars.set(v.name, out.reason);
  }
  let conditionError: string | undefined;
  let conditionUnknown: string | undefined;
  for (const c of p.conditions) {
    const out = runWith(c.program, bindings, unknownVars);
    if (out.kind === 'value' && out.value === false) return { kind: 'skip' };
    if (out.kind === 'value' && out.value !== true) conditionError ??= `matchCondition ${c.name} did not evaluate to a bool`;
    else if (out.kind === 'error') conditionError ??= `matchCondition ${c.name} resulted in error: ${out.message}`;
    else if (out.kind === 'unknown') conditionUnknown ??= `matchCondition ${c.name} (${c.program.text}): ${out.reason}`;
  }
  if (conditionUnknown) return { kind: 'unknown', reason: conditionUnknown };
  if (conditionError) return { kind: 'error', message: conditionError };
  let error: string | undefined;
  let unknown: string | undefined;
  for (const v of p.validations) {
    const out = runWith(v.program, bindings, unknownVars);
    if (out.kind === 'value' && out.value === false) return { kind: 'violation', message: messageOf(v, bindings, unknownVars) };
    if (out.kind === 'value' && out.value !== true) error ??= `expression '${v.program.text}' did not evaluate to a bool`;
    else if (out.kind === 'error') error ??= `expression '${v.program.text}' resulted in error: ${out.message}`;
    else if (out.kind === 'unknown') unknown ??= `validation ${v.program.text}: ${out.reason}`;
  }
  if (unknown) return { kind: 'unknown', reason: unknown };
  if (error) return { kind: 'error', message: error };
  return { kind: 'pass' };
}

function messageOf(v: CompiledPolicy['validations'][number], bindings: Record<string, CelInput>, unknownVars: Map<string, string>): string {
  if (v.messageExpression) {
    const out = runWith(v.messageExpression, bindings, unknownVars);
    if (out.kind === 'value' && typeof out.value === 'string' && out.value.trim() !== '' && !out.value.includes('\n')) return out.value;
  }
  return v.message ?? `failed expression: ${v.program.text}`;
}

type ParamsFound =
  { kind: 'params'; params: { ref?: PolicyBindingRef['param']; input: CelInput }[] } | { kind: 'error'; message: string } | { kind: 'unknown'; reason: string };

function paramsFor(p: CompiledPolicy, ref: ParamRef | undefined, r: AdmissionRequest, lookups: AdmissionLookups): ParamsFound {
  if (!p.paramKind) return { kind: 'params', params: [{ input: null }] };
  if (!ref) return { kind: 'error', message: 'the policy has a paramKind but the binding has no paramRef' };
  const found = lookups.params(p.paramKind);
  if ('unknown' in found) return { kind: 'unknown', reason: found.unknown };
  const namespace = ref.namespace || (found.namespaced ? r.namespace : '');
  if (found.namespaced && namespace === '')
    return { kind: 'error', message: 'the paramKind is namespaced, and neither the paramRef nor the request names a namespace' };
  const inNamespace = found.objects.filter((o) => (o.metadata.namespace ?? '') === (found.namespaced ? namespace : ''));
  const selected =
    ref.name !== undefined && ref.name !== ''
      ? inNamespace.filter((o) => o.metadata.name === ref.name)
      : ref.selector
        ? inNamespace.filter((o) => compileLabelSelector(ref.selector)(o.metadata.labels))
        : [];
  if (selected.length === 0) {
    if (ref.parameterNotFoundAction === 'Allow') return { kind: 'params', params: [] };
    return { kind: 'error', message: 'no params found for policy binding with `Deny` parameterNotFoundAction' };
  }
  return {
    kind: 'params',
    params: selected.map((o) => ({ ref: objectRef(o.kind, o.metadata.name, o.metadata.namespace), input: toCelInput(o) })),
  };
}

export function admissionEvaluator(
  policies: readonly ValidatingAdmissionPolicy[],
  bindings: readonly ValidatingAdmissionPolicyBinding[],
  lookups: AdmissionLookups,
): PolicyEvaluator {
  const byPolicy = new Map<string, ValidatingAdmissionPolicyBinding[]>();
  for (const b of bindings) {
    const name = b.spec?.policyName;
    if (typeof name === 'string') byPolicy.set(name, [...(byPolicy.get(name) ?? []), b]);
  }
  const compiled = [...policies]
    .filter((p) => byPolicy.has(p.metadata.name))
    .sort((a, b) => compareStrings(a.metadata.name, b.metadata.name))
    .map((p) => compilePolicy(p, byPolicy.get(p.metadata.name)!));
  const nsCache = new Map<string, CelInput>();
  const namespaceInput = (name: string) => {
    if (!nsCache.has(name)) nsCache.set(name, toCelInput(lookups.namespaceObject(name) ?? null));
    return nsCache.get(name)!;
  };

  function decisions(r: AdmissionRequest): BindingDecision[] {
    const out: BindingDecision[] = [];
    // The CEL inputs of the request, per version a policy matched it through (converted once each).
    const bases = new Map<string, Record<string, CelInput> | undefined>();
    const baseFor = (version: string) => {
      if (bases.has(version)) return bases.get(version);
      const convert = (o: unknown) =>
        version === r.version || o === null || o === undefined ? o : r.group === 'resource.k8s.io' ? convertDraObject(o, version) : undefined;
      const object = convert(r.object);
      const oldObject = convert(r.oldObject);
      const base =
        (object === undefined && r.object) || (oldObject === undefined && r.oldObject)
          ? undefined
          : {
              object: toCelInput(object ?? null),
              oldObject: toCelInput(oldObject ?? null),
              request: requestInput(r, version),
              namespaceObject: r.namespace ? namespaceInput(r.namespace) : null,
            };
      bases.set(version, base);
      return base;
    };
    for (const p of compiled) {
      const policyRef = objectRef('ValidatingAdmissionPolicy', p.policy.metadata.name);
      const pm = matchRequest(p.match, r, lookups);
      for (const b of p.bindings) {
        const ref: PolicyBindingRef = { policy: policyRef, binding: objectRef('ValidatingAdmissionPolicyBinding', b.binding.metadata.name) };
        const denies = b.actions.includes('Deny');
        const decide = (once: Once, param?: PolicyBindingRef['param']): BindingDecision | undefined => {
          const at = param ? { ...ref, param } : ref;
          if (once.kind === 'skip' || once.kind === 'pass' || (once.kind === 'error' && !p.failClosed)) return undefined;
          if (!denies)
            return { ref: at, decision: 'admit', warnings: once.kind === 'unknown' ? [] : b.actions.includes('Warn') ? [messageText(at, once)] : [] };
          if (once.kind === 'unknown') return { ref: at, decision: 'unknown', reason: once.reason };
          return { ref: at, decision: 'deny', message: messageText(at, once) };
        };
        if (!pm.matched) {
          if (pm.unknown) out.push({ ref, decision: 'unknown', reason: pm.unknown });
          continue;
        }
        if (b.match) {
          const bm = matchRequest(b.match, r, lookups);
          if (!bm.matched) {
            if (bm.unknown) out.push({ ref, decision: 'unknown', reason: bm.unknown });
            continue;
          }
        }
        const base = baseFor(pm.version);
        if (!base) {
          if (denies)
            out.push({
              ref,
              decision: 'unknown',
              reason: `it matches ${r.group}/${pm.version}, to which the request would be converted; that conversion is not modelled`,
            });
          continue;
        }
        const found = paramsFor(p, b.paramRef, r, lookups);
        if (found.kind !== 'params') {
          const d = decide(found.kind === 'error' ? { kind: 'error', message: found.message } : found);
          if (d) out.push(d);
          continue;
        }
        const perParam: BindingDecision[] = [];
        let applied = false;
        for (const param of found.params) {
          const once = evaluateOnce(p, base, param.input);
          if (once.kind !== 'skip') applied = true;
          const d = decide(once, param.ref);
          if (d) perParam.push(d);
        }
        // Every evaluation skipped by a matchCondition (or no params, with Allow): the binding does not apply.
        if (!applied) continue;
        const deny = perParam.find((d) => d.decision === 'deny');
        const unknown = perParam.find((d) => d.decision === 'unknown');
        if (deny) out.push(deny);
        else if (unknown) out.push(unknown);
        else out.push({ ref, decision: 'admit', warnings: perParam.flatMap((d) => (d.decision === 'admit' ? d.warnings : [])) });
      }
    }
    return out;
  }

  return {
    decisions,
    admit(r) {
      const all = decisions(r);
      const warnings = all.flatMap((d) => (d.decision === 'admit' ? d.warnings : []));
      const deny = all.find((d) => d.decision === 'deny');
      if (deny?.decision === 'deny') return { outcome: 'deny', by: deny.ref, message: deny.message, warnings };
      const unknown = all.find((d) => d.decision === 'unknown');
      if (unknown?.decision === 'unknown') return { outcome: 'unknown', by: unknown.ref, reason: unknown.reason, warnings };
      return { outcome: 'admit', checked: all.map((d) => d.ref), warnings };
    },
  };
}

/** The API server's words for a refusal. */
function messageText(ref: PolicyBindingRef, once: { kind: 'violation' | 'error'; message: string } | { kind: 'unknown'; reason: string }): string {
  const what = once.kind === 'unknown' ? once.reason : once.message;
  return `ValidatingAdmissionPolicy '${ref.policy.name}' with binding '${ref.binding.name}' denied request: ${what}`;
}
