export interface AuthzFeatures {
  /** KEP-5284: beta and on by default from 1.36 (alpha, off, in 1.35). */
  constrainedImpersonation: boolean;
  /** DRAResourceClaimGranularStatusAuthorization: beta and on by default from 1.36. */
  granularStatusAuthorization: boolean;
}

/** Parses "v1.36.3", "1.36", "v1.37.0-alpha.1+abc" into [major, minor]. */
export function parseKubernetesVersion(version: string | undefined): [number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)/.exec(version?.trim() ?? '');
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** Default feature state for a cluster version; with no version known, 1.36 defaults. */
export function featuresForVersion(version: string | undefined): AuthzFeatures {
  const v = parseKubernetesVersion(version);
  const atLeast136 = !v || v[0] > 1 || (v[0] === 1 && v[1] >= 36);
  return { constrainedImpersonation: atLeast136, granularStatusAuthorization: atLeast136 };
}
