import { userForSubject } from '@/lib/analysis/node-writers/subjects';
import { createAuthzEngine, type AuthzEngine } from '@/lib/authz/authz-engine';
import { simulateWrite } from '@/lib/authz/simulate-write';
import type { UserInfo } from '@/lib/authz/types';
import { writeFromManifest } from '@/lib/authz/write-request';
import { compareSubjects, describeRef, refKey } from '@/lib/k8s/refs';
import type { ClusterRole, Role, SubjectRef } from '@/lib/k8s/types';
import type { BundleObject } from './types';

// Who can apply an approved bundle (issue 16): each object created as that identity, through the
// same chain as `dra-posture simulate`. "Without escalate or bind" means every object is still
// accepted when escalate and bind are not counted: the identity holds what it grants (or is system:masters).

export interface ApplyCheck {
  allowed: boolean;
  withoutEscalation: boolean;
  objects: { object: string; allowed: boolean; path?: string; reason: string }[];
}

/** The applier subjects listed at most (the count says how many there are). */
export const APPLIERS_SHOWN = 25;

/** The same engine with escalate and bind never granted: what an identity can do by holding the rules alone. */
function withoutEscalateOrBind(engine: AuthzEngine): AuthzEngine {
  const notCounted = { allowed: false, reason: 'escalate and bind are not counted here' };
  return { ...engine, authorize: (r) => (r.resource && (r.resource.verb === 'escalate' || r.resource.verb === 'bind') ? notCounted : engine.authorize(r)) };
}

/**
 * The cluster as the applier meets it: the bundle's Roles and ClusterRoles exist when its bindings
 * are created (they come first in the bundle), so a binding's escalation check can read their rules.
 * Only the RBAC index is built again; the Node-authorizer graph and node names are the cluster's.
 */
export function engineForApplying(engine: AuthzEngine, objects: readonly BundleObject[]): AuthzEngine {
  const roles = objects.filter((o) => o.object.kind === 'Role').map((o) => o.object as unknown as Role);
  const clusterRoles = objects.filter((o) => o.object.kind === 'ClusterRole').map((o) => o.object as unknown as ClusterRole);
  const state = { ...engine.state, roles: [...engine.state.roles, ...roles], clusterRoles: [...engine.state.clusterRoles, ...clusterRoles] };
  return createAuthzEngine(state, { config: engine.config, features: engine.features, previous: engine });
}

export function canApplyBundle(
  engine: AuthzEngine,
  user: UserInfo,
  objects: readonly BundleObject[],
  prepared = engineForApplying(engine, objects),
): ApplyCheck {
  const out: ApplyCheck['objects'] = [];
  const plain = withoutEscalateOrBind(prepared);
  engine = prepared;
  let holdsEverything = true;
  for (const { object } of objects) {
    const name = describeRef({ kind: object.kind, name: object.metadata.name, namespace: object.metadata.namespace });
    const write = writeFromManifest(object, { user, where: name });
    if (!simulateWrite(plain, write).allowed) holdsEverything = false;
    const sim = simulateWrite(engine, write);
    const last = sim.steps.at(-1)!;
    const refused = sim.steps.find((s) => !s.allowed);
    out.push({
      object: name,
      allowed: sim.allowed,
      ...(last.path ? { path: last.path } : {}),
      reason: refused ? `${refused.step}: ${refused.reason}` : last.reason,
    });
  }
  const allowed = out.every((o) => o.allowed);
  return { allowed, withoutEscalation: allowed && holdsEverything, objects: out };
}

/** Subjects of the cluster that could create every object of the bundle (candidates: who may create each kind). */
export function whoCanApply(
  engine: AuthzEngine,
  objects: readonly BundleObject[],
  prepared = engineForApplying(engine, objects),
): { total: number; appliers: { subject: SubjectRef; withoutEscalation: boolean }[] } {
  let candidates: Map<string, SubjectRef> | undefined;
  for (const { object } of objects) {
    const probe = writeFromManifest(object, { user: { name: 'probe', groups: [] }, where: object.kind });
    const here = new Map(engine.whoCan({ resource: probe.attributes }).map((e) => [refKey(e.subject), e.subject]));
    candidates = candidates ? new Map([...candidates].filter(([k]) => here.has(k))) : here;
  }
  const appliers: { subject: SubjectRef; withoutEscalation: boolean }[] = [];
  for (const subject of [...(candidates?.values() ?? [])].sort(compareSubjects)) {
    const check = canApplyBundle(engine, userForSubject(subject), objects, prepared);
    if (check.allowed) appliers.push({ subject, withoutEscalation: check.withoutEscalation });
  }
  return { total: appliers.length, appliers: appliers.slice(0, APPLIERS_SHOWN) };
}
