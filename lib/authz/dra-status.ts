import type { NodeSelector, ResourceClaim } from '@/lib/k8s/types';
import type { AuthzRequest, Decision, UserInfo } from './types';
import { boundNodeName, parseServiceAccountUsername } from './user-info';

export interface ClaimStatusWrite {
  verb: 'update' | 'patch';
  /** status.allocation or status.reservedFor change. */
  changesBinding: boolean;
  /** Drivers whose status.devices entries are added, changed or removed. */
  drivers: string[];
}

export type DriverWriteMode = 'associated-node' | 'arbitrary-node';

export interface ClaimStatusDecision {
  allowed: boolean;
  reason: string;
  checks: { purpose: string; request: AuthzRequest; decision: Decision }[];
  drivers: { driver: string; allowed: boolean; mode?: DriverWriteMode }[];
}

type Authorize = (request: AuthzRequest) => Decision;

/**
 * The node a claim is allocated to, as pkg/registry/resource/utils.go nodeNameFromAllocation: only the
 * strict form (one term, no matchExpressions, one matchFields `metadata.name In [node]`) counts.
 */
export function allocatedNodeName(claim: Pick<ResourceClaim, 'status'>): string | undefined {
  return strictSingleNode(claim.status?.allocation?.nodeSelector);
}

export function strictSingleNode(selector: NodeSelector | undefined): string | undefined {
  const terms = selector?.nodeSelectorTerms;
  if (!terms || terms.length !== 1) return undefined;
  const term = terms[0];
  if (term.matchExpressions && term.matchExpressions.length > 0) return undefined;
  const fields = term.matchFields;
  if (!fields || fields.length !== 1) return undefined;
  const f = fields[0];
  if (f.key !== 'metadata.name' || f.operator !== 'In' || !f.values || f.values.length !== 1) return undefined;
  return f.values[0];
}

/**
 * Whether `user` may make a given write to a claim's status (v1.36 granular status authorization):
 * RBAC on resourceclaims/status, plus resourceclaims/binding at cluster scope when allocation or
 * reservedFor change, plus resourceclaims/driver per changed driver with an associated-node verb
 * (tried first, only for a service account bound to the claim's single allocated node) or an
 * arbitrary-node verb.
 */
export function authorizeClaimStatusWrite(
  authorize: Authorize,
  user: UserInfo,
  claim: Pick<ResourceClaim, 'metadata' | 'status'>,
  write: ClaimStatusWrite,
  options: { granularStatusAuthorization: boolean },
): ClaimStatusDecision {
  const ns = claim.metadata.namespace ?? '';
  const checks: ClaimStatusDecision['checks'] = [];
  const check = (purpose: string, request: AuthzRequest) => {
    const decision = authorize(request);
    checks.push({ purpose, request, decision });
    return decision.allowed;
  };
  const res = (resource: string, subresource: string, verb: string, namespace: string, name: string): AuthzRequest => ({
    user,
    resource: { verb, group: 'resource.k8s.io', resource, subresource, namespace, name },
  });

  const drivers: ClaimStatusDecision['drivers'] = [];
  if (!check('status', res('resourceclaims', 'status', write.verb, ns, claim.metadata.name))) {
    return { allowed: false, reason: `cannot ${write.verb} resourceclaims/status`, checks, drivers };
  }
  if (!options.granularStatusAuthorization)
    return {
      allowed: true,
      reason: 'resourceclaims/status is enough without DRAResourceClaimGranularStatusAuthorization (before 1.36, or the gate off)',
      checks,
      drivers,
    };

  let allowed = true;
  const denials: string[] = [];
  if (write.changesBinding && !check('binding', res('resourceclaims', 'binding', write.verb, '', ''))) {
    allowed = false;
    denials.push(`changing status.allocation or status.reservedFor requires ${write.verb} on resourceclaims/binding at the cluster scope`);
  }
  const node = allocatedNodeName(claim);
  const associated = node !== undefined && parseServiceAccountUsername(user.name) !== undefined && boundNodeName(user) === node;
  for (const driver of [...new Set(write.drivers)].sort()) {
    let mode: DriverWriteMode | undefined;
    if (associated && check(`driver ${driver}`, res('resourceclaims', 'driver', `associated-node:${write.verb}`, ns, driver))) mode = 'associated-node';
    else if (check(`driver ${driver}`, res('resourceclaims', 'driver', `arbitrary-node:${write.verb}`, ns, driver))) mode = 'arbitrary-node';
    drivers.push(mode ? { driver, allowed: true, mode } : { driver, allowed: false });
    if (!mode) {
      allowed = false;
      denials.push(
        `changing status.devices requires ${associated ? `associated-node:${write.verb} or ` : ''}arbitrary-node:${write.verb} on resourceclaims/driver "${driver}"`,
      );
    }
  }
  return { allowed, reason: allowed ? 'allowed' : denials.join('; '), checks, drivers };
}
