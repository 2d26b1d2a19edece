import { authorizeNode } from './node-authorizer';
import type { NodeGraph } from './node-graph';
import { authorizeRbac } from './rbac-authorizer';
import type { RbacIndex } from './rbac-index';
import type { AuthorizerName, AuthzRequest, Decision } from './types';

export const DEFAULT_CHAIN: readonly AuthorizerName[] = ['Node', 'RBAC'];

export interface AuthorizerContext {
  rbac: RbacIndex;
  nodeGraph: NodeGraph;
  chain: readonly AuthorizerName[];
}

/**
 * The union authorizer: system:masters first, then the configured chain. Node and RBAC never deny,
 * so the first Allow wins and everything else is NoOpinion → denied.
 */
export function authorize(ctx: AuthorizerContext, request: AuthzRequest): Decision {
  if (request.user.groups.includes('system:masters')) {
    return { allowed: true, decidedBy: 'privileged-group', reason: 'member of group "system:masters"' };
  }
  const reasons: string[] = [];
  for (const name of ctx.chain) {
    if (name === 'Node') {
      const d = authorizeNode(ctx.nodeGraph, request);
      if (!d) continue;
      if (d.allowed) return { allowed: true, decidedBy: 'node', reason: `Node: ${d.reason}` };
      if (d.reason) reasons.push(`Node: ${d.reason}`);
    } else {
      const d = authorizeRbac(ctx.rbac, request);
      if (d.allowed) return d;
      reasons.push(`RBAC: ${d.reason}`);
    }
  }
  return { allowed: false, reason: reasons.join('; ') || 'no authorizer had an opinion' };
}

export function parseAuthorizerChain(text: string): AuthorizerName[] {
  const out: AuthorizerName[] = [];
  for (const raw of text.split(',')) {
    const name = raw.trim();
    if (name === '') continue;
    if (name !== 'Node' && name !== 'RBAC') throw new Error(`unknown authorizer "${name}" (supported: Node, RBAC)`);
    if (!out.includes(name)) out.push(name);
  }
  if (out.length === 0) throw new Error('the authorizer chain is empty');
  return out;
}
