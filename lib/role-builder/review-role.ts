import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { buildBundle } from './build-bundle';
import { diffAgainstToday, type BundleDiff } from './diff-today';
import { renderBundleYaml } from './render-yaml';
import { sha256Hex } from './sha256';
import type { BuildInput, RoleBundle } from './types';
import { validateBundle, type BundleValidation, type ValidateOptions } from './validate-bundle';

export interface RoleReview {
  bundle: RoleBundle;
  yaml: string;
  yamlSha256: string;
  validation: BundleValidation;
  diff: BundleDiff;
  /** The service account already exists in the cluster (so the bundle does not create it). */
  identityExists: boolean;
}

/** Whether a service account identity exists in the cluster; users and groups always "exist". */
export function identityExists(state: Pick<ClusterState, 'serviceAccounts'>, input: BuildInput): boolean {
  const id = input.identity;
  if (id.kind !== 'ServiceAccount') return true;
  return state.serviceAccounts.some((s) => s.metadata.namespace === id.namespace && s.metadata.name === id.name);
}

/** Everything the page and the CLI show for one build: the bundle, its YAML, the engine's validation, the diff against today. */
export function reviewRole(state: ClusterState, input: BuildInput, options: ValidateOptions = {}): RoleReview {
  const exists = identityExists(state, input);
  const resolved: BuildInput = input.identity.kind === 'ServiceAccount' ? { ...input, identity: { ...input.identity, create: !exists } } : input;
  const bundle = buildBundle(resolved);
  const yaml = renderBundleYaml(bundle);
  // The current analysis's engine when it is of this state and chain (an RBAC index of a large cluster takes seconds to build).
  const current = options.analysis?.context.engine;
  const reusable = current && current.state === state && (!options.chain || options.chain.join(',') === current.chain.join(','));
  const engine = reusable ? current : createAuthzEngine(state, options.chain ? { chain: options.chain } : {});
  return {
    bundle,
    yaml,
    yamlSha256: sha256Hex(yaml),
    validation: validateBundle(state, bundle, options),
    diff: diffAgainstToday(engine, bundle),
    identityExists: exists,
  };
}
