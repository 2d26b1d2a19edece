import { emptyClusterState, type ClusterState, type SourceInfo } from './cluster-state';
import type { KindDescriptor } from './kinds';
import { compareStrings } from './refs';
import type { KubeObject } from './types';

/** One kind's objects as a watch keeps them: `generation` changes whenever they do. */
export interface KindObjects {
  kind: KindDescriptor;
  generation: number;
  objects(): KubeObject[];
}

/**
 * ClusterStates of a live cluster, one per version. The list of a kind whose generation has not
 * changed is the very array of the previous version, so an analysis can tell what changed by
 * identity and keep what was built from the rest (createAuthzEngine's `previous`); a changed kind
 * is listed and sorted again.
 */
export class StateAssembler {
  private readonly lists = new Map<string, { generation: number; list: KubeObject[] }>();

  assemble(source: SourceInfo, kinds: readonly KindObjects[], warnings: readonly string[]): ClusterState {
    const state = emptyClusterState(source);
    for (const k of kinds) {
      let cached = this.lists.get(k.kind.collection);
      if (!cached || cached.generation !== k.generation) {
        const list = k.objects();
        list.sort(byNamespaceAndName);
        this.lists.set(k.kind.collection, (cached = { generation: k.generation, list }));
      }
      (state as unknown as Record<string, KubeObject[]>)[k.kind.collection] = cached.list;
    }
    state.warnings.push(...warnings);
    return state;
  }
}

function byNamespaceAndName(a: KubeObject, b: KubeObject): number {
  return compareStrings(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || compareStrings(a.metadata.name, b.metadata.name);
}
