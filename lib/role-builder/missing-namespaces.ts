import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { RoleBundle } from './types';

/**
 * What to say about namespaces the bundle puts objects in that the cluster does not have: the API
 * server refuses a namespaced object whose namespace does not exist (NotFound), so applied as it is
 * the bundle would fail. Nothing is said when the source holds no Namespace objects or could not
 * read them all (their absence proves nothing then).
 */
export function missingNamespaceNotes(state: Pick<ClusterState, 'namespaces' | 'source'>, bundle: RoleBundle): string[] {
  if (state.namespaces.length === 0 || state.source.unreadKinds?.some((u) => u.kind === 'Namespace')) return [];
  const known = new Set(state.namespaces.map((n) => n.metadata.name));
  const kindsIn = new Map<string, Set<string>>();
  for (const { object } of bundle.objects) {
    const ns = object.metadata.namespace;
    if (!ns || known.has(ns)) continue;
    let kinds = kindsIn.get(ns);
    if (!kinds) kindsIn.set(ns, (kinds = new Set()));
    kinds.add(object.kind);
  }
  return [...kindsIn].map(
    ([ns, kinds]) =>
      `Namespace ${ns} does not exist in this cluster: the API server refuses the bundle's ${[...kinds].join(', ')} there (namespaces "${ns}" not found). Create the namespace first, or check its name.`,
  );
}
