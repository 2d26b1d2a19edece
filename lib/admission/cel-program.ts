import { celEnv, isCelError, parse, plan, type CelInput, type CelValue } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { OPTIONAL_FUNCS, rewriteOptionalSyntax, UnsupportedCel } from './cel-optional';

// One CEL expression of an admission policy, compiled once (parse + plan) and kept in a cache keyed
// by its text, so that evaluating the same policy on many objects never parses again.
//
// An evaluation ends in a value, an error Kubernetes would also raise (a missing field, an index out
// of range, a division by zero: the policy's failurePolicy decides), or "unknown": something this
// evaluator cannot decide (a function it lacks, syntax it does not read, an `authorizer` check).

export type CelOutcome = { kind: 'value'; value: CelValue } | { kind: 'error'; message: string } | { kind: 'unknown'; reason: string };

export interface CelProgram {
  readonly text: string;
  /** Why it cannot be evaluated at all; undefined when it compiled. */
  readonly unsupported?: string;
  /** The `variables.<name>` it reads (to report an unknown variable as unknown). */
  readonly variables: readonly string[];
  run(bindings: Record<string, CelInput>): CelOutcome;
}

// The Kubernetes CEL environment (k8s.io/apiserver/pkg/cel/environment) has the standard library, the
// strings extension and optionals; the Kubernetes libraries (lists, regex, url, quantity, ip, cidr,
// semver, format, authz) are not here: a call to one of them is an unbound function, so unknown.
const ENV = celEnv({ funcs: [...strings, ...OPTIONAL_FUNCS] });

// Errors of a well-formed expression on this data, as cel-go raises them at run time.
const RUNTIME_ERRORS = /field not found|no such key|out of bounds|out of range|divide by zero|modulus by zero|overflow/i;

const MAX_CACHED = 4096;
const cache = new Map<string, CelProgram>();

/** The compiled expression (from the cache when seen before). */
export function compileCel(text: string): CelProgram {
  const hit = cache.get(text);
  if (hit) return hit;
  const program = build(text);
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(text, program);
  return program;
}

function build(text: string): CelProgram {
  const variables = [...new Set([...text.matchAll(/\bvariables\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]))];
  const unknown = (reason: string): CelProgram => ({ text, unsupported: reason, variables, run: () => ({ kind: 'unknown', reason }) });
  // The authorizer variable needs the API server's authorizer at evaluation time.
  if (/\bauthorizer\b/.test(text)) return unknown('it calls the authorizer, which is not evaluated');
  let evaluate: (ctx: Record<string, CelInput>) => unknown;
  try {
    evaluate = plan(ENV, parse(rewriteOptionalSyntax(text))) as (ctx: Record<string, CelInput>) => unknown;
  } catch (e) {
    return unknown(`it does not parse here: ${messageOf(e)}`);
  }
  return {
    text,
    variables,
    run(bindings) {
      let r: unknown;
      try {
        r = evaluate(bindings);
      } catch (e) {
        return { kind: 'unknown', reason: messageOf(e) };
      }
      if (!isCelError(r)) return { kind: 'value', value: r as CelValue };
      const message = messageOf(r);
      if (message.startsWith('unsupported:') || r.cause instanceof UnsupportedCel || !RUNTIME_ERRORS.test(message)) return { kind: 'unknown', reason: message };
      return { kind: 'error', message };
    },
  };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * A JSON object as CEL sees an admission request's object: maps with string keys, integers as int,
 * other numbers as double (as the API server's unstructured form does).
 */
export function toCelInput(value: unknown): CelInput {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') return value;
  if (Array.isArray(value)) return value.map(toCelInput);
  if (typeof value === 'object') {
    const m = new Map<string, CelInput>();
    for (const [k, v] of Object.entries(value)) if (v !== undefined) m.set(k, toCelInput(v));
    return m;
  }
  return null;
}
