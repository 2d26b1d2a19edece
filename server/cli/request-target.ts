import 'server-only';
import { resolveResourceType } from '@/lib/k8s/resource-types';
import type { NonResourceAttributes, ResourceAttributes } from '@/lib/authz/types';
import { UsageError } from './usage-error';
import { parseFieldSelector } from '@/lib/authz/field-selector';

export interface TargetFlags {
  subresource?: string;
  namespace?: string;
  'all-namespaces'?: boolean;
  'field-selector'?: string;
  'label-selector'?: string;
}

// A label selector as kubectl writes one: key, !key, key=v, key==v, key!=v, key in (a,b), key notin (a,b).
const LABEL_REQUIREMENT = /^\s*(!?[A-Za-z0-9][-A-Za-z0-9_./]*)\s*(?:(==|=|!=)\s*[-A-Za-z0-9_.]*|\s+(?:in|notin)\s*\([-A-Za-z0-9_., ]*\))?\s*$/;

function checkLabelSelector(raw: string): void {
  const terms = raw.split(/,(?![^(]*\))/);
  for (const term of terms)
    if (!LABEL_REQUIREMENT.test(term))
      throw new UsageError(`--label-selector: "${term.trim()}" is not a label requirement (key, !key, key=v, key!=v, key in (a,b), key notin (a,b))`);
}

/**
 * kubectl's `VERB TYPE[.GROUP][/NAME]` or `VERB /path`. As kubectl, a namespaced type without -n is
 * asked in namespace "default"; -A asks across all namespaces.
 */
export function targetFromArgs(
  verb: string | undefined,
  typeArg: string | undefined,
  nameArg: string | undefined,
  flags: TargetFlags,
  warn: (message: string) => void,
): { resource?: ResourceAttributes; nonResource?: NonResourceAttributes } {
  if (!verb) throw new UsageError('missing VERB');
  if (!typeArg) throw new UsageError('missing TYPE (e.g. pods, resourceclaims/status, or a path such as /healthz)');
  if (typeArg.startsWith('/')) {
    if (flags.subresource || flags.namespace || nameArg || flags['field-selector'] || flags['label-selector'])
      throw new UsageError('a non-resource URL takes no name, --subresource, --namespace or selectors');
    return { nonResource: { verb, path: typeArg } };
  }
  let type = typeArg;
  let name = nameArg ?? '';
  const slash = type.indexOf('/');
  if (slash >= 0) {
    if (nameArg) throw new UsageError('give the name either as TYPE/NAME or as a separate argument, not both');
    name = type.slice(slash + 1);
    type = type.slice(0, slash);
  }
  const resolved = resolveResourceType(type);
  if (resolved.warning) warn(`Warning: ${resolved.warning}`);
  let namespace = '';
  if (flags['all-namespaces']) {
    if (flags.namespace) throw new UsageError('--namespace and --all-namespaces exclude each other');
  } else if (flags.namespace !== undefined) namespace = flags.namespace;
  else if (resolved.namespaced) namespace = 'default';
  // The API server checks resourceclaims/binding at the cluster scope with no name
  // (pkg/registry/resource/utils.go AuthorizedForBinding): a RoleBinding never grants it, so a
  // question asked in a namespace would list subjects whose writes the server refuses.
  if (resolved.group === 'resource.k8s.io' && resolved.resource === 'resourceclaims' && flags.subresource === 'binding') {
    if (namespace !== '' && (flags.namespace !== undefined || flags['all-namespaces']))
      warn(`Warning: resourceclaims/binding is checked at the cluster scope (namespace "", no name); --namespace is ignored`);
    if (name !== '') warn(`Warning: resourceclaims/binding is checked with no name; the name "${name}" is ignored`);
    namespace = '';
    name = '';
  }
  let fieldSelector: ResourceAttributes['fieldSelector'];
  if (flags['field-selector'] !== undefined) {
    try {
      fieldSelector = parseFieldSelector(flags['field-selector']);
    } catch (e) {
      throw new UsageError(`--field-selector: ${(e as Error).message}`);
    }
  }
  // The built-in authorizers decide on field selectors only (the Node authorizer's spec.nodeName); a
  // label selector is checked and shown, and changes no decision of RBAC or the Node authorizer.
  if (flags['label-selector'] !== undefined) checkLabelSelector(flags['label-selector']);
  return {
    resource: {
      verb,
      group: resolved.group,
      resource: resolved.resource,
      subresource: flags.subresource ?? '',
      namespace,
      name,
      ...(fieldSelector?.length ? { fieldSelector } : {}),
    },
  };
}

export const TARGET_OPTIONS = {
  subresource: { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  'all-namespaces': { type: 'boolean', short: 'A' },
  'field-selector': { type: 'string' },
  'label-selector': { type: 'string' },
} as const;
