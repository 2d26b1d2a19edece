import { describeSource } from '@/lib/authz/cluster-config';
import type { ReportClusterConfig } from '@/lib/analysis/types';

// The API server configuration the analysis applied, as the UI says it: what limits a kubelet, and
// one line per setting with where it came from. A report without it (a bundle made before it
// existed) keeps the engine's old wording: NodeRestriction on.

/** The legend's text for the Node authorizer mode. */
export function nodeAuthorizerHelp(config: ReportClusterConfig | undefined): string {
  if (!config) return 'The kubelet identity system:node:<name>, limited to its own Node by NodeRestriction.';
  const from = describeSource(config, config.nodeRestriction.source);
  return config.nodeRestriction.enabled
    ? `The kubelet identity system:node:<name>, limited to its own Node by NodeRestriction (${from}).`
    : `Every kubelet identity system:node:<name> (group system:nodes): NodeRestriction is off (${from}), so each kubelet can write the status of every node.`;
}

/** The legend's text for constrained impersonation: what an impersonated node identity may write follows NodeRestriction. */
export function constrainedImpersonationHelp(config: ReportClusterConfig | undefined): string {
  if (!config || config.nodeRestriction.enabled) return 'impersonate:associated-node: only the node its pods run on.';
  return 'impersonate:associated-node or arbitrary-node: it acts as a node, and with NodeRestriction off a node identity writes the status of every node.';
}

export interface ConfigLine {
  label: string;
  value: string;
  source: string;
}

/** Authorizers, NodeRestriction and the feature gates, one line each. */
export function clusterConfigLines(config: ReportClusterConfig | undefined): ConfigLine[] {
  if (!config) return [];
  const a = config.authorizers;
  const lines: ConfigLine[] = [
    {
      label: 'Authorizers',
      value: a.modes ? `system:masters, ${a.modes.join(', ')}` : `not visible (--authorization-config); ${a.chain.join(', ')} assumed`,
      source: a.modes ? describeSource(config, a.source) : 'assumed',
    },
    {
      label: 'NodeRestriction admission',
      value: config.nodeRestriction.enabled ? 'on' : 'off',
      source: describeSource(config, config.nodeRestriction.source),
    },
  ];
  for (const [gate, setting] of Object.entries(config.featureGates))
    lines.push({ label: gate, value: setting.enabled ? 'on' : 'off', source: describeSource(config, setting.source) });
  return lines;
}
