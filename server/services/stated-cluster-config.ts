import 'server-only';
import { parseAuthorizerChain } from '@/lib/authz/authorize';
import type { ClusterConfigOverrides } from '@/lib/authz/cluster-config';

// What `dra-posture serve --authorizers/--node-restriction/--feature-gates` stated about the API
// server, handed to the dashboard's process as one JSON environment variable (serve checked it).

export const CLUSTER_CONFIG_ENV = 'DRA_POSTURE_CLUSTER_CONFIG';

interface StatedJson {
  authorizers?: string;
  nodeRestriction?: boolean;
  featureGates?: Record<string, boolean>;
}

export function encodeStatedConfig(overrides: ClusterConfigOverrides): string {
  const out: StatedJson = {};
  if (overrides.authorizationModes) out.authorizers = overrides.authorizationModes.join(',');
  if (overrides.nodeRestriction !== undefined) out.nodeRestriction = overrides.nodeRestriction;
  if (overrides.featureGates) out.featureGates = Object.fromEntries(overrides.featureGates);
  return JSON.stringify(out);
}

/** The stated configuration, or undefined when nothing is stated. */
export function statedClusterConfig(text = process.env[CLUSTER_CONFIG_ENV]): ClusterConfigOverrides | undefined {
  if (!text) return undefined;
  const json = JSON.parse(text) as StatedJson;
  const out: ClusterConfigOverrides = {};
  if (json.authorizers) out.authorizationModes = parseAuthorizerChain(json.authorizers);
  if (typeof json.nodeRestriction === 'boolean') out.nodeRestriction = json.nodeRestriction;
  if (json.featureGates) out.featureGates = new Map(Object.entries(json.featureGates).filter(([, v]) => typeof v === 'boolean'));
  return out;
}

/** Report options carrying the stated configuration (none when nothing is stated). */
export function statedReportOptions(): { clusterConfig?: ClusterConfigOverrides } {
  const stated = statedClusterConfig();
  return stated ? { clusterConfig: stated } : {};
}
