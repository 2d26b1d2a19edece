import 'server-only';
import { resolveResourceType } from '@/lib/k8s/resource-types';
import type { NonResourceAttributes, ResourceAttributes } from '@/lib/authz/types';
import { UsageError } from './usage-error';

export interface TargetFlags {
  subresource?: string;
  namespace?: string;
  'all-namespaces'?: boolean;
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
    if (flags.subresource || flags.namespace || nameArg) throw new UsageError('a non-resource URL takes no name, --subresource or --namespace');
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
  return {
    resource: { verb, group: resolved.group, resource: resolved.resource, subresource: flags.subresource ?? '', namespace, name },
  };
}

export const TARGET_OPTIONS = {
  subresource: { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  'all-namespaces': { type: 'boolean', short: 'A' },
} as const;
