import type { AuthzEngine } from '@/lib/authz/authz-engine';
import type { ResourceAttributes, UserInfo } from '@/lib/authz/types';
import { nodeLocalDriver } from '@/lib/personas/node-local-driver';
import { describeSubject } from '@/lib/k8s/refs';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { usernameOf } from '@/lib/analysis/context/identities';
import type { Holder } from './holder';
import { servedDrivers } from './served-drivers';

// What a holder must still be able to do after a fix: the requests of its persona (a kubelet plugin:
// publish its node's slices, read claims, write status.devices for its own driver name on its own
// node, read its own Node) and every request it was observed making in an audit log. Only requests
// the cluster allows today count: a fix is not blamed for what was already refused.

/** Requests seen in an audit log, by username (successful requests, as lib/audit keeps them). */
export type ObservedRequests = ReadonlyMap<string, readonly ResourceAttributes[]>;

export interface Need {
  text: string;
  user: UserInfo;
  attrs: ResourceAttributes;
}

/** A kubelet plugin: its service account runs DRA driver pods (they mount the plugin directories) on a node. */
function isKubeletPlugin(ctx: AnalysisContext, holder: Holder): boolean {
  const s = holder.subject;
  if (s.kind !== 'ServiceAccount' || holder.node === undefined) return false;
  return ctx.componentReasons(s).driverWorkloads.length > 0;
}

export function holderNeeds(ctx: AnalysisContext, holder: Holder, observed?: ObservedRequests): Need[] {
  const out: Need[] = [];
  if (isKubeletPlugin(ctx, holder)) {
    const drivers = servedDrivers(ctx, holder.subject);
    const namespace = ctx.state.resourceClaims[0]?.metadata.namespace ?? 'default';
    const opCtx = { namespace, drivers, otherDriver: '', node: holder.node!, otherNode: '', otherNamespace: '' };
    const identity = { kind: 'ServiceAccount' as const, namespace: holder.subject.namespace ?? '', name: holder.subject.name, create: false };
    for (const op of nodeLocalDriver.intended(opCtx, { persona: 'node-local-driver', identity, drivers })) {
      if (op.kind !== 'request') continue;
      out.push({ text: `${describeSubject(holder.subject)} as a kubelet plugin: ${op.label}`, user: holder.user, attrs: op.resource });
    }
  }
  for (const attrs of observed?.get(usernameOf(holder.subject)) ?? []) {
    out.push({ text: `${describeSubject(holder.subject)} was observed: ${describeAttrs(attrs)}`, user: holder.user, attrs });
  }
  return out;
}

/** The needs the cluster allows today (before the fix). */
export function allowedToday(engine: AuthzEngine, needs: readonly Need[]): Need[] {
  return needs.filter((n) => engine.authorize({ user: n.user, resource: n.attrs }).allowed);
}

export function describeAttrs(a: ResourceAttributes): string {
  const what = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return `${a.verb} ${a.group ? `${what}.${a.group}` : what}${a.name ? ` ${a.name}` : ''}${a.namespace ? ` in ${a.namespace}` : ''}`;
}
