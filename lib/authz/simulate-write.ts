import type { ClusterRole, ClusterRoleBinding, ResourceClaim, Role, RoleBinding } from '@/lib/k8s/types';
import { clusterPolicies } from '@/lib/admission/cluster-policies';
import type { AdmissionRequest, PolicyBindingRef } from '@/lib/admission/types';
import { KINDS, parseApiVersion } from '@/lib/k8s/kinds';
import { claimSpecRequestsAdminAccess, normalizeResourceClaim, normalizeResourceClaimTemplate } from '@/lib/k8s/normalize-dra';
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
// cluster runs it), the checks the storage layer makes on the request body (RBAC escalation
// prevention, the DRA claim status field checks), then the cluster's ValidatingAdmissionPolicies
// (lib/admission; shown when a bound policy applies to the request). The first step that refuses
// decides, and says why; a policy outcome the evaluator cannot decide leaves the write undecided.

export type SimulationStep =
  | 'impersonation'
  | 'authorization'
  | 'admission:node-restriction'
  | 'admission:rbac-escalation'
  | 'admission:dra-admin-access'
  | 'admission:dra-status'
  | 'admission:validating-policy';

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
  /** The step could not be decided (a policy expression the evaluator cannot evaluate): neither accepted nor refused. */
  unknown?: true;
  /** Admission policies: the policy and binding that refused (or could not be decided). */
  policy?: PolicyBindingRef;
}

export interface SimulationResult {
  /** Accepted by every step (false when a step refused, or could not be decided). */
  allowed: boolean;
  /** The step that refused. */
  refusedBy?: SimulationStep;
  /** The step that could not be decided, when none refused. */
  undecidedBy?: SimulationStep;
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
    const undecided = refused ? undefined : steps.find((s) => s.unknown);
    return { allowed: !refused && !undecided, refusedBy: refused?.step, ...(undecided ? { undecidedBy: undecided.step } : {}), decidedAs, steps };
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

  const adminAccess = adminAccessStep(engine, sim);
  if (adminAccess) {
    steps.push(adminAccess);
    if (!adminAccess.allowed) return done(user);
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
    if (!e.allowed) return done(user);
    return admitByPolicies(engine, sim, user, steps, done);
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
    if (!allowed) return done(user);
  }
  return admitByPolicies(engine, sim, user, steps, done);
}

/**
 * The storage layer's check on a claim or template create that asks for adminAccess (AuthorizedForAdmin,
 * pkg/registry/resource/utils.go): its namespace must carry resource.kubernetes.io/admin-access=true.
 * Undefined when the write is not such a create.
 */
function adminAccessStep(engine: AuthzEngine, sim: WriteSimulation): StepOutcome | undefined {
  const a = sim.attributes;
  if (a.verb !== 'create' || a.group !== 'resource.k8s.io' || a.subresource !== '') return undefined;
  if (a.resource !== 'resourceclaims' && a.resource !== 'resourceclaimtemplates') return undefined;
  if (!sim.object || typeof sim.object !== 'object') return undefined;
  // Normalised to v1 (a v1beta1 request carries adminAccess flat, v1beta2 and v1 under exactly).
  let spec: ResourceClaim['spec'] | undefined;
  try {
    // A copy: the normalisers may reuse the object they are given.
    const raw = structuredClone(sim.object) as Record<string, unknown>;
    spec = a.resource === 'resourceclaims' ? normalizeResourceClaim(raw).spec : normalizeResourceClaimTemplate(raw).spec?.spec;
  } catch {
    return undefined; // not a claim the server would take in the first place; its validation refuses it
  }
  if (!claimSpecRequestsAdminAccess(spec)) return undefined;
  const ns = engine.state.namespaces.find((n) => n.metadata.name === a.namespace);
  const allowed = ns?.metadata.labels?.[ADMIN_ACCESS_LABEL] === 'true';
  return {
    step: 'admission:dra-admin-access',
    allowed,
    reason: allowed
      ? `requests adminAccess, and namespace ${a.namespace} carries ${ADMIN_ACCESS_LABEL}: "true"`
      : `admin access to devices requires the \`${ADMIN_ACCESS_LABEL}: true\` label on the containing namespace`,
  };
}

const OPERATIONS: Readonly<Record<string, AdmissionRequest['operation']>> = { create: 'CREATE', update: 'UPDATE', patch: 'UPDATE', delete: 'DELETE' };

/** The write as the admission request a ValidatingAdmissionPolicy sees. */
export function admissionRequestOf(sim: WriteSimulation, user: UserInfo): AdmissionRequest | undefined {
  const a = sim.attributes;
  const operation = OPERATIONS[a.verb];
  const descriptor = KINDS.find((k) => k.group === a.group && k.resource === a.resource);
  if (!operation || !descriptor) return undefined;
  const body = (sim.object ?? sim.oldObject) as { apiVersion?: unknown; metadata?: { name?: unknown } } | undefined;
  const apiVersion = typeof body?.apiVersion === 'string' ? parseApiVersion(body.apiVersion) : undefined;
  const name = a.name || (typeof body?.metadata?.name === 'string' ? body.metadata.name : '');
  return {
    operation,
    group: a.group,
    version: apiVersion && apiVersion.group === a.group ? apiVersion.version : descriptor.versions[0],
    resource: a.resource,
    subresource: a.subresource,
    kind: descriptor.kind,
    namespace: a.namespace,
    name,
    object: operation === 'DELETE' ? null : (sim.object ?? null),
    oldObject: operation === 'CREATE' ? null : (sim.oldObject ?? null),
    userInfo: { username: user.name, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups, ...(user.extra ? { extra: user.extra } : {}) },
  };
}

/** The ValidatingAdmissionPolicy step, added when a bound policy applies to the write. */
function admitByPolicies(
  engine: AuthzEngine,
  sim: WriteSimulation,
  user: UserInfo,
  steps: StepOutcome[],
  done: (u: UserInfo) => SimulationResult,
): SimulationResult {
  const request = admissionRequestOf(sim, user);
  if (!request) return done(user);
  const evaluator = clusterPolicies(engine.state);
  if (evaluator.decisions(request).length === 0) return done(user);
  const out = evaluator.admit(request);
  const describe = (ref: PolicyBindingRef) =>
    `ValidatingAdmissionPolicy ${ref.policy.name} (binding ${ref.binding.name}${ref.param ? `, params ${ref.param.name}` : ''})`;
  if (out.outcome === 'deny') steps.push({ step: 'admission:validating-policy', allowed: false, reason: out.message, policy: out.by });
  else if (out.outcome === 'unknown')
    steps.push({
      step: 'admission:validating-policy',
      allowed: true,
      unknown: true,
      reason: `${describe(out.by)} could not be evaluated: ${out.reason}`,
      policy: out.by,
    });
  else {
    const names = [...new Set(out.checked.map((r) => r.policy.name))];
    steps.push({
      step: 'admission:validating-policy',
      allowed: true,
      reason: `admitted by ${names.length === 1 ? 'ValidatingAdmissionPolicy' : 'ValidatingAdmissionPolicies'} ${names.join(', ')}${out.warnings.length ? ` (warnings: ${out.warnings.join('; ')})` : ''}`,
    });
  }
  return done(user);
}
