import { gateDefault } from './feature-gates';

/** The feature gates the authorizer model consults, as the engine applies them. */
export interface AuthzFeatures {
  /** ConstrainedImpersonation (KEP-5284): alpha, off, in 1.35; beta and on by default from 1.36. */
  constrainedImpersonation: boolean;
  /** DRAResourceClaimGranularStatusAuthorization: beta and on by default from 1.36. */
  granularStatusAuthorization: boolean;
}

/** Default feature state for a cluster version; with no version known, 1.36 defaults. */
export function featuresForVersion(version: string | undefined): AuthzFeatures {
  return {
    constrainedImpersonation: gateDefault('ConstrainedImpersonation', version),
    granularStatusAuthorization: gateDefault('DRAResourceClaimGranularStatusAuthorization', version),
  };
}
