import 'server-only';
import type { ClusterConfigOverrides } from '@/lib/authz/cluster-config';
import { FeatureGateSyntaxError, parseFeatureGates } from '@/lib/authz/feature-gates';
import type { AuthorizerName } from '@/lib/authz/types';
import { authorizersFlag } from './authorizers-flag';
import { UsageError } from './usage-error';

// The API server configuration a user states for a cluster whose kube-apiserver pod is not visible
// (managed control planes, snapshots of workloads only), or to ask "what if": the authorizer chain,
// NodeRestriction admission and feature gates, with kube-apiserver's own syntax. Stated values win
// over the visible flags and the version's defaults; the report says where each came from.

export const CLUSTER_CONFIG_OPTIONS = {
  authorizers: { type: 'string' },
  'feature-gates': { type: 'string', multiple: true },
  'node-restriction': { type: 'string' },
} as const;

export interface ClusterConfigFlagValues {
  authorizers?: string;
  'feature-gates'?: string[];
  'node-restriction'?: string;
}

/** Help lines, shared by every command that takes these flags. */
export const CLUSTER_CONFIG_HELP = `API server configuration (default: the flags of a visible kube-system/kube-apiserver-* pod, else as noted):
  --authorizers Node,RBAC  the authorizer chain after system:masters, as --authorization-mode (Node, RBAC,
                           AlwaysAllow, AlwaysDeny); default the pod's, else Node,RBAC
  --node-restriction on|off  whether NodeRestriction admission runs; default the pod's, else on (kubeadm, managed clusters)
  --feature-gates A=true,B=false  as kube-apiserver's flag (repeatable), over the version's defaults
                           (ConstrainedImpersonation, DRAResourceClaimGranularStatusAuthorization, DRAAdminAccess, ...)`;

const GATE_NAME = /^[A-Z][A-Za-z0-9]*$/;

/** The stated configuration (undefined when nothing is stated); the chain also narrows what a question reads. */
export function clusterConfigFlags(values: ClusterConfigFlagValues): { chain?: AuthorizerName[]; overrides?: ClusterConfigOverrides } {
  const overrides: ClusterConfigOverrides = {};
  const chain = authorizersFlag(values.authorizers);
  if (chain) overrides.authorizationModes = chain;
  const nr = values['node-restriction'];
  if (nr !== undefined) {
    if (nr !== 'on' && nr !== 'off') throw new UsageError(`--node-restriction expects on or off (got "${nr}")`);
    overrides.nodeRestriction = nr === 'on';
  }
  const gates = values['feature-gates'];
  if (gates !== undefined) {
    let parsed: Map<string, boolean>;
    try {
      parsed = parseFeatureGates(gates);
    } catch (e) {
      if (e instanceof FeatureGateSyntaxError) throw new UsageError(`--feature-gates: ${e.message}`);
      throw e;
    }
    for (const name of parsed.keys()) if (!GATE_NAME.test(name)) throw new UsageError(`--feature-gates: "${name}" is not a feature gate name`);
    if (parsed.size === 0) throw new UsageError('--feature-gates expects Name=true|false[,Name=true|false...]');
    overrides.featureGates = parsed;
  }
  return Object.keys(overrides).length > 0 ? { ...(chain ? { chain } : {}), overrides } : {};
}
