// The kube-apiserver feature gates the engine models, each with its default per release, as in the
// versioned specs of kubernetes pkg/features/kube_features.go (and k8s.io/apiserver pkg/features for
// ConstrainedImpersonation): from `since` on, the gate defaults to `enabled` until the next entry. A
// release before the first entry does not know the gate (the feature is absent: off).

export interface GateSpec {
  /** [major, minor] of the first release with this default. */
  since: [number, number];
  enabled: boolean;
  stage: 'alpha' | 'beta' | 'GA';
  /** GA and locked: kube-apiserver refuses to start with the gate set to the other value. */
  locked?: boolean;
}

export const FEATURE_GATES = {
  // KEP-5284; authz-semantics.md §7.
  ConstrainedImpersonation: [
    { since: [1, 35], enabled: false, stage: 'alpha' },
    { since: [1, 36], enabled: true, stage: 'beta' },
  ],
  // KEP-4817 authorization part (PR #134947); dra-facts.md §10. No such gate before 1.36.
  DRAResourceClaimGranularStatusAuthorization: [{ since: [1, 36], enabled: true, stage: 'beta' }],
  DRAAdminAccess: [
    { since: [1, 32], enabled: false, stage: 'alpha' },
    { since: [1, 34], enabled: true, stage: 'beta' },
    { since: [1, 36], enabled: true, stage: 'GA', locked: true },
  ],
  DRADeviceTaints: [
    { since: [1, 33], enabled: false, stage: 'alpha' },
    { since: [1, 36], enabled: true, stage: 'beta' },
    { since: [1, 37], enabled: true, stage: 'GA' },
  ],
  DRADeviceTaintRules: [
    { since: [1, 35], enabled: false, stage: 'alpha' },
    // Off by default: it depends on a beta API that is itself off by default.
    { since: [1, 36], enabled: false, stage: 'beta' },
    { since: [1, 37], enabled: true, stage: 'GA' },
  ],
} as const satisfies Record<string, readonly GateSpec[]>;

export type ModelledGate = keyof typeof FEATURE_GATES;

export const MODELLED_GATES = Object.keys(FEATURE_GATES).sort() as ModelledGate[];

/** Parses "v1.36.3", "1.36", "v1.37.0-alpha.1+abc" into [major, minor]. */
export function parseKubernetesVersion(version: string | undefined): [number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)/.exec(version?.trim() ?? '');
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** With no version known, the engine assumes this release (DESIGN §3). */
export const ASSUMED_VERSION: [number, number] = [1, 36];

const atOrAfter = (v: [number, number], since: readonly [number, number]) => v[0] > since[0] || (v[0] === since[0] && v[1] >= since[1]);

/** The spec in force for a release, or undefined when that release does not know the gate. */
export function gateSpecAt(gate: ModelledGate, version: [number, number]): GateSpec | undefined {
  let found: GateSpec | undefined;
  for (const spec of FEATURE_GATES[gate] as readonly GateSpec[]) if (atOrAfter(version, spec.since)) found = spec;
  return found;
}

/** Default of a gate for a version string (the assumed release when unknown). */
export function gateDefault(gate: ModelledGate, version: string | undefined): boolean {
  return gateSpecAt(gate, parseKubernetesVersion(version) ?? ASSUMED_VERSION)?.enabled ?? false;
}

export function isModelledGate(name: string): name is ModelledGate {
  return Object.prototype.hasOwnProperty.call(FEATURE_GATES, name);
}

export class FeatureGateSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeatureGateSyntaxError';
  }
}

/**
 * `--feature-gates` values (`A=true,B=false`, the flag possibly repeated), as kube-apiserver reads
 * them (component-base featuregate Set): comma-separated `Name=bool` pairs, spaces around names and
 * values ignored, a later value of a gate wins.
 * A pair without `=`, an empty name or a value that is not a boolean is an error (the server
 * refuses to start). Booleans follow Go's strconv.ParseBool.
 */
export function parseFeatureGates(values: readonly string[]): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const value of values) {
    for (const raw of value.split(',')) {
      // As kube-apiserver: only an empty item is skipped (`A=true,,B=false`); a blank one is an error.
      if (raw === '') continue;
      const pair = raw.trim();
      const eq = pair.indexOf('=');
      if (eq < 0) throw new FeatureGateSyntaxError(`missing bool value for ${pair}`);
      const name = pair.slice(0, eq).trim();
      const text = pair.slice(eq + 1).trim();
      if (name === '') throw new FeatureGateSyntaxError(`missing gate name in "${pair}"`);
      const bool = parseGoBool(text);
      if (bool === undefined) throw new FeatureGateSyntaxError(`invalid value of ${name}: ${text} (expected true or false)`);
      out.set(name, bool);
    }
  }
  return out;
}

function parseGoBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}
