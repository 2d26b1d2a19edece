import 'server-only';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { UsageError } from './usage-error';

export interface SourceFlags {
  snapshot?: string;
  demo?: boolean;
  kubeconfig?: string;
  context?: string;
}

export const SOURCE_OPTIONS = {
  snapshot: { type: 'string' },
  demo: { type: 'boolean' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  'max-snapshot-bytes': { type: 'string' },
} as const;

/**
 * The cluster a command reads: --snapshot PATH, --demo, or a live kubeconfig. `needs.kinds` narrows
 * the read to the kinds a question needs: a live read lists only those; a snapshot is still parsed
 * and scanned whole (the format has no index), but only those kinds are normalised and kept, so a
 * malformed object of another kind does not stop the question. `needs.rbacNamespaces` (a question
 * asked in a few namespaces) lets a live read list Roles and RoleBindings in those alone. The demo
 * is small and read whole.
 */
export async function loadClusterFromFlags(
  flags: SourceFlags & { 'max-snapshot-bytes'?: string },
  needs: { kinds?: ReadonlySet<string>; rbacNamespaces?: ReadonlySet<string> } = {},
): Promise<ClusterState> {
  const chosen = [flags.snapshot !== undefined, !!flags.demo, flags.kubeconfig !== undefined || flags.context !== undefined].filter(Boolean).length;
  if (chosen > 1) throw new UsageError('choose one source: --snapshot PATH, --demo, or --kubeconfig/--context');
  if (flags.snapshot !== undefined) {
    let maxBytes: number | undefined;
    if (flags['max-snapshot-bytes'] !== undefined) {
      maxBytes = Number(flags['max-snapshot-bytes']);
      if (!Number.isInteger(maxBytes) || maxBytes <= 0) throw new UsageError('--max-snapshot-bytes expects a positive whole number of bytes');
    }
    // Each source is imported when chosen: a live question then never loads the YAML/JSON parsers.
    const { loadSnapshot } = await import('@/server/sources/snapshot-source');
    return loadSnapshot(flags.snapshot, { maxBytes, kinds: needs.kinds });
  }
  if (flags.demo) {
    const { loadDemo } = await import('@/server/sources/demo-source');
    return loadDemo();
  }
  if (flags.kubeconfig !== undefined || flags.context !== undefined) {
    const { loadLiveCluster } = await import('@/server/sources/live-source');
    return loadLiveCluster({ kubeconfig: flags.kubeconfig, context: flags.context, kinds: needs.kinds, rbacNamespaces: needs.rbacNamespaces });
  }
  throw new UsageError('no cluster given: use --snapshot PATH, --demo, or --kubeconfig FILE [--context NAME]');
}
