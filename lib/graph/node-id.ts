import type { GraphNodeKind, GraphTier } from './types';

/** `Kind:namespace:name`; Kubernetes namespaces and kinds never contain ':', names may. */
export function nodeId(kind: GraphNodeKind, namespace: string | undefined, name: string): string {
  return `${kind}:${namespace ?? ''}:${name}`;
}

export function parseNodeId(id: string): { kind: string; namespace: string; name: string } | undefined {
  const a = id.indexOf(':');
  if (a < 0) return undefined;
  const b = id.indexOf(':', a + 1);
  if (b < 0) return undefined;
  return { kind: id.slice(0, a), namespace: id.slice(a + 1, b), name: id.slice(b + 1) };
}

export function tierOf(kind: GraphNodeKind): GraphTier {
  switch (kind) {
    case 'User':
    case 'Group':
    case 'ServiceAccount':
      return 0;
    case 'ClusterRoleBinding':
    case 'RoleBinding':
      return 1;
    case 'ClusterRole':
    case 'Role':
      return 2;
    default:
      return 3;
  }
}

/** The collapse group of a node within its tier. */
export function groupOf(kind: GraphNodeKind, namespace: string | undefined): string {
  if (kind === 'Resource') return 'resources';
  if (kind === 'User') return 'users';
  if (kind === 'Group') return 'groups';
  if (namespace) return `ns/${namespace}`;
  return 'cluster';
}

/** Id of the node standing for a collapsed group. */
export function groupNodeId(tier: GraphTier, group: string): string {
  return `group:${tier}:${group}`;
}

export function isGroupNodeId(id: string): boolean {
  return id.startsWith('group:');
}

/** Id of the "+ N more" box standing for the rest of a paged column. */
export function moreNodeId(tier: GraphTier): string {
  return `more:${tier}`;
}

export function isMoreNodeId(id: string): boolean {
  return id.startsWith('more:');
}

/** What a column holds, in a sentence ("+ 12 more bindings"). */
export const TIER_NOUNS: Record<GraphTier, string> = {
  0: 'identities',
  1: 'bindings',
  2: 'roles',
  3: 'DRA resources',
};

export const TIER_LABELS: Record<GraphTier, string> = {
  0: 'Identities',
  1: 'Bindings',
  2: 'Roles',
  3: 'DRA resources',
};
