import 'server-only';
import { buildClusterState, type RawItem } from '@/lib/k8s/build-cluster-state';
import type { ClusterState, UnreadKind } from '@/lib/k8s/cluster-state';
import { KINDS, type KindDescriptor } from '@/lib/k8s/kinds';
import { NAMESPACED_RBAC_KINDS } from '@/lib/authz/kinds-for-question';
import { isApiServerPod } from '@/lib/k8s/api-server-flags';
import { compareStrings } from '@/lib/k8s/refs';
import { discoverApi, DRA_GROUP, type ApiDiscovery } from './discover-api';
import { KubeHttp, type KubeHttpOptions } from './kube-http';
import { KubeError } from './kube-errors';
import { loadKubeconfig, type KubeconfigOptions } from './kubeconfig';
import { listKind, type ListPage } from './list-kind';

const MAX_SCOPED_NAMESPACES = 4;

/** Kinds the live source never reads: Secrets are not in KINDS at all; ConfigMap values are never needed. */
const NOT_LISTED = new Set(['ConfigMap']);

export interface CollectStats {
  listCalls: number;
  restarts: number;
  durationMs: number;
}

export interface LiveCollection {
  state: ClusterState;
  discovery: ApiDiscovery;
  stats: CollectStats;
  /** The resourceVersion of each kind's list, for watches to continue from. */
  resourceVersions: Map<string, string>;
  /** Namespaces each namespaced kind had to be read from one by one (cluster-wide list forbidden). */
  perNamespace: Map<string, string[]>;
}

export function resourceLabel(kind: KindDescriptor): string {
  return kind.group ? `${kind.resource}.${kind.group}` : kind.resource;
}

/** The warning shown next to the data when a kind cannot be listed at all. */
export function forbiddenWarning(kind: KindDescriptor): string {
  return `cannot list ${resourceLabel(kind)}: forbidden by RBAC; results that depend on them are incomplete`;
}

export function readableKinds(discovery: ApiDiscovery, only?: ReadonlySet<string>): { kind: KindDescriptor; version: string }[] {
  const out: { kind: KindDescriptor; version: string }[] = [];
  for (const kind of KINDS) {
    if (NOT_LISTED.has(kind.kind) || (only && !only.has(kind.kind))) continue;
    if (kind.group === DRA_GROUP) {
      if (discovery.draVersion) out.push({ kind, version: discovery.draVersion });
      continue;
    }
    out.push({ kind, version: kind.versions[0] });
  }
  return out;
}

/**
 * One full read of a live cluster: discovery, then every kind (or only the kinds in `kinds`, for a
 * question that needs no more) with paginated lists, all kinds in parallel.
 * A 403 on a kind becomes a warning next to the data; a namespaced kind that cannot be listed
 * cluster-wide is retried in the context's namespace.
 */
export async function collectLiveCluster(
  options: KubeconfigOptions & { http?: KubeHttpOptions; namespaces?: string[]; kinds?: ReadonlySet<string>; rbacNamespaces?: ReadonlySet<string> } = {},
): Promise<LiveCollection> {
  const started = Date.now();
  const access = await loadKubeconfig(options);
  const contextName = access.contextName;
  const http = new KubeHttp(access, options.http);
  const only = options.kinds;
  const discoveryP = discoverApi(http, { dra: !only || KINDS.some((k) => k.group === DRA_GROUP && only.has(k.kind)) });
  const warnings: string[] = [];
  /** Kinds not read in full, for the report's `partial` and its unknown checks. */
  const unread: UnreadKind[] = [];
  const items: RawItem[] = [];
  const resourceVersions = new Map<string, string>();
  const perNamespace = new Map<string, string[]>();
  let listCalls = 0;
  let restarts = 0;
  const contextNamespace = access.namespace;
  const fallbackNamespaces = [...new Set([...(options.namespaces ?? []), ...(contextNamespace ? [contextNamespace] : [])])];

  const addPages = (pages: ListPage[], kind: KindDescriptor, version: string) => {
    const apiVersion = kind.group ? `${kind.group}/${version}` : version;
    for (const page of pages)
      items.push({ value: { apiVersion, kind: `${kind.kind}List`, items: page.items ?? [] }, origin: { file: `live:${kind.resource}` } });
  };

  // A question asked in a few namespaces reads their Roles and RoleBindings alone (a RoleBinding
  // grants nothing outside its namespace); beyond a few, one cluster-wide list is fewer requests.
  const scoped = options.rbacNamespaces && options.rbacNamespaces.size <= MAX_SCOPED_NAMESPACES ? [...options.rbacNamespaces] : undefined;
  /** Lists a namespaced kind in each of `namespaces`; the namespaces it could read (RBAC may forbid some). */
  const listIn = async (kind: KindDescriptor, version: string, namespaces: string[]): Promise<string[]> => {
    const results = await Promise.all(
      namespaces.map(async (ns) => {
        try {
          return await listKind(http, kind, version, ns);
        } catch (e) {
          if ((e as KubeError).code !== 'forbidden') throw e;
          return undefined;
        }
      }),
    );
    // In the namespaces' order, whichever answered first, so the state is the same each time.
    const read: string[] = [];
    results.forEach((r, i) => {
      if (!r) return;
      listCalls += r.listCalls;
      addPages(r.pages, kind, version);
      read.push(namespaces[i]);
    });
    return read;
  };

  const listOne = async ({ kind, version }: { kind: KindDescriptor; version: string }) => {
    if (scoped && NAMESPACED_RBAC_KINDS.has(kind.kind)) {
      const read = await listIn(kind, version, scoped);
      for (const ns of scoped)
        if (!read.includes(ns)) {
          const warning = `cannot list ${resourceLabel(kind)} in namespace ${ns}: forbidden by RBAC; results that depend on them are incomplete`;
          warnings.push(warning);
          unread.push({ kind: kind.kind, reason: warning });
        }
      return;
    }
    try {
      const r = await listKind(http, kind, version);
      listCalls += r.listCalls;
      restarts += r.restarts;
      addPages(r.pages, kind, version);
      if (r.resourceVersion) resourceVersions.set(kind.kind, r.resourceVersion);
    } catch (e) {
      const err = e as KubeError;
      if (err.code !== 'forbidden') throw e;
      if (!kind.namespaced || fallbackNamespaces.length === 0) {
        warnings.push(forbiddenWarning(kind));
        unread.push({ kind: kind.kind, reason: forbiddenWarning(kind) });
        return;
      }
      const readIn = await listIn(kind, version, fallbackNamespaces);
      perNamespace.set(kind.kind, readIn);
      const warning =
        readIn.length > 0
          ? `cannot list ${resourceLabel(kind)} cluster-wide: read only in namespace${readIn.length > 1 ? 's' : ''} ${readIn.join(', ')}`
          : forbiddenWarning(kind);
      warnings.push(warning);
      unread.push({ kind: kind.kind, reason: warning });
    }
  };
  // A question that reads no pods still needs the API server's own (kube-system/kube-apiserver-*):
  // their flags set the authorizers, NodeRestriction and the feature gates it is decided with.
  const apiServerPods = async () => {
    const pod = KINDS.find((k) => k.kind === 'Pod')!;
    try {
      const r = await listKind(http, pod, 'v1', 'kube-system');
      listCalls += r.listCalls;
      const pages = r.pages.map((p) => ({
        ...p,
        items: (p.items ?? []).filter((o) => isApiServerPod((o as { metadata?: { namespace?: unknown; name?: unknown } }).metadata)),
      }));
      addPages(pages, pod, 'v1');
    } catch (e) {
      if ((e as KubeError).code !== 'forbidden') throw e;
    }
  };

  // Kinds outside resource.k8s.io have one version, so their lists start beside discovery; the DRA
  // kinds wait for the version it finds.
  const [discovery] = await Promise.all([
    discoveryP.then(async (d) => {
      await Promise.all(
        readableKinds(d, only)
          .filter(({ kind }) => kind.group === DRA_GROUP)
          .map(listOne),
      );
      return d;
    }),
    Promise.all(readableKinds({ draServedVersions: [], warnings: [] }, only).map(listOne)),
  ]);
  // After the others: one more small list, on a connection they opened.
  if (only && !only.has('Pod')) await apiServerPods();
  warnings.push(...discovery.warnings);

  // Pages arrive in whatever order the requests finish; sort by kind so the state is stable.
  const order = new Map(KINDS.map((k, i) => [`live:${k.resource}`, i]));
  items.sort((a, b) => (order.get(a.origin.file ?? '') ?? 0) - (order.get(b.origin.file ?? '') ?? 0));
  const state = buildClusterState(
    items,
    {
      kind: 'live',
      name: contextName,
      collectedAt: new Date(started).toISOString(),
      kubernetesVersion: discovery.kubernetesVersion,
      ...(unread.length > 0 ? { unreadKinds: unread.sort((a, b) => compareStrings(a.kind, b.kind) || compareStrings(a.reason, b.reason)) } : {}),
    },
    { onInvalid: 'skip' },
  );
  state.warnings.push(...warnings.sort());
  return { state, discovery, stats: { listCalls, restarts, durationMs: Date.now() - started }, resourceVersions, perNamespace };
}
