// Fast path of the normalisers for the bulk kinds (pods, claims): a predicate that is true only when
// the plain normaliser would hand the parsed object back unchanged: every part a plain object that
// holds only declared keys, none null, every value of its type, nothing to drop or convert. The
// load then keeps the object as it is without walking it a second time. It is one pass per object,
// with no path stack, no write-backs and no allocation: the plain normaliser costs about twice as
// much on an already minimal snapshot (this project's exports, the bench clusters).
//
// Anything it does not know, or that the plain normaliser would change or refuse, answers false,
// and the plain normaliser runs as before (so error messages and paths never come from here). Being
// too strict only costs time; being too lenient would change the state, which
// normalize-fast.test.ts checks against the plain normaliser on random objects.
//
// Required fields are read by name before the loop; the loop checks the optional ones and refuses
// any other key.

import { LAST_APPLIED_ANNOTATION } from './normalize-common';
import { isForbiddenKey, type RawObject } from './normalize-helpers';

/** A plain parsed object, as isClean asks (arrays, class instances and a `constructor` key fail). */
export function isPlain(v: unknown): v is RawObject {
  return typeof v === 'object' && v !== null && (v as RawObject).constructor === Object;
}

export function isStringArray(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
  return true;
}

/** What optStringMap accepts as is (stricter: a plain object only). */
export function isStringMap(v: unknown): boolean {
  if (!isPlain(v)) return false;
  for (const k in v) {
    if (typeof v[k] !== 'string' || isForbiddenKey(k)) return false;
  }
  return true;
}

function isNormalOwnerReference(r: unknown): boolean {
  if (!isPlain(r) || typeof r.kind !== 'string' || typeof r.name !== 'string') return false;
  for (const k in r) {
    const v = r[k];
    switch (k) {
      case 'kind':
      case 'name':
        break;
      case 'apiVersion':
      case 'uid':
        if (typeof v !== 'string') return false;
        break;
      case 'controller':
        if (typeof v !== 'boolean') return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** A top-level object's metadata (name required) that normalizeMeta returns unchanged. */
export function isNormalMeta(m: unknown): boolean {
  if (!isPlain(m) || typeof m.name !== 'string') return false;
  for (const k in m) {
    const v = m[k];
    switch (k) {
      case 'name':
        break;
      case 'namespace':
      case 'uid':
      case 'generateName':
      case 'creationTimestamp':
      case 'resourceVersion':
        if (typeof v !== 'string') return false;
        break;
      case 'labels':
        if (!isStringMap(v)) return false;
        break;
      case 'annotations':
        // The last-applied annotation is dropped, which is a change.
        if (!isStringMap(v) || Object.hasOwn(v as object, LAST_APPLIED_ANNOTATION)) return false;
        break;
      case 'ownerReferences':
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!isNormalOwnerReference(v[i])) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function isNormalRequirement(e: unknown): boolean {
  if (!isPlain(e) || typeof e.key !== 'string' || typeof e.operator !== 'string') return false;
  for (const k in e) {
    switch (k) {
      case 'key':
      case 'operator':
        break;
      case 'values':
        if (!isStringArray(e.values)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function isNormalRequirements(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!isNormalRequirement(v[i])) return false;
  return true;
}

/** A node selector (`nodeSelectorTerms` required) that normalizeNodeSelector returns unchanged. */
export function isNormalNodeSelector(s: unknown): boolean {
  if (!isPlain(s)) return false;
  const terms = s.nodeSelectorTerms;
  if (!Array.isArray(terms)) return false;
  for (const k in s) if (k !== 'nodeSelectorTerms') return false;
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i];
    if (!isPlain(t)) return false;
    for (const k in t) {
      if ((k !== 'matchExpressions' && k !== 'matchFields') || !isNormalRequirements(t[k])) return false;
    }
  }
  return true;
}

/**
 * The top level of a bulk object: its kind and apiVersion, normal metadata and spec, an optional
 * status its kind's test accepts, and no other key.
 */
export function isNormalTopLevel(
  o: RawObject,
  kind: string,
  apiVersion: string,
  isNormalSpec: (spec: unknown) => boolean,
  isNormalStatus: (status: unknown) => boolean,
): boolean {
  if (o.constructor !== Object || o.kind !== kind || o.apiVersion !== apiVersion) return false;
  if (!isNormalMeta(o.metadata) || !isNormalSpec(o.spec)) return false;
  for (const k in o) {
    switch (k) {
      case 'apiVersion':
      case 'kind':
      case 'metadata':
      case 'spec':
        break;
      case 'status':
        if (!isNormalStatus(o.status)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
