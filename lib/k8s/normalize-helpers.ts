// Field readers for the normalisers. Hot path (a snapshot can hold 250k objects): plain functions,
// no closures per field, no path strings built unless something is wrong. The current field path
// lives in one module-level stack that normalisers push to as they descend; it is only turned into
// text when an error is thrown.

import type { KubeObject } from './types';
import { SnapshotError } from './snapshot-error';

export type RawObject = Record<string, unknown>;

/** Keys that could reach Object.prototype if a copy of the data were ever assigned key by key. */
export function isForbiddenKey(key: string): boolean {
  return key === '__proto__' || key === 'constructor' || key === 'prototype';
}

const pathStack: (string | number)[] = [];

export function resetPath(): void {
  // Empty after every object that did not fail: setting the length is a call even then.
  if (pathStack.length !== 0) pathStack.length = 0;
}

export function enter(segment: string | number): void {
  pathStack.push(segment);
}

export function leave(): void {
  pathStack.pop();
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

// Only runs when an error is reported, so the regex costs nothing on the hot path.
function appendSegment(out: string, segment: string | number): string {
  if (typeof segment === 'number') return `${out}[${segment}]`;
  if (!IDENTIFIER.test(segment)) return `${out}[${JSON.stringify(segment)}]`;
  return out ? `${out}.${segment}` : segment;
}

export function currentPath(last?: string | number): string {
  let out = '';
  for (const segment of pathStack) out = appendSegment(out, segment);
  if (last !== undefined) out = appendSegment(out, last);
  return out;
}

export function fail(last: string | number | undefined, reason: string): never {
  throw new SnapshotError(reason, { path: currentPath(last) });
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

export function wrongType(last: string | number | undefined, expected: string, value: unknown): never {
  if (value === undefined) fail(last, `missing (expected ${expected})`);
  fail(last, `expected ${expected} (got ${describeType(value)})`);
}

export function isRawObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True when `o` is a plain object holding only `declared` keys, none of them null or undefined: then
 * the parsed object already has the minimal typed shape and is reused instead of copied. Copying
 * every object of a 250k-object snapshot costs more in garbage collection than the whole
 * JSON.parse; reuse makes the common already-minimal case allocation-free. Normalisers still write
 * each normalised value back, so a reused object ends up exactly as a copy would. Class instances
 * (client-node models) are never reused.
 */
export function isClean(o: RawObject, declared: ReadonlySet<string>): boolean {
  if (o.constructor !== Object) return false;
  for (const k in o) {
    const v = o[k];
    if (v === null || v === undefined || !declared.has(k)) return false;
  }
  return true;
}

export function fields(...names: string[]): ReadonlySet<string> {
  return new Set(names);
}

/** An element of an array that must be an object; `index` is already on the path stack's caller side. */
export function asObject(value: unknown, last?: string | number): RawObject {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as RawObject;
  return wrongType(last, 'an object', value);
}

// Readers take the value (read by the caller as a plain `o.field`, so every call site keeps its
// own monomorphic property access) and the key (only used to name the field in an error).

export function reqObject(v: unknown, key: string): RawObject {
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as RawObject;
  return wrongType(key, 'an object', v);
}

// Optional fields: absent and null both mean "not set" (Go's nil), anything else must have the type.
export function optObject(v: unknown, key: string): RawObject | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'object' && !Array.isArray(v)) return v as RawObject;
  return wrongType(key, 'an object', v);
}

export function reqString(v: unknown, key: string): string {
  if (typeof v === 'string') return v;
  return wrongType(key, 'a string', v);
}

export function optString(v: unknown, key: string): string | undefined {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return undefined;
  return wrongType(key, 'a string', v);
}

export function optBoolean(v: unknown, key: string): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === undefined || v === null) return undefined;
  return wrongType(key, 'a boolean', v);
}

export function optNumber(v: unknown, key: string): number | undefined {
  if (typeof v === 'number') return v;
  if (v === undefined || v === null) return undefined;
  return wrongType(key, 'a number', v);
}

export function reqNumber(v: unknown, key: string): number {
  if (typeof v === 'number') return v;
  return wrongType(key, 'a number', v);
}

export function optArray(v: unknown, key: string): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (v === undefined || v === null) return undefined;
  return wrongType(key, 'an array', v);
}

export function reqArray(v: unknown, key: string): unknown[] {
  if (Array.isArray(v)) return v;
  return wrongType(key, 'an array', v);
}

// Lists of objects are normalised in place: an element that needed a copy replaces the original, a
// clean one is left alone, so a clean list costs no allocation and no write. `element` runs with the
// index on the path stack, so its errors read `field[i].subfield`. Pass a module-level function,
// never a closure made per call: a snapshot has hundreds of thousands of these lists, and a closure
// per list would be allocated on the load hot path.

function normalizeElements<T>(list: unknown[], key: string, element: (r: RawObject) => T): T[] {
  enter(key);
  const out = list as T[];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    const r = asObject(list[i]);
    const normalised = element(r);
    if (normalised !== r) out[i] = normalised;
    leave();
  }
  leave();
  return out;
}

/** An optional list of objects (absent or null: undefined), each element normalised in place. */
export function optObjectList<T>(v: unknown, key: string, element: (r: RawObject) => T): T[] | undefined {
  const list = optArray(v, key);
  if (list === undefined) return undefined;
  return normalizeElements(list, key, element);
}

/** A required list of objects, each element normalised in place. */
export function reqObjectList<T>(v: unknown, key: string, element: (r: RawObject) => T): T[] {
  return normalizeElements(reqArray(v, key), key, element);
}

/**
 * An optional list of objects normalised into a new array; the parsed list is left as it was as long
 * as `element` builds new objects rather than editing the ones it is given.
 */
export function optObjectListCopy<T>(v: unknown, key: string, element: (r: RawObject) => T): T[] | undefined {
  const list = optArray(v, key);
  if (list === undefined) return undefined;
  return normalizeElements(list.slice(), key, element);
}

/** Validated in place and returned as is: the parsed array is already a fresh, plain array. */
export function optStringArray(v: unknown, key: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) return wrongType(key, 'an array of strings', v);
  for (let i = 0; i < v.length; i++) {
    if (typeof v[i] !== 'string') fail(key, `expected an array of strings (item ${i} is ${describeType(v[i])})`);
  }
  return v as string[];
}

export function reqStringArray(v: unknown, key: string): string[] {
  const out = optStringArray(v, key);
  if (out === undefined) return wrongType(key, 'an array of strings', v);
  return out;
}

/** A string→string map, validated in place and returned as is (no copy on the hot path). */
export function optStringMap(v: unknown, key: string): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) return wrongType(key, 'a map of strings', v);
  const map = v as Record<string, unknown>;
  for (const k in map) {
    if (isForbiddenKey(k)) fail(key, `forbidden key ${JSON.stringify(k)}`);
    const value = map[k];
    if (typeof value !== 'string') {
      enter(key);
      wrongType(k, 'a string', value);
    }
  }
  return map as Record<string, string>;
}

/**
 * A map of quantities. YAML writes `10` for a quantity as a number; the API accepts that, so numbers
 * become their decimal text here instead of being refused.
 */
export function optQuantityMap(v: unknown, key: string): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) return wrongType(key, 'a map of quantities', v);
  const map = v as Record<string, unknown>;
  for (const k in map) {
    if (isForbiddenKey(k)) fail(key, `forbidden key ${JSON.stringify(k)}`);
    const value = map[k];
    if (typeof value === 'string') continue;
    if (typeof value === 'number' && Number.isFinite(value)) {
      map[k] = String(value);
      continue;
    }
    enter(key);
    wrongType(k, 'a quantity string', value);
  }
  return map as Record<string, string>;
}

export function optQuantity(v: unknown, key: string): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (v === undefined || v === null) return undefined;
  return wrongType(key, 'a quantity string', v);
}

export const MAX_CLONE_DEPTH = 64;

/**
 * Deep copy of a free-form JSON value (opaque driver parameters, device status data). Depth is
 * bounded, so the recursion is too; forbidden keys are refused rather than silently dropped so a
 * crafted document is visible.
 */
export function cloneJson(value: unknown, last: string | number, depth = 0): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : fail(last, 'expected a finite number');
  if (depth >= MAX_CLONE_DEPTH) fail(last, `nested deeper than ${MAX_CLONE_DEPTH} levels`);
  if (Array.isArray(value)) {
    enter(last);
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i], i, depth + 1);
    leave();
    return out;
  }
  if (typeof value === 'object') {
    enter(last);
    const out: Record<string, unknown> = {};
    const source = value as Record<string, unknown>;
    for (const k in source) {
      if (isForbiddenKey(k)) fail(k, 'forbidden key');
      const v = source[k];
      if (v !== undefined) out[k] = cloneJson(v, k, depth + 1);
    }
    leave();
    return out;
  }
  return wrongType(last, 'a JSON value', value);
}

/** Copies the keys of `source` not listed in `declared` (free-form parts of low-volume kinds). */
export function copyUndeclared(source: RawObject, declared: ReadonlySet<string>, out: Record<string, unknown>): void {
  for (const k in source) {
    if (declared.has(k)) continue;
    if (isForbiddenKey(k)) fail(k, 'forbidden key');
    const v = source[k];
    if (v !== undefined) out[k] = cloneJson(v, k);
  }
}

/**
 * The object itself is reused when it already names its kind and version (typed-list items may
 * not) and has no undeclared keys.
 */
export function top<T extends KubeObject>(o: RawObject, kind: string, apiVersion: string, declared: ReadonlySet<string>): T {
  const out = (o.kind === kind && o.apiVersion === apiVersion && isClean(o, declared) ? o : {}) as unknown as T;
  out.apiVersion = apiVersion;
  out.kind = kind;
  return out;
}
