import type { ClusterRole, ClusterRoleBinding, ResourceClaim, Role, RoleBinding } from '@/lib/k8s/types';
import { KINDS } from '@/lib/k8s/kinds';
import type { AuthzEngine } from './authz-engine';
import { claimStatusChange, requestsNewAdminAccess } from './claim-status-change';
import { checkRbacEscalation } from './escalation';
import type { ImpersonationHeaders } from './impersonation';
import { admitNodeRestriction, type NodeRestrictionLookups } from './node-restriction';
import type { AuthzRequest, ResourceAttributes, UserInfo } from './types';
import { describeSource } from './cluster-config';
import { nodeIdentity } from './user-info';

// "Would this write be accepted?": the whole chain a write goes through in kube-apiserver, in its
// order: impersonation, authorization, admission (NodeRestriction for node identities, when the
// cluster runs it), then the checks the storage layer makes on the request body (RBAC escalation
// prevention, the DRA claim status field checks). The first step that refuses decides, and says why.

export type SimulationStep = 'impersonation' | 'authorization' | 'admission:node-restriction' | 'admission:rbac-escalation' | 'admission:dra-status';

export interface WriteSimulation {
  /** Who sends the request. */
  user: UserInfo;
  impersonate?: ImpersonationHeaders;
  /** verb: create, update, patch or delete; name: the object's (empty on create). */
  attributes: ResourceAttributes;
  /** The object sent (create, update, patch: the object after the patch). */
  object?: unknown;
  /** The stored object (update, patch, delete). */
  oldObject?: unknown;
}

export interface StepOutcome {
  step: SimulationStep;
  allowed: boolean;
  reason: string;
  /** RBAC escalation: the rules the requester would grant without holding them. */
  uncovered?: unknown[];
  /** RBAC escalation: what let it through (system:masters, escalate, bind, or holding every rule). */
  path?: 'system:masters' | 'escalate' | 'bind' | 'covers';
}

export interface SimulationResult {
  allowed: boolean;
  /** The step that refused. */
  refusedBy?: SimulationStep;
  /** The identity the request is decided as (the impersonated one, when headers are sent). */
  decidedAs: UserInfo;
  steps: StepOutcome[];
}

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const ADMIN_ACCESS_LABEL = 'resource.kubernetes.io/admin-access';

function lookupsOf(engine: AuthzEngine): NodeRestrictionLookups {
  let pods: Map<string, { uid?: string; nodeName?: string }> | undefined;
  return {
    pod(namespace, name) {
      pods ??= new Map(engine.state.pods.map((p) => [`${p.metadata.namespace ?? ''}/${p.metadata.name}`, { uid: p.metadata.uid, nodeName: p.spec?.nodeName }]));
      return pods.get(`${namespace}/${name}`);
    },
    nodeUid: (name) => engine.state.nodes.find((n) => n.metadata.name === name)?.metadata.uid,
  };
}

export function simulateWrite(engine: AuthzEngine, sim: WriteSimulation): SimulationResult {
  const steps: StepOutcome[] = [];
  const done = (decidedAs: UserInfo): SimulationResult => {
    const refused = steps.find((s) => !s.allowed);
    return { allowed: !refused, refusedBy: refused?.step, decidedAs, steps };
  };
  const target: Pick<AuthzRequest, 'resource'> = { resource: sim.attributes };

  let user = sim.user;
  if (sim.impersonate) {
    const r = engine.authorizeImpersonated(sim.user, sim.impersonate, target);
    const impersonated = r.impersonation.impersonated;
    steps.push({ step: 'impersonation', allowed: r.impersonation.allowed && !!impersonated, reason: r.impersonation.reason });
    if (!r.impersonation.allowed || !impersonated) return done(sim.user);
    user = impersonated;
  }

  const decision = engine.authorize({ user, ...target });
  steps.push({ step: 'authorization', allowed: decision.allowed, reason: decision.reason });
  if (!decision.allowed) return done(user);

  const a = sim.attributes;
  if (!engine.config.nodeRestriction.enabled) {
    // The admission plugin is not running: a node identity's writes are not limited to its own objects.
    if (nodeIdentity(user))
      steps.push({
        step: 'admission:node-restriction',
        allowed: true,
        reason: `NodeRestriction admission is off on this cluster (${describeSource(engine.config, engine.config.nodeRestriction.source)}): not checked`,
      });
  } else {
    const nr = admitNodeRestriction(user, { attributes: a, object: sim.object, oldObject: sim.oldObject }, lookupsOf(engine));
    if (nr.reason !== 'NodeRestriction applies only to node identities') steps.push({ step: 'admission:node-restriction', ...nr });
    if (!nr.allowed) return done(user);
  }

  const verb = a.verb === 'create' ? 'create' : a.verb === 'update' || a.verb === 'patch' ? 'update' : undefined;
  const rbacKind = a.group === RBAC_GROUP && a.subresource === '' ? KINDS.find((k) => k.group === RBAC_GROUP && k.resource === a.resource)?.kind : undefined;
  if (rbacKind && verb && sim.object) {
    const object = { ...(sim.object as Role | ClusterRole | RoleBinding | ClusterRoleBinding), kind: rbacKind } as Role;
    const e = checkRbacEscalation(engine.authorize, engine.rbac, user, object, { verb, oldObject: sim.oldObject as Role | undefined });
    steps.push({
      step: 'admission:rbac-escalation',
      allowed: e.allowed,
      reason: e.reason,
      ...(e.path ? { path: e.path } : {}),
      ...(e.uncovered?.length ? { uncovered: e.uncovered } : {}),
    });
    return done(user);
  }

  if (a.group === 'resource.k8s.io' && a.resource === 'resourceclaims' && a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) {
    const next = (sim.object ?? sim.oldObject) as ResourceClaim | undefined;
    if (!next) return done(user);
    const write = claimStatusChange(sim.oldObject, next, a.verb);
    const claim = {
      metadata: { ...next.metadata, namespace: next.metadata?.namespace ?? a.namespace, name: next.metadata?.name ?? a.name },
      status: next.status,
    };
    const d = engine.claimStatusWrite(user, claim, write);
    const reasons = [d.reason];
    let allowed = d.allowed;
    if (requestsNewAdminAccess(sim.oldObject, next)) {
      const ns = engine.state.namespaces.find((n) => n.metadata.name === claim.metadata.namespace);
      if (ns?.metadata.labels?.[ADMIN_ACCESS_LABEL] !== 'true') {
        allowed = false;
        reasons.push(`admin access to devices requires the \`${ADMIN_ACCESS_LABEL}: true\` label on the containing namespace`);
      }
    }
    const changed = [
      write.changesBinding ? 'status.allocation or status.reservedFor' : '',
      write.drivers.length ? `status.devices of ${write.drivers.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    steps.push({
      step: 'admission:dra-status',
      allowed,
      reason: `${changed ? `changes ${changed}` : 'changes no field the DRA checks guard'}: ${reasons.filter((r) => r && r !== 'allowed').join('; ') || 'allowed'}`,
    });
  }
  return done(user);
}
