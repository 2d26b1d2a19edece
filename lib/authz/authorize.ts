import { authorizeNode, withoutNodeRestriction } from './node-authorizer';
import type { NodeGraph } from './node-graph';
import { authorizeRbac, NO_RBAC_MATCH } from './rbac-authorizer';
import type { RbacIndex } from './rbac-index';
import type { AuthorizerName, AuthzRequest, Decision } from './types';

export const DEFAULT_CHAIN: readonly AuthorizerName[] = ['Node', 'RBAC'];

export interface AuthorizerContext {
  rbac: RbacIndex;
  nodeGraph: NodeGraph;
  chain: readonly AuthorizerName[];
  /** False when the cluster does not run NodeRestriction admission: the Node authorizer's reasons say so. */
  nodeRestriction?: boolean;
}

/**
 * The union authorizer: system:masters first, then the configured chain. Node and RBAC never deny,
 * so the first Allow wins and everything else is NoOpinion → denied; AlwaysAllow allows and
 * AlwaysDeny denies whatever reaches them.
 */
export function authorize(ctx: AuthorizerContext, request: AuthzRequest): Decision {
  if (request.user.groups.includes('system:masters')) {
    return { allowed: true, decidedBy: 'privileged-group', reason: 'member of group "system:masters"' };
  }
  // The reasons of the authorizers that had none to give, joined: most requests meet one (the
  // common denial is RBAC's alone, a constant), so no list is made unless a second one comes.
  let reason: string | undefined;
  let reasons: string[] | undefined;
  for (const name of ctx.chain) {
    if (name === 'AlwaysAllow') return { allowed: true, decidedBy: 'always-allow', reason: 'AlwaysAllow: the authorizer chain allows every request' };
    if (name === 'AlwaysDeny') return { allowed: false, reason: [...(reasons ?? (reason === undefined ? [] : [reason])), ALWAYS_DENY].join('; ') };
    let why: string;
    if (name === 'Node') {
      const d = authorizeNode(ctx.nodeGraph, request);
      if (!d) continue;
      if (d.allowed)
        return { allowed: true, decidedBy: 'node', reason: `Node: ${ctx.nodeRestriction === false ? withoutNodeRestriction(d.reason) : d.reason}` };
      if (!d.reason) continue;
      why = `Node: ${d.reason}`;
    } else {
      const d = authorizeRbac(ctx.rbac, request);
      if (d.allowed) return d;
      why = d.reason === NO_RBAC_MATCH ? RBAC_NO_MATCH : `RBAC: ${d.reason}`;
    }
    if (reason === undefined) reason = why;
    else (reasons ??= [reason]).push(why);
  }
  return { allowed: false, reason: reasons ? reasons.join('; ') : (reason ?? 'no authorizer had an opinion') };
}

const ALWAYS_DENY = 'AlwaysDeny: the authorizer chain denies every request';
const RBAC_NO_MATCH = `RBAC: ${NO_RBAC_MATCH}`;

const MODELLED: readonly AuthorizerName[] = ['Node', 'RBAC', 'AlwaysAllow', 'AlwaysDeny'];

/** `Node,RBAC` (kube-apiserver --authorization-mode names) as a chain of the modes the engine decides with. */
export function parseAuthorizerChain(text: string): AuthorizerName[] {
  const out: AuthorizerName[] = [];
  for (const raw of text.split(',')) {
    const name = raw.trim();
    if (name === '') continue;
    if (name === 'Webhook' || name === 'ABAC')
      throw new Error(`the ${name} authorizer's decisions are not visible, so it cannot be modelled (leave it out; supported: ${MODELLED.join(', ')})`);
    if (!(MODELLED as readonly string[]).includes(name)) throw new Error(`unknown authorizer "${name}" (supported: ${MODELLED.join(', ')})`);
    if (!out.includes(name as AuthorizerName)) out.push(name as AuthorizerName);
  }
  if (out.length === 0) throw new Error('the authorizer chain is empty');
  return out;
}
