import type { PolicyRule } from '@/lib/k8s/types';

const READ = ['get', 'list', 'watch'];

/**
 * bootstrappolicy.NodeRules(): what the Node authorizer allows any node for resources it does
 * not subdivide (secrets, pods, nodes... are decided by the graph instead).
 */
export const NODE_RULES: readonly PolicyRule[] = [
  { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'] },
  { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews', 'localsubjectaccessreviews'] },
  { verbs: READ, apiGroups: [''], resources: ['services'] },
  { verbs: ['create', 'get', 'list', 'watch'], apiGroups: [''], resources: ['nodes'] },
  { verbs: ['update', 'patch'], apiGroups: [''], resources: ['nodes/status'] },
  { verbs: ['update', 'patch'], apiGroups: [''], resources: ['nodes'] },
  { verbs: ['create', 'update', 'patch'], apiGroups: [''], resources: ['events'] },
  { verbs: READ, apiGroups: [''], resources: ['pods'] },
  { verbs: ['create', 'delete'], apiGroups: [''], resources: ['pods'] },
  { verbs: ['update', 'patch'], apiGroups: [''], resources: ['pods/status'] },
  { verbs: ['create'], apiGroups: [''], resources: ['pods/eviction'] },
  { verbs: READ, apiGroups: [''], resources: ['secrets', 'configmaps'] },
  { verbs: ['get'], apiGroups: [''], resources: ['persistentvolumeclaims', 'persistentvolumes'] },
  { verbs: ['get'], apiGroups: [''], resources: ['endpoints'] },
  { verbs: ['create', 'get', 'list', 'watch'], apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'] },
  { verbs: ['get', 'create', 'update', 'patch', 'delete'], apiGroups: ['coordination.k8s.io'], resources: ['leases'] },
  { verbs: ['get'], apiGroups: ['storage.k8s.io'], resources: ['volumeattachments'] },
  { verbs: ['create'], apiGroups: [''], resources: ['serviceaccounts/token'] },
  { verbs: ['get', 'update', 'patch'], apiGroups: [''], resources: ['persistentvolumeclaims/status'] },
  { verbs: ['get', 'watch', 'list'], apiGroups: ['storage.k8s.io'], resources: ['csidrivers'] },
  { verbs: ['get', 'create', 'update', 'patch', 'delete'], apiGroups: ['storage.k8s.io'], resources: ['csinodes'] },
  { verbs: READ, apiGroups: ['node.k8s.io'], resources: ['runtimeclasses'] },
  { verbs: ['get'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'] },
  { verbs: ['deletecollection'], apiGroups: ['resource.k8s.io'], resources: ['resourceslices'] },
];
