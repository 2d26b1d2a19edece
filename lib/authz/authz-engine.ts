import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { ClusterRole, ClusterRoleBinding, ResourceClaim, Role, RoleBinding, SubjectRef } from '@/lib/k8s/types';
import { authorize, type AuthorizerContext } from './authorize';
import { authorizeClaimStatusWrite, type ClaimStatusDecision, type ClaimStatusWrite } from './dra-status';
import { canCreateRbacObject, type EscalationDecision } from './escalation';
import { authzFeaturesOf, deriveClusterConfig, type ClusterConfig, type ClusterConfigOverrides } from './cluster-config';
import type { AuthzFeatures } from './features';
import { decideImpersonation, identityChecksOf, type ImpersonationHeaders, type ImpersonationOutcome } from './impersonation';
import { buildNodeGraph, type NodeGraph } from './node-graph';
import { rulesFor } from './rbac-authorizer';
import { buildRbacIndex, type RbacIndex } from './rbac-index';
import type { AuthorizerName, AuthzRequest, Decision, RbacGrant, UserInfo } from './types';
import { subjectKeysOf } from './user-info';
import { consultedAuthorizers, rbacSubjectKeys, rbacSubjects, whoCan, whoCanNodes, type WhoCanEntry, type WhoCanQuery } from './who-can';

export interface AuthzEngineOptions {
  /** The authorizer chain after system:masters, over the cluster's own (shorthand for overrides.authorizationModes). */
  chain?: readonly AuthorizerName[];
  /** Overrides the features the cluster configuration implies (tests, what-if questions). */
  features?: Partial<AuthzFeatures>;
  /** What the user states about the API server (CLI flags), over its visible flags and version defaults. */
  overrides?: ClusterConfigOverrides;
  /** A configuration already derived (another engine's): used as is, overrides and chain ignored. */
  config?: ClusterConfig;
  /**
   * The engine of an earlier version of the same cluster (a live source): each index whose inputs
   * are the same arrays is kept rather than rebuilt (a pod changing leaves the RBAC index alone, a
   * RoleBinding the node graph).
   */
  previous?: AuthzEngine;
}

const RBAC_INPUTS = ['clusterRoles', 'roles', 'clusterRoleBindings', 'roleBindings'] as const;
const GRAPH_INPUTS = ['pods', 'persistentVolumes', 'resourceSlices'] as const;
const NODE_NAME_INPUTS = ['nodes', 'pods'] as const;

function sameInputs(a: ClusterState | undefined, b: ClusterState, keys: readonly (keyof ClusterState)[]): boolean {
  return !!a && keys.every((k) => a[k] === b[k]);
}

export interface ImpersonatedDecision {
  allowed: boolean;
  reason: string;
  impersonation: ImpersonationOutcome;
  /** The decision for the impersonated identity (absent when impersonation itself was refused). */
  decision?: Decision;
}

export interface AuthzEngine {
  readonly state: ClusterState;
  readonly rbac: RbacIndex;
  readonly nodeGraph: NodeGraph;
  readonly features: AuthzFeatures;
  readonly chain: readonly AuthorizerName[];
  /** The cluster's API server configuration the engine applies (authorizers, NodeRestriction, feature gates). */
  readonly config: ClusterConfig;
  readonly nodeNames: readonly string[];
  authorize(request: AuthzRequest): Decision;
  /** A request sent by `requester` with impersonation headers, decided end to end. */
  authorizeImpersonated(requester: UserInfo, headers: ImpersonationHeaders, target: Pick<AuthzRequest, 'resource' | 'nonResource'>): ImpersonatedDecision;
  /**
   * False when no impersonation mode can let `requester` act as `headers` (for any request): none of
   * the modes' identity checks allows it. True means only that authorizeImpersonated must decide.
   * Answers are kept per impersonated user and per requester object (do not change it after asking).
   */
  mayImpersonate(requester: UserInfo, headers: ImpersonationHeaders): boolean;
  whoCan(query: WhoCanQuery): WhoCanEntry[];
  /** The entries of whoCan(query) the Node authorizer gives (via 'node'), in its order, without grants RBAC adds to them. */
  whoCanNodes(query: WhoCanQuery): WhoCanEntry[];
  /** The subjects of whoCan(query)'s RBAC entries (via 'rbac'), in its order, without their grants. */
  whoCanRbacSubjects(query: WhoCanQuery): SubjectRef[];
  rulesFor(user: UserInfo, namespace: string): RbacGrant[];
  claimStatusWrite(user: UserInfo, claim: Pick<ResourceClaim, 'metadata' | 'status'>, write: ClaimStatusWrite): ClaimStatusDecision;
  canCreate(user: UserInfo, object: Role | ClusterRole | RoleBinding | ClusterRoleBinding): EscalationDecision;
}

/** Builds the indexes once; every question afterwards is answered without rescanning the cluster. */
export function createAuthzEngine(state: ClusterState, options: AuthzEngineOptions = {}): AuthzEngine {
  const previous = options.previous;
  const rbac = previous && sameInputs(previous.state, state, RBAC_INPUTS) ? previous.rbac : buildRbacIndex(state);
  const nodeGraph = previous && sameInputs(previous.state, state, GRAPH_INPUTS) ? previous.nodeGraph : buildNodeGraph(state);
  const config = options.config ?? deriveClusterConfig(state, options.chain ? { ...options.overrides, authorizationModes: options.chain } : options.overrides);
  const features: AuthzFeatures = { ...authzFeaturesOf(config), ...options.features };
  const chain = config.authorizers.chain;
  const ctx: AuthorizerContext = { rbac, nodeGraph, chain, nodeRestriction: config.nodeRestriction.enabled };
  const nodeNames = previous && sameInputs(previous.state, state, NODE_NAME_INPUTS) ? previous.nodeNames : listNodeNames(state);
  const decide = (request: AuthzRequest) => authorize(ctx, request);
  const rbacConsulted = consultedAuthorizers(chain).includes('RBAC');
  // Whom RBAC lets pass any identity check for an impersonated user (subject keys; the checks depend
  // on the user alone), kept per user: an analysis tries every requester against every identity it
  // could act as, and most pairs fail here.
  const identityHolders = new Map<string, Set<string>>();
  const holdersOf = (headers: ImpersonationHeaders) => {
    let set = identityHolders.get(headers.user);
    if (!set) {
      set = new Set();
      for (const check of identityChecksOf(headers)) for (const k of rbacSubjectKeys(rbac, { resource: check })) set.add(k);
      identityHolders.set(headers.user, set);
    }
    return set;
  };

  return {
    state,
    rbac,
    nodeGraph,
    features,
    chain,
    config,
    nodeNames,
    authorize: decide,
    authorizeImpersonated(requester, headers, target) {
      const impersonation = decideImpersonation(decide, requester, headers, target, { constrainedImpersonation: features.constrainedImpersonation });
      if (!impersonation.allowed || !impersonation.impersonated) return { allowed: false, reason: impersonation.reason, impersonation };
      const decision = decide({ user: impersonation.impersonated, ...target });
      return {
        allowed: decision.allowed,
        reason: decision.allowed
          ? `${impersonation.reason}; ${decision.reason}`
          : `${impersonation.reason}, but the impersonated identity is denied: ${decision.reason}`,
        impersonation,
        decision,
      };
    },
    mayImpersonate(requester, headers) {
      // Only RBAC grants impersonation: system:masters, a node identity (left to the full decision) and
      // a chain with AlwaysAllow are not filtered.
      if (requester.groups.includes('system:masters') || requester.name.startsWith('system:node:') || !chain.includes('RBAC') || chain.includes('AlwaysAllow'))
        return true;
      const holders = holdersOf(headers);
      return subjectKeysOf(requester).some((k) => holders.has(k));
    },
    whoCan: (query) => whoCan(ctx, nodeNames, query),
    whoCanNodes: (query) => whoCanNodes(ctx, nodeNames, query),
    // RBAC answers only when the chain consults it (an AlwaysAllow or AlwaysDeny before it ends the chain).
    whoCanRbacSubjects: (query) => (rbacConsulted ? rbacSubjects(rbac, query) : []),
    rulesFor: (user, namespace) => rulesFor(rbac, user, namespace),
    claimStatusWrite: (user, claim, write) =>
      authorizeClaimStatusWrite(decide, user, claim, write, { granularStatusAuthorization: features.granularStatusAuthorization }),
    canCreate: (user, object) => canCreateRbacObject(decide, rbac, user, object),
  };
}

function listNodeNames(state: Pick<ClusterState, 'nodes' | 'pods'>): readonly string[] {
  const names = new Set<string>();
  for (const n of state.nodes) names.add(n.metadata.name);
  for (const p of state.pods) if (p.spec?.nodeName) names.add(p.spec.nodeName);
  return [...names].sort();
}
