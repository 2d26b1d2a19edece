import { KINDS } from '@/lib/k8s/kinds';
import type { WriteSimulation } from './simulate-write';
import type { UserInfo } from './types';

// A manifest as the write it would be: the kind gives group, resource and whether it is namespaced;
// create unless a stored object is given. Shared by `dra-posture simulate -f` and the dashboard.

export const WRITE_VERBS = ['create', 'update', 'patch', 'delete'] as const;
export type WriteVerb = (typeof WRITE_VERBS)[number];

export class WriteRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WriteRequestError';
  }
}

export function writeFromManifest(
  manifest: unknown,
  options: { user: UserInfo; verb?: string; subresource?: string; old?: unknown; where: string },
): WriteSimulation {
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) throw new WriteRequestError(`${options.where}: expected one Kubernetes object`);
  const m = manifest as { kind?: unknown; metadata?: { name?: string; namespace?: string } };
  const kind = typeof m.kind === 'string' ? m.kind : '';
  const descriptor = KINDS.find((k) => k.kind === kind);
  if (!descriptor)
    throw new WriteRequestError(
      `${options.where}: kind "${kind}" is not one dra-posture knows; send a request document ({user, verb, group, resource, ...}) instead`,
    );
  const verb = options.verb || (options.old === undefined ? 'create' : 'update');
  if (!(WRITE_VERBS as readonly string[]).includes(verb)) throw new WriteRequestError(`the verb must be one of ${WRITE_VERBS.join(', ')} (got "${verb}")`);
  if ((verb === 'update' || verb === 'patch') && options.old === undefined)
    throw new WriteRequestError(`${verb} needs the stored object (the object before the write)`);
  const metadata = m.metadata ?? {};
  if (descriptor.namespaced && !metadata.namespace) throw new WriteRequestError(`${options.where}: a ${kind} needs metadata.namespace`);
  return {
    user: options.user,
    attributes: {
      verb,
      group: descriptor.group,
      resource: descriptor.resource,
      subresource: options.subresource ?? '',
      namespace: descriptor.namespaced ? (metadata.namespace ?? '') : '',
      name: verb === 'create' ? '' : (metadata.name ?? ''),
    },
    object: verb === 'delete' ? undefined : manifest,
    oldObject: verb === 'delete' ? (options.old ?? manifest) : options.old,
  };
}
