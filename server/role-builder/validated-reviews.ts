import 'server-only';
import { createHash } from 'node:crypto';
import type { AuthzEngine } from '@/lib/authz/authz-engine';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { prepareIncrementalValidation } from '@/lib/role-builder/incremental-limits';
import { reviewRole, type RoleReview } from '@/lib/role-builder/review-role';
import { sourceFingerprint } from '@/lib/role-builder/source-fingerprint';
import type { BuildInput } from '@/lib/role-builder/types';
import { engineForApplying } from '@/lib/role-builder/who-can-apply';
import { getAnalysis } from '@/server/services/get-report';

// What a build validated, kept for the decision on it (issue #26: an approval re-ran the whole
// validation, 38-49 s on a large cluster). Keyed by the source's fingerprint and the YAML's SHA-256: a
// decision about the same YAML on the same cluster version reuses it; any change to the cluster
// changes the fingerprint and misses. On globalThis: Next bundles the build and decide routes
// separately, and both must see the same entries.

export interface ValidatedReview {
  review: RoleReview;
  fingerprint: string;
  /** The wizard's answers the review was built from (a decision must be about the same ones). */
  input: BuildInput;
  /** The engine with the bundle's roles added, as an applier meets it (built once for appliers and the approver check). */
  readonly applying: AuthzEngine;
}

/** Reviews kept (each may hold an RBAC index with the bundle's roles: a few suffice for build → decide). */
const KEPT = 4;

const KEY = Symbol.for('dra-posture.role-reviews');
interface Cache {
  fingerprints: WeakMap<ClusterState, string>;
  reviews: Map<string, ValidatedReview>;
}
const cache = ((globalThis as unknown as Record<symbol, Cache | undefined>)[KEY] ??= { fingerprints: new WeakMap(), reviews: new Map() });

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const keyOf = (fingerprint: string, yamlSha256: string) => `${fingerprint}:${yamlSha256}`;

/** sourceFingerprint of a loaded state, computed once per state object. */
export function fingerprintOf(state: ClusterState): string {
  let found = cache.fingerprints.get(state);
  if (!found) cache.fingerprints.set(state, (found = sourceFingerprint(state, sha256)));
  return found;
}

/**
 * Takes the cluster's fingerprint and builds the validation's lookups ahead of the first build (seconds
 * on a large cluster), after the caller has answered: the builder's page asks for its options when it
 * opens, and the wizard's steps take longer than this.
 */
export function prepareInBackground(analysis: { state: ClusterState; context: AnalysisContext }): Promise<void> {
  return new Promise((resolve) =>
    setTimeout(() => {
      fingerprintOf(analysis.state);
      prepareIncrementalValidation(analysis.context);
      resolve();
    }, 0),
  );
}

/** The current cluster's fingerprint. */
export async function currentFingerprint(): Promise<string> {
  return fingerprintOf((await getAnalysis()).state);
}

/** Builds and validates the answers on the current cluster (from its analysis), and keeps the result for a decision. */
export async function validateOnCurrent(input: BuildInput): Promise<ValidatedReview> {
  const analysis = await getAnalysis();
  const fingerprint = fingerprintOf(analysis.state);
  const review = reviewRole(analysis.state, input, { analysis });
  let applying: AuthzEngine | undefined;
  const entry: ValidatedReview = {
    review,
    fingerprint,
    input,
    get applying() {
      return (applying ??= engineForApplying(analysis.context.engine, review.bundle.objects));
    },
  };
  const key = keyOf(fingerprint, review.yamlSha256);
  cache.reviews.delete(key);
  cache.reviews.set(key, entry);
  for (const old of cache.reviews.keys()) {
    if (cache.reviews.size <= KEPT) break;
    cache.reviews.delete(old);
  }
  return entry;
}

/** The review a build made of this YAML on this cluster version from the same answers, if it is still kept. */
export function validatedReview(fingerprint: string, yamlSha256: string, input: BuildInput): ValidatedReview | undefined {
  const entry = cache.reviews.get(keyOf(fingerprint, yamlSha256));
  return entry && JSON.stringify(entry.input) === JSON.stringify(input) ? entry : undefined;
}
