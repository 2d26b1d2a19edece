import type { EdgeReason, GraphNodeKind, ViewNode } from './types';

/** A kind in the plural, as a box that stands for several says it. */
export const KIND_PLURAL: Record<GraphNodeKind, string> = {
  User: 'users',
  Group: 'groups',
  ServiceAccount: 'service accounts',
  ClusterRoleBinding: 'ClusterRoleBindings',
  RoleBinding: 'RoleBindings',
  ClusterRole: 'ClusterRoles',
  Role: 'Roles',
  Resource: 'resources',
};

/** Title and subtitle of a displayed node (a collapsed group says what it stands for). */
export function viewNodeText(n: Pick<ViewNode, 'kind' | 'name' | 'namespace' | 'memberCount' | 'group' | 'apiGroup' | 'hiddenBoxes' | 'offGraph'>): {
  title: string;
  subtitle: string;
} {
  if (n.hiddenBoxes !== undefined) return { title: `+ ${n.memberCount} more`, subtitle: `${n.name} · select to show` };
  if (n.memberCount !== undefined) {
    const title = n.namespace ?? (n.group === 'users' ? 'Users' : n.group === 'groups' ? 'Groups' : n.group === 'ns/*' ? 'All namespaces' : 'Cluster-wide');
    return { title, subtitle: `${n.memberCount} ${KIND_PLURAL[n.kind]} (collapsed)` };
  }
  if (n.kind === 'Resource') return { title: n.name, subtitle: n.apiGroup ? n.apiGroup : 'core ("")' };
  // A box of an attack path whose grant is not a DRA one (an impersonation role): the graph has no such node.
  if (n.offGraph) return { title: n.name, subtitle: `${n.kind}${n.namespace ? ` · ${n.namespace}` : ''} · no DRA grant` };
  if (n.kind === 'ServiceAccount') return { title: n.name, subtitle: `ServiceAccount · ${n.namespace ?? ''}` };
  if (n.kind === 'RoleBinding' || n.kind === 'Role') return { title: n.name, subtitle: `${n.kind} · ${n.namespace ?? ''}` };
  return { title: n.name, subtitle: n.kind };
}

const ref = (r: { kind: string; name: string; namespace?: string }) => `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;

/** One sentence saying why an edge exists. */
export function describeReason(r: EdgeReason): string {
  switch (r.type) {
    case 'subject':
      return `${ref(r.binding)} lists ${ref(r.subject)} as a subject`;
    case 'roleRef':
      return `${ref(r.binding)} refers to ${ref(r.role)} (roleRef)`;
    case 'rule':
      return `${ref(r.role)} rule #${r.ruleIndex} allows ${r.rule.verbs.join(', ')} on ${r.resource}${r.aggregatedFrom ? ` (aggregated from ClusterRole ${r.aggregatedFrom})` : ''}`;
  }
}
