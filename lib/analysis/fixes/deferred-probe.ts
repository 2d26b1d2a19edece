import type { ResourceAttributes, UserInfo } from '@/lib/authz/types';
import type { FixProbe } from '@/lib/analysis/types';
import { reviewOf } from './holder';
import { describeAttrs } from './holder-needs';

// A review probe kept as its question until the fix lists it or it fails: only then are its text and
// review (a copy of the user's groups and of the request) written. An issue of many holders and
// namespaces checks tens of thousands of requests (CLAIM003 on the diverse bench cluster) and lists 32;
// written up front, the others lived across the fix's verification and were promoted (~25 MiB).

export interface DeferredProbe {
  deferred: true;
  expect: 'allowed' | 'denied';
  /** Who sends it, in words: the text's lead. */
  who: string;
  user: UserInfo;
  attrs: ResourceAttributes;
}

/** The probe as a fix lists it: what refusedProbes wrote for each request before probes were deferred. */
export function writtenProbe(p: DeferredProbe): FixProbe {
  return { expect: p.expect, text: probeText(p), review: reviewOf(p.user, p.attrs) };
}

export function probeText(p: DeferredProbe): string {
  return `${p.who}: ${describeAttrs(p.attrs)}`;
}

/** The request the engine decides for it, as it would read it from the written review (which keeps no field selector). */
export function deferredRequest(p: DeferredProbe): { user: UserInfo; resource: ResourceAttributes } {
  return { user: p.user, resource: p.attrs.fieldSelector === undefined ? p.attrs : reviewOf(p.user, p.attrs).resourceAttributes };
}
