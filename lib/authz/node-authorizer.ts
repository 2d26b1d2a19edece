import type { NodeGraph, VertexType } from './node-graph';
import { NODE_RULES } from './node-rules';
import { ruleAllowsNonResource, ruleAllowsResource } from './rule-matches';
import type { AuthzRequest, ResourceAttributes } from './types';
import { nodeIdentity } from './user-info';

export interface NodeDecision {
  allowed: boolean;
  reason: string;
}

const NO = (reason: string): NodeDecision => ({ allowed: false, reason });
const YES = (reason: string): NodeDecision => ({ allowed: true, reason });

/**
 * The Node authorizer (plugin/pkg/auth/authorizer/node), with AuthorizeNodeWithSelectors (GA 1.34):
 * Allow or NoOpinion, only for `system:node:<name>` users in group `system:nodes`.
 */
export function authorizeNode(graph: NodeGraph, request: AuthzRequest): NodeDecision | undefined {
  const id = nodeIdentity(request.user);
  if (!id) return undefined;
  const nodeName = id.nodeName;
  if (nodeName === '') return NO('unknown node');
  const attrs = request.resource;
  if (attrs) {
    const decided = authorizeSubdivided(graph, nodeName, attrs);
    if (decided) return decided;
    for (const rule of NODE_RULES) if (ruleAllowsResource(rule, attrs)) return YES('node rules (system:node)');
    return NO('no node rule matched');
  }
  if (request.nonResource) {
    for (const rule of NODE_RULES) if (ruleAllowsNonResource(rule, request.nonResource)) return YES('node rules (system:node)');
  }
  return NO('no node rule matched');
}

/**
 * The reasons above name what NodeRestriction admission adds after the Node authorizer allows; on a
 * cluster that does not run it, they say so instead.
 */
export function withoutNodeRestriction(reason: string): string {
  return reason.replace(/\(NodeRestriction [^)]*\)/g, '(NodeRestriction admission is off: not limited to the own node)');
}

function authorizeSubdivided(graph: NodeGraph, nodeName: string, a: ResourceAttributes): NodeDecision | undefined {
  switch (a.group) {
    case '':
      switch (a.resource) {
        case 'secrets':
          return readNamespacedObject(graph, nodeName, 'secret', a);
        case 'configmaps':
          return readNamespacedObject(graph, nodeName, 'configmap', a);
        case 'persistentvolumeclaims':
          return a.subresource === 'status' ? statusUpdate(graph, nodeName, 'pvc', a) : getOnly(graph, nodeName, 'pvc', a);
        case 'persistentvolumes':
          return getOnly(graph, nodeName, 'pv', a);
        case 'serviceaccounts':
          return createToken(graph, nodeName, a);
        case 'nodes':
          return authorizeNodeObject(nodeName, a);
        case 'pods':
          return authorizePod(graph, nodeName, a);
      }
      return undefined;
    case 'resource.k8s.io':
      if (a.resource === 'resourceclaims') return getOnly(graph, nodeName, 'resourceclaim', a);
      if (a.resource === 'resourceslices') return authorizeResourceSlice(graph, nodeName, a);
      return undefined;
    case 'storage.k8s.io':
      // VolumeAttachments are not collected: the graph has none, so only its structural checks apply.
      if (a.resource === 'volumeattachments') return getOnly(graph, nodeName, undefined, a);
      if (a.resource === 'csinodes') return authorizeCsiNode(nodeName, a);
      return undefined;
    case 'coordination.k8s.io':
      if (a.resource === 'leases') return authorizeLease(nodeName, a);
      return undefined;
  }
  return undefined;
}

function related(graph: NodeGraph, nodeName: string, type: VertexType | undefined, a: ResourceAttributes): NodeDecision {
  if (a.name === '') return NO('No Object name found');
  if (type && graph.reaches(type, type === 'pv' || type === 'resourceslice' ? '' : a.namespace, a.name, nodeName))
    return YES(`${type} "${a.namespace ? `${a.namespace}/` : ''}${a.name}" is related to node "${nodeName}"`);
  return NO(`no relationship found between node '${nodeName}' and this object`);
}

function readNamespacedObject(graph: NodeGraph, nodeName: string, type: VertexType, a: ResourceAttributes): NodeDecision {
  if (a.verb !== 'get' && a.verb !== 'list' && a.verb !== 'watch') return NO('can only read resources of this type');
  if (a.subresource !== '') return NO('cannot read subresource');
  if (a.namespace === '') return NO('can only read namespaced object of this type');
  return related(graph, nodeName, type, a);
}

function getOnly(graph: NodeGraph, nodeName: string, type: VertexType | undefined, a: ResourceAttributes): NodeDecision {
  if (a.verb !== 'get') return NO('can only get individual resources of this type');
  if (a.subresource !== '') return NO('cannot get subresource');
  return related(graph, nodeName, type, a);
}

function statusUpdate(graph: NodeGraph, nodeName: string, type: VertexType, a: ResourceAttributes): NodeDecision {
  if (a.verb !== 'update' && a.verb !== 'patch') return NO('can only get/update/patch this type');
  if (a.subresource !== 'status') return NO('can only update status subresource');
  return related(graph, nodeName, type, a);
}

function createToken(graph: NodeGraph, nodeName: string, a: ResourceAttributes): NodeDecision {
  if (a.verb !== 'create' || a.name === '') return NO('can only create tokens for individual service accounts');
  if (a.subresource !== 'token') return NO('can only create token subresource of serviceaccount');
  return related(graph, nodeName, 'serviceaccount', a);
}

function authorizeNodeObject(nodeName: string, a: ResourceAttributes): NodeDecision {
  if (a.subresource === '') {
    if (a.verb === 'create' || a.verb === 'update' || a.verb === 'patch') return YES('nodes may write Node objects (NodeRestriction limits them to their own)');
    if (a.verb === 'get' || a.verb === 'list' || a.verb === 'watch') {
      if (a.name === nodeName) return YES('a node may read its own Node object');
      return NO(`node '${nodeName}' cannot read '${a.name}', only its own Node object`);
    }
    return NO('');
  }
  if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) {
    return YES('nodes may write nodes/status (NodeRestriction limits them to their own)');
  }
  return NO('');
}

function hasNodeNameSelector(a: ResourceAttributes, nodeName: string): boolean {
  for (const r of a.fieldSelector ?? []) if (r.field === 'spec.nodeName' && r.operator === '=' && r.value === nodeName) return true;
  return false;
}

function authorizePod(graph: NodeGraph, nodeName: string, a: ResourceAttributes): NodeDecision {
  switch (a.subresource) {
    case '':
      if (a.verb === 'get') return getOnly(graph, nodeName, 'pod', a);
      if (a.verb === 'list' || a.verb === 'watch') {
        if (hasNodeNameSelector(a, nodeName)) return YES('pods listed with fieldSelector spec.nodeName of the own node');
        if (a.name !== '') return related(graph, nodeName, 'pod', a);
        return NO('can only list/watch pods with spec.nodeName field selector');
      }
      if (a.verb === 'create' || a.verb === 'delete') return YES('mirror pods (NodeRestriction limits them to the own node)');
      return NO('');
    case 'status':
      if (a.verb === 'update' || a.verb === 'patch') return YES('pod status (NodeRestriction limits it to pods on the own node)');
      return NO('');
    case 'eviction':
      if (a.verb === 'create') return YES('pod eviction (NodeRestriction limits it to pods on the own node)');
      return NO('');
  }
  return NO('');
}

function authorizeLease(nodeName: string, a: ResourceAttributes): NodeDecision {
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return NO('can only get, create, update, patch, or delete a node lease');
  if (a.namespace !== 'kube-node-lease') return NO('can only access leases in the "kube-node-lease" system namespace');
  if (a.verb !== 'create' && a.name !== nodeName) return NO('can only access node lease with the same name as the requesting node');
  return YES('own node lease');
}

function authorizeCsiNode(nodeName: string, a: ResourceAttributes): NodeDecision {
  if (a.subresource !== '') return NO('cannot authorize CSINode subresources');
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return NO('can only get, create, update, patch, or delete a CSINode');
  if (a.verb !== 'create' && a.name !== nodeName) return NO('can only access CSINode with the same name as the requesting node');
  return YES('own CSINode');
}

function authorizeResourceSlice(graph: NodeGraph, nodeName: string, a: ResourceAttributes): NodeDecision {
  if (a.subresource !== '') return NO('cannot authorize ResourceSlice subresources');
  switch (a.verb) {
    case 'create':
      return YES('ResourceSlice create (NodeRestriction checks spec.nodeName)');
    case 'get':
    case 'update':
    case 'patch':
    case 'delete':
      return related(graph, nodeName, 'resourceslice', a);
    case 'watch':
    case 'list':
    case 'deletecollection':
      if (hasNodeNameSelector(a, nodeName)) return YES('ResourceSlices selected by spec.nodeName of the own node');
      return NO('can only list/watch/deletecollection resourceslices with nodeName field selector');
  }
  return NO('only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection');
}
