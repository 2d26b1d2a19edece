import type { ClaimStatusWrite } from './dra-status';
import { semanticEqual } from './semantic-equal';

// What an update of resourceclaims/status changes, as pkg/registry/resource/utils.go reads it:
// allocation or reservedFor (the binding check), and per driver the status.devices entries added,
// removed or changed, keyed by driver, pool, device and shareID.

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const statusOf = (claim: unknown) => rec(rec(claim).status);
const devicesOf = (claim: unknown) => (Array.isArray(statusOf(claim).devices) ? (statusOf(claim).devices as Obj[]) : []);
const deviceKey = (d: Obj) => [d.driver, d.pool, d.device, d.shareID ?? ''].map((v) => String(v ?? '')).join('\u0000');

export function claimStatusChange(oldClaim: unknown, newClaim: unknown, verb: 'update' | 'patch'): ClaimStatusWrite {
  const before = statusOf(oldClaim);
  const after = statusOf(newClaim);
  const changesBinding = !semanticEqual(before.allocation, after.allocation) || !semanticEqual(before.reservedFor, after.reservedFor);
  const old = new Map(devicesOf(oldClaim).map((d) => [deviceKey(d), d]));
  const drivers = new Set<string>();
  for (const d of devicesOf(newClaim)) {
    const key = deviceKey(d);
    const was = old.get(key);
    old.delete(key);
    if (!was || !semanticEqual(was, d)) drivers.add(String(d.driver ?? ''));
  }
  for (const d of old.values()) drivers.add(String(d.driver ?? ''));
  return { verb, changesBinding, drivers: [...drivers].sort() };
}

/** Whether the new allocation asks for admin access to a device the old one did not (namespace label check). */
export function requestsNewAdminAccess(oldClaim: unknown, newClaim: unknown): boolean {
  const admin = (claim: unknown) => {
    const results = rec(rec(statusOf(claim).allocation).devices).results;
    return Array.isArray(results) && (results as Obj[]).some((r) => r.adminAccess === true);
  };
  return !admin(oldClaim) && admin(newClaim);
}
