import { KINDS, type KindDescriptor } from '@/lib/k8s/kinds';
import type { ResourceAttributes } from './types';
import { WRITE_VERBS, type WriteVerb } from './write-request';

// Which real write a who-can question stands for: the explorer offers "simulate this write" on the
// rows of an answer to such a question, and fills the simulator with it.

/** The real write a who-can question stands for, or undefined when it is not one the simulator sends. */
export interface SimulatedWrite {
  kind: KindDescriptor;
  verb: WriteVerb;
  /** The subresource written ('' or status). */
  subresource: '' | 'status';
  /** The DRA status check the question is about: resourceclaims/binding or resourceclaims/driver. */
  claimCheck?: 'binding' | 'driver';
  /** resourceclaims/driver: the verb prefix asked (associated-node: needs a token bound to the claim's node). */
  driverMode?: 'associated-node' | 'arbitrary-node';
}

type WriteQuestion = Pick<ResourceAttributes, 'verb' | 'group' | 'resource'> & { subresource?: string };

/**
 * The write a who-can question is about. resourceclaims/binding and resourceclaims/driver are not
 * endpoints: the API server asks them when an update of resourceclaims/status changes the allocation
 * or reservedFor (binding, plain verb) or a driver's status.devices entries (driver, with an
 * associated-node: or arbitrary-node: verb); dra-facts §10.
 */
export function simulatedWriteOf(q: WriteQuestion): SimulatedWrite | undefined {
  const kind = KINDS.find((k) => k.group === q.group && k.resource === q.resource);
  if (!kind) return undefined;
  const sub = q.subresource ?? '';
  const prefixed = /^(associated-node|arbitrary-node):(update|patch)$/.exec(q.verb);
  if (kind.kind === 'ResourceClaim' && sub === 'driver') {
    if (!prefixed) return undefined;
    return { kind, verb: prefixed[2] as WriteVerb, subresource: 'status', claimCheck: 'driver', driverMode: prefixed[1] as SimulatedWrite['driverMode'] };
  }
  if (prefixed || !(WRITE_VERBS as readonly string[]).includes(q.verb)) return undefined;
  const verb = q.verb as WriteVerb;
  if (sub === '') return { kind, verb, subresource: '' };
  if (verb !== 'update' && verb !== 'patch') return undefined;
  if (kind.kind === 'ResourceClaim' && sub === 'binding') return { kind, verb, subresource: 'status', claimCheck: 'binding' };
  if (sub === 'status' && (kind.kind === 'ResourceClaim' || kind.kind === 'Node' || kind.kind === 'Pod')) return { kind, verb, subresource: 'status' };
  return undefined;
}
