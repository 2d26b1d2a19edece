import type { ClusterState } from '@/lib/k8s/cluster-state';
import { flagList, visibleApiServers, type VisibleApiServer } from '@/lib/k8s/api-server-flags';
import { DEFAULT_CHAIN } from './authorize';
import {
  ASSUMED_VERSION,
  FeatureGateSyntaxError,
  gateSpecAt,
  isModelledGate,
  MODELLED_GATES,
  parseFeatureGates,
  parseKubernetesVersion,
  type ModelledGate,
} from './feature-gates';
import type { AuthzFeatures } from './features';
import type { AuthorizerName } from './types';

// What the cluster's API server is configured with, as far as it can be known: the authorizer chain
// (--authorization-mode), NodeRestriction admission (--enable/--disable-admission-plugins) and the
// feature gates (--feature-gates over each gate's default for the cluster's version). Derived once
// per cluster and applied by the engine, the node writers, the checks and `simulate` alike. Each
// value says where it came from, so the report and the UI can tell a fact from an assumption.

/**
 * - `api-server`: the flags of a visible kube-apiserver pod;
 * - `cli`: stated by the user (CLI flags), over anything else;
 * - `version-default`: the gate's default for the cluster's known version;
 * - `assumed`: nothing says: kubeadm/managed-cluster defaults, or 1.36 when the version is unknown.
 */
export type ConfigSource = 'api-server' | 'cli' | 'version-default' | 'assumed';

export interface ConfigSetting {
  enabled: boolean;
  source: ConfigSource;
}

export interface ClusterConfig {
  /** `kube-system/<pod>` whose flags were read, or null when no API server pod is visible. */
  apiServerPod: string | null;
  authorizers: {
    /** The modes as kube-apiserver names them, in order; null when an --authorization-config file hides them. */
    modes: string[] | null;
    /** What the engine applies after system:masters: the modes it models (Node, RBAC, AlwaysAllow, AlwaysDeny), in order. */
    chain: AuthorizerName[];
    source: ConfigSource;
  };
  nodeRestriction: ConfigSetting;
  /** Every gate the engine models, and any other gate the flags name. */
  featureGates: Record<string, ConfigSetting>;
  /** What is assumed or could not be applied, for the report's warnings. */
  notes: string[];
}

/** What the user states for a cluster whose API server flags are not visible (or to override them). */
export interface ClusterConfigOverrides {
  /** kube-apiserver --authorization-mode names, in order. */
  authorizationModes?: readonly string[];
  nodeRestriction?: boolean;
  featureGates?: ReadonlyMap<string, boolean>;
}

/** kube-apiserver's authorization modes (pkg/kubeapiserver/authorizer/modes). */
export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
const MODELLED_MODES: ReadonlySet<string> = new Set<AuthorizerName>(['AlwaysAllow', 'AlwaysDeny', 'Node', 'RBAC']);

export class AuthorizationModeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthorizationModeError';
  }
}

/** Checks a list of mode names as kube-apiserver does: known names, each once, at least one. */
export function validateAuthorizationModes(modes: readonly string[]): string[] {
  const out: string[] = [];
  for (const m of modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(m))
      throw new AuthorizationModeError(`unknown authorization mode "${m}" (kube-apiserver knows ${AUTHORIZATION_MODES.join(', ')})`);
    if (out.includes(m)) throw new AuthorizationModeError(`authorization mode "${m}" is given twice`);
    out.push(m);
  }
  if (out.length === 0) throw new AuthorizationModeError('at least one authorization mode is needed');
  return out;
}

interface FromServer {
  modes: string[] | null;
  nodeRestriction: boolean;
  gates: Map<string, boolean>;
  notes: string[];
}

/** What one API server pod's flags say. */
function readServer(server: VisibleApiServer): FromServer {
  const name = `kube-system/${server.pod.metadata.name}`;
  const { flags } = server;
  const notes: string[] = [];
  let modes: string[] | null;
  if (flags.get('authorization-config')?.values.some((v) => v !== '')) {
    modes = null;
  } else if (flags.has('authorization-mode')) {
    const given = flagList(flags.get('authorization-mode'));
    modes = given.filter((m) => (AUTHORIZATION_MODES as readonly string[]).includes(m));
    const unknown = given.filter((m) => !modes!.includes(m));
    if (unknown.length > 0) notes.push(`${name}: --authorization-mode names ${unknown.join(', ')}, which kube-apiserver does not know; ignored`);
  } else {
    // kube-apiserver's default (BuiltInAuthorizationOptions): AlwaysAllow.
    modes = ['AlwaysAllow'];
  }
  const enabled = flagList(flags.get('enable-admission-plugins'));
  const disabled = flagList(flags.get('disable-admission-plugins'));
  // NodeRestriction is not among kube-apiserver's default-on admission plugins.
  const nodeRestriction = enabled.includes('NodeRestriction') && !disabled.includes('NodeRestriction');
  let gates = new Map<string, boolean>();
  const gateFlag = flags.get('feature-gates');
  if (gateFlag) {
    try {
      gates = parseFeatureGates(gateFlag.values);
    } catch (e) {
      if (!(e instanceof FeatureGateSyntaxError)) throw e;
      notes.push(`${name}: --feature-gates cannot be read (${e.message}); the version's defaults are used`);
    }
  }
  return { modes, nodeRestriction, gates, notes };
}

const sameServer = (a: FromServer, b: FromServer) =>
  JSON.stringify([a.modes, a.nodeRestriction, [...a.gates].sort()]) === JSON.stringify([b.modes, b.nodeRestriction, [...b.gates].sort()]);

/** The cluster's configuration from its visible API server pods, its version and what the user states. */
export function deriveClusterConfig(state: Pick<ClusterState, 'pods' | 'source'>, overrides: ClusterConfigOverrides = {}): ClusterConfig {
  const notes: string[] = [];
  const servers = visibleApiServers(state.pods);
  const first = servers[0];
  const server = first ? readServer(first) : undefined;
  const apiServerPod = first ? `kube-system/${first.pod.metadata.name}` : null;
  if (server) {
    notes.push(...server.notes);
    const differing = servers.slice(1).filter((s) => !sameServer(readServer(s), server));
    if (differing.length > 0)
      notes.push(
        `kube-apiserver pods disagree on authorization, NodeRestriction or feature gates (${differing.map((s) => `kube-system/${s.pod.metadata.name}`).join(', ')} differ from ${apiServerPod}); the engine applies ${apiServerPod}'s flags`,
      );
  }

  // ---- authorizers
  let authorizers: ClusterConfig['authorizers'];
  if (overrides.authorizationModes) {
    const modes = validateAuthorizationModes(overrides.authorizationModes);
    authorizers = { modes, chain: modelledChain(modes, 'the stated chain', notes), source: 'cli' };
  } else if (server?.modes) {
    authorizers = { modes: server.modes, chain: modelledChain(server.modes, `${apiServerPod}'s --authorization-mode`, notes), source: 'api-server' };
  } else {
    authorizers = { modes: server ? null : [...DEFAULT_CHAIN], chain: [...DEFAULT_CHAIN], source: 'assumed' };
    notes.push(
      server
        ? `${apiServerPod} sets --authorization-config: the authorizer chain is configured in a file that is not visible; Node,RBAC is assumed (state it with --authorizers)`
        : 'No kube-apiserver pod is visible: the authorizer chain Node,RBAC is assumed (state it with --authorizers)',
    );
  }

  // ---- NodeRestriction
  let nodeRestriction: ConfigSetting;
  if (overrides.nodeRestriction !== undefined) nodeRestriction = { enabled: overrides.nodeRestriction, source: 'cli' };
  else if (server) nodeRestriction = { enabled: server.nodeRestriction, source: 'api-server' };
  else {
    // kubeadm and managed control planes enable it; it is not kube-apiserver's own default.
    nodeRestriction = { enabled: true, source: 'assumed' };
    notes.push(
      'No kube-apiserver pod is visible: NodeRestriction admission is assumed on, as kubeadm and managed clusters run it (state it with --node-restriction)',
    );
  }

  // ---- feature gates
  const known = parseKubernetesVersion(state.source.kubernetesVersion);
  const version = known ?? ASSUMED_VERSION;
  const featureGates: Record<string, ConfigSetting> = {};
  for (const gate of MODELLED_GATES)
    featureGates[gate] = { enabled: gateSpecAt(gate, version)?.enabled ?? false, source: known ? 'version-default' : 'assumed' };
  if (!known) notes.push('The Kubernetes version is unknown: feature gates take their 1.36 defaults');
  const stated = (gates: ReadonlyMap<string, boolean>, source: ConfigSource) => {
    for (const [gate, enabled] of gates) {
      featureGates[gate] = { enabled, source };
      if (!isModelledGate(gate) || !known) continue;
      const spec = gateSpecAt(gate, version);
      const v = `${version[0]}.${version[1]}`;
      if (!spec) notes.push(`Feature gate ${gate} is set, but Kubernetes ${v} does not know it (kube-apiserver refuses to start with it); applied as stated`);
      else if (spec.locked && spec.enabled !== enabled)
        notes.push(
          `Feature gate ${gate} is set to ${enabled}, but it is GA and locked to ${spec.enabled} in ${v} (kube-apiserver refuses to start with it); applied as stated`,
        );
    }
  };
  if (server) stated(server.gates, 'api-server');
  if (overrides.featureGates) stated(overrides.featureGates, 'cli');

  return { apiServerPod, authorizers, nodeRestriction, featureGates: sortedRecord(featureGates), notes };
}

/** The modes the engine can decide with, in order; the others are noted. */
function modelledChain(modes: readonly string[], what: string, notes: string[]): AuthorizerName[] {
  const chain = modes.filter((m): m is AuthorizerName => MODELLED_MODES.has(m));
  const skipped = modes.filter((m) => !MODELLED_MODES.has(m));
  if (skipped.length > 0)
    notes.push(
      `${what} includes ${skipped.join(', ')}: their decisions are not visible, so the engine answers as if they had no opinion (requests they would allow are shown as denied)`,
    );
  return chain;
}

function sortedRecord<T>(r: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Whether a gate is on in this configuration (off when neither modelled nor named). */
export function gateEnabled(config: Pick<ClusterConfig, 'featureGates'>, gate: ModelledGate | string): boolean {
  return config.featureGates[gate]?.enabled ?? false;
}

/** The feature state the authorizer model applies. */
export function authzFeaturesOf(config: Pick<ClusterConfig, 'featureGates'>): AuthzFeatures {
  return {
    constrainedImpersonation: gateEnabled(config, 'ConstrainedImpersonation'),
    granularStatusAuthorization: gateEnabled(config, 'DRAResourceClaimGranularStatusAuthorization'),
  };
}

/** "NodeRestriction is off (kube-apiserver flags of kube-system/x)": a setting with where it came from, for texts. */
export function describeSource(config: Pick<ClusterConfig, 'apiServerPod'>, source: ConfigSource): string {
  switch (source) {
    case 'api-server':
      return `flags of ${config.apiServerPod ?? 'the API server'}`;
    case 'cli':
      return 'stated on the command line';
    case 'version-default':
      return "the version's default";
    case 'assumed':
      return 'assumed';
  }
}
