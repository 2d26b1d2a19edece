/** Built-in resource types the CLI understands without discovery (kubectl's names and short names). */
export interface ResourceType {
  group: string;
  resource: string;
  namespaced: boolean;
}

const TABLE: [string, string, boolean, string[]][] = [
  // [group, plural, namespaced, aliases (singular and short names)]
  ['', 'pods', true, ['pod', 'po']],
  ['', 'nodes', false, ['node', 'no']],
  ['', 'namespaces', false, ['namespace', 'ns']],
  ['', 'services', true, ['service', 'svc']],
  ['', 'secrets', true, ['secret']],
  ['', 'configmaps', true, ['configmap', 'cm']],
  ['', 'serviceaccounts', true, ['serviceaccount', 'sa']],
  ['', 'persistentvolumeclaims', true, ['persistentvolumeclaim', 'pvc']],
  ['', 'persistentvolumes', false, ['persistentvolume', 'pv']],
  ['', 'events', true, ['event', 'ev']],
  ['', 'endpoints', true, ['ep']],
  ['', 'resourcequotas', true, ['resourcequota', 'quota']],
  ['', 'limitranges', true, ['limitrange', 'limits']],
  ['', 'replicationcontrollers', true, ['replicationcontroller', 'rc']],
  ['', 'podtemplates', true, ['podtemplate']],
  ['apps', 'deployments', true, ['deployment', 'deploy']],
  ['apps', 'daemonsets', true, ['daemonset', 'ds']],
  ['apps', 'statefulsets', true, ['statefulset', 'sts']],
  ['apps', 'replicasets', true, ['replicaset', 'rs']],
  ['apps', 'controllerrevisions', true, ['controllerrevision']],
  ['batch', 'jobs', true, ['job']],
  ['batch', 'cronjobs', true, ['cronjob', 'cj']],
  ['rbac.authorization.k8s.io', 'roles', true, ['role']],
  ['rbac.authorization.k8s.io', 'rolebindings', true, ['rolebinding']],
  ['rbac.authorization.k8s.io', 'clusterroles', false, ['clusterrole']],
  ['rbac.authorization.k8s.io', 'clusterrolebindings', false, ['clusterrolebinding']],
  ['resource.k8s.io', 'resourceclaims', true, ['resourceclaim']],
  ['resource.k8s.io', 'resourceclaimtemplates', true, ['resourceclaimtemplate']],
  ['resource.k8s.io', 'resourceslices', false, ['resourceslice']],
  ['resource.k8s.io', 'deviceclasses', false, ['deviceclass']],
  ['resource.k8s.io', 'devicetaintrules', false, ['devicetaintrule']],
  ['admissionregistration.k8s.io', 'validatingadmissionpolicies', false, ['validatingadmissionpolicy']],
  ['admissionregistration.k8s.io', 'validatingadmissionpolicybindings', false, ['validatingadmissionpolicybinding']],
  ['admissionregistration.k8s.io', 'validatingwebhookconfigurations', false, ['validatingwebhookconfiguration']],
  ['admissionregistration.k8s.io', 'mutatingwebhookconfigurations', false, ['mutatingwebhookconfiguration']],
  ['coordination.k8s.io', 'leases', true, ['lease']],
  ['storage.k8s.io', 'csinodes', false, ['csinode']],
  ['storage.k8s.io', 'csidrivers', false, ['csidriver']],
  ['storage.k8s.io', 'storageclasses', false, ['storageclass', 'sc']],
  ['storage.k8s.io', 'volumeattachments', false, ['volumeattachment']],
  ['certificates.k8s.io', 'certificatesigningrequests', false, ['certificatesigningrequest', 'csr']],
  ['authentication.k8s.io', 'tokenreviews', false, ['tokenreview']],
  ['authorization.k8s.io', 'subjectaccessreviews', false, ['subjectaccessreview']],
  ['authorization.k8s.io', 'selfsubjectaccessreviews', false, ['selfsubjectaccessreview']],
  ['authorization.k8s.io', 'localsubjectaccessreviews', true, ['localsubjectaccessreview']],
  ['networking.k8s.io', 'networkpolicies', true, ['networkpolicy', 'netpol']],
  ['networking.k8s.io', 'ingresses', true, ['ingress', 'ing']],
  ['policy', 'poddisruptionbudgets', true, ['poddisruptionbudget', 'pdb']],
  ['node.k8s.io', 'runtimeclasses', false, ['runtimeclass']],
  ['apiextensions.k8s.io', 'customresourcedefinitions', false, ['customresourcedefinition', 'crd', 'crds']],
];

const BY_NAME = new Map<string, ResourceType[]>();
for (const [group, resource, namespaced, aliases] of TABLE) {
  for (const name of [resource, ...aliases]) {
    const list = BY_NAME.get(name) ?? [];
    list.push({ group, resource, namespaced });
    BY_NAME.set(name, list);
  }
}

export interface ResolvedType extends ResourceType {
  /** Set when the type is not a known built-in: it is used as given, like kubectl does. */
  warning?: string;
}

/**
 * Resolves kubectl's TYPE[.GROUP] (`pods`, `po`, `deployments.apps`, `resourceclaims.resource.k8s.io`,
 * `deployments.v1.apps`) to a group and plural resource.
 */
export function resolveResourceType(type: string): ResolvedType {
  const dot = type.indexOf('.');
  const name = (dot < 0 ? type : type.slice(0, dot)).toLowerCase();
  let group = dot < 0 ? undefined : type.slice(dot + 1);
  if (group !== undefined && /^v\d+((alpha|beta)\d+)?\./.test(group)) group = group.slice(group.indexOf('.') + 1);
  const candidates = BY_NAME.get(name) ?? [];
  const match = group === undefined ? candidates[0] : candidates.find((c) => c.group === group);
  if (match) return { ...match };
  if (group !== undefined) return { group, resource: name, namespaced: true, warning: `resource type "${type}" is not a known built-in; asking as given` };
  return { group: '', resource: name, namespaced: true, warning: `the server may not have a resource type "${type}"` };
}
