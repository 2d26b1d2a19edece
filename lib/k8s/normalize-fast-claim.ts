// Fast path for ResourceClaims (normalize-fast-common.ts says what it answers): a v1 claim of the
// usual shape, requests with `exactly`, allocated results and node selector, reservations. Older
// versions (rewritten to v1), firstAvailable, tolerations, capacity, constraints, config (deep
// copied) and device statuses answer false and take the plain normaliser (normalize-dra.ts).

import { DRA_API_VERSION } from './normalize-dra';
import { isNormalNodeSelector, isNormalTopLevel, isPlain } from './normalize-fast-common';
import type { RawObject } from './normalize-helpers';

function isNormalSelector(s: unknown): boolean {
  if (!isPlain(s)) return false;
  for (const k in s) {
    if (k !== 'cel') return false;
    const cel = s.cel;
    if (!isPlain(cel) || typeof cel.expression !== 'string') return false;
    for (const c in cel) if (c !== 'expression') return false;
  }
  return true;
}

function isNormalExact(e: unknown): boolean {
  if (!isPlain(e) || typeof e.deviceClassName !== 'string') return false;
  for (const k in e) {
    const v = e[k];
    switch (k) {
      case 'deviceClassName':
        break;
      case 'allocationMode':
        if (typeof v !== 'string') return false;
        break;
      case 'count':
        if (typeof v !== 'number') return false;
        break;
      case 'adminAccess':
        if (typeof v !== 'boolean') return false;
        break;
      case 'selectors':
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!isNormalSelector(v[i])) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function isNormalSpec(s: unknown): boolean {
  if (!isPlain(s)) return false;
  for (const k in s) {
    if (k !== 'devices') return false;
    const devices = s.devices;
    if (!isPlain(devices)) return false;
    for (const d in devices) {
      if (d !== 'requests') return false;
      const requests = devices.requests;
      if (!Array.isArray(requests)) return false;
      for (let i = 0; i < requests.length; i++) {
        const r = requests[i];
        // A request without `exactly` may be a flat v1beta1 one, which is rewritten.
        if (!isPlain(r) || typeof r.name !== 'string' || !isNormalExact(r.exactly)) return false;
        for (const f in r) if (f !== 'name' && f !== 'exactly') return false;
      }
    }
  }
  return true;
}

function isNormalResult(r: unknown): boolean {
  if (!isPlain(r)) return false;
  if (typeof r.request !== 'string' || typeof r.driver !== 'string' || typeof r.pool !== 'string' || typeof r.device !== 'string') return false;
  for (const k in r) {
    switch (k) {
      case 'request':
      case 'driver':
      case 'pool':
      case 'device':
        break;
      case 'adminAccess':
        if (typeof r.adminAccess !== 'boolean') return false;
        break;
      case 'shareID':
        if (typeof r.shareID !== 'string') return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function isNormalAllocation(a: unknown): boolean {
  if (!isPlain(a)) return false;
  for (const k in a) {
    const v = a[k];
    switch (k) {
      case 'devices':
        if (!isPlain(v)) return false;
        for (const d in v) {
          const results = v.results;
          if (d !== 'results' || !Array.isArray(results)) return false;
          for (let i = 0; i < results.length; i++) if (!isNormalResult(results[i])) return false;
        }
        break;
      case 'nodeSelector':
        if (!isNormalNodeSelector(v)) return false;
        break;
      case 'allocationTimestamp':
        if (typeof v !== 'string') return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function isNormalReservedFor(r: unknown): boolean {
  if (!isPlain(r) || typeof r.resource !== 'string' || typeof r.name !== 'string' || typeof r.uid !== 'string') return false;
  for (const k in r) {
    switch (k) {
      case 'resource':
      case 'name':
      case 'uid':
        break;
      case 'apiGroup':
        if (typeof r.apiGroup !== 'string') return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function isNormalStatus(s: unknown): boolean {
  if (!isPlain(s)) return false;
  for (const k in s) {
    const v = s[k];
    switch (k) {
      case 'allocation':
        if (!isNormalAllocation(v)) return false;
        break;
      case 'reservedFor':
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!isNormalReservedFor(v[i])) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** True when normalizeObject(o, 'ResourceClaim', …) would return `o` itself, unchanged. */
export function isNormalResourceClaim(o: RawObject): boolean {
  return isNormalTopLevel(o, 'ResourceClaim', DRA_API_VERSION, isNormalSpec, isNormalStatus);
}
