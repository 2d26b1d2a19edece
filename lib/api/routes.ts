// URL builders for the dashboard's pages and its HTTP API, in one place.

export interface AccessQuery {
  verb: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

export interface CanIQuery extends AccessQuery {
  user: string;
  groups?: string[];
  /** A service account's token bound to this node (authentication.kubernetes.io/node-name). */
  node?: string;
}

export interface GraphQuery {
  focus?: string;
  expand?: string[];
  expandAll?: boolean;
  riskyOnly?: boolean;
  /** An issue ID: highlight its attack path. */
  path?: string;
  /** The collapsed overview of every path instead of the default (the top risks' attack paths). */
  overview?: boolean;
  /** `TIER:BOXES`, sorted: boxes shown in a paged column of a focused view. */
  show?: string[];
  /** The reader agreed to draw this many boxes. */
  draw?: number;
  /** Ask before drawing more boxes than this (lower than the server's threshold only). */
  confirmAbove?: number;
}

function qs(params: Record<string, string | string[] | boolean | undefined>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === '' || v === false) continue;
    if (Array.isArray(v)) for (const item of v) sp.append(k, item);
    else sp.set(k, v === true ? '1' : v);
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

export const api = {
  report: () => '/api/v1/report',
  finding: (id: string) => `/api/v1/findings/${encodeURIComponent(id)}`,
  findings: (query: Record<string, string | undefined>) => `/api/v1/findings${qs(query)}`,
  blastRadius: (node: string) => `/api/v1/nodes/${encodeURIComponent(node)}/blast-radius`,
  nodeSearch: (q: string) => `/api/v1/nodes${qs({ q })}`,
  nodeView: (node: string) => `/api/v1/nodes/${encodeURIComponent(node)}/view`,
  nodeWriters: (q: { group: string; offset?: number; q?: string }) =>
    `/api/v1/node-writers${qs({ group: q.group, offset: q.offset ? String(q.offset) : undefined, q: q.q })}`,
  whoCan: (q: AccessQuery) => `/api/v1/who-can${qs({ ...q })}`,
  canI: (q: CanIQuery) => `/api/v1/can-i${qs({ ...q, groups: q.groups?.filter(Boolean) })}`,
  simulate: () => '/api/v1/simulate',
  /** The simulator's write for a who-can row (`key`: simulateRequestKey of the explorer's address). */
  simulatePrefill: (key: string) => `/api/v1/simulate/prefill${key ? `?${key}` : ''}`,
  graph: (q: GraphQuery) => `/api/v1/graph${qs(graphParams(q))}`,
  graphSearch: (q: string) => `/api/v1/graph/search${qs({ q })}`,
};

export const pages = {
  overview: () => '/',
  findings: (params: Record<string, string | string[] | undefined> = {}) => `/findings${qs(params)}`,
  finding: (id: string) => `/findings/${encodeURIComponent(id)}`,
  graph: (focus?: string) => `/graph${qs({ focus })}`,
  graphView: (q: GraphQuery) => `/graph${graphQueryString(q)}`,
  nodes: (node?: string) => `/nodes${qs({ node })}`,
  quotas: (namespace?: string) => `/quotas${qs({ namespace })}`,
  devices: () => '/devices',
  explorer: (params: Record<string, string | undefined> = {}) => `/explorer${qs(params)}`,
};

type ParamsLike = { get(name: string): string | null; getAll(name: string): string[] };

/** The graph view's URL state, normalised so server prefetch and client hooks build the same query key. */
export function parseGraphQuery(params: ParamsLike): GraphQuery {
  const q: GraphQuery = {};
  const focus = params.get('focus');
  if (focus) q.focus = focus;
  const expand = [
    ...new Set(
      params
        .getAll('expand')
        .flatMap((v) => v.split(','))
        .filter(Boolean),
    ),
  ].sort();
  if (expand.length) q.expand = expand;
  if (params.get('all') === '1') q.expandAll = true;
  const path = params.get('path');
  if (path && /^[0-9a-f]{16}$/.test(path)) q.path = path;
  if (params.get('risky') === '1') q.riskyOnly = true;
  if (params.get('view') === 'overview') q.overview = true;
  const show = [...new Set(params.getAll('show').flatMap((v) => v.split(',')))].filter((v) => /^[0-2]:\d{1,6}$/.test(v)).sort();
  if (show.length) q.show = show;
  for (const key of ['draw', 'confirmAbove'] as const) {
    const v = params.get(key);
    if (v && /^\d{1,7}$/.test(v)) q[key] = Number(v);
  }
  return q;
}

/** The graph API's query parameters for a view (lists repeated, flags "1"), as the server's GraphQuerySchema reads them. */
export function graphParams(q: GraphQuery): Record<string, string | string[]> {
  const all: Record<string, string | string[] | boolean | undefined> = {
    focus: q.focus,
    expand: q.expand,
    all: q.expandAll,
    risky: q.riskyOnly,
    path: q.path,
    view: q.overview ? 'overview' : undefined,
    show: q.show,
    draw: q.draw === undefined ? undefined : String(q.draw),
    confirmAbove: q.confirmAbove === undefined ? undefined : String(q.confirmAbove),
  };
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(all))
    if (v !== undefined && v !== false && v !== '' && !(Array.isArray(v) && v.length === 0)) out[k] = v === true ? '1' : v;
  return out;
}

export function graphQueryString(q: GraphQuery): string {
  const params = graphParams(q);
  return qs({ ...params, expand: q.expand?.length ? q.expand.join(',') : undefined, show: q.show?.length ? q.show.join(',') : undefined });
}

export type ExplorerMode = 'who-can' | 'can-i';

export interface ExplorerState {
  mode: ExplorerMode;
  access: AccessQuery;
  user: string;
  groups: string[];
  node: string;
}

/** The explorer's question from the URL; `ready` when it is complete enough to ask. */
export function parseExplorerState(params: ParamsLike): ExplorerState & { ready: boolean } {
  const get = (k: string) => (params.get(k) ?? '').trim();
  const mode: ExplorerMode = get('mode') === 'can-i' ? 'can-i' : 'who-can';
  const access: AccessQuery = { verb: get('verb'), resource: get('resource') };
  for (const k of ['subresource', 'namespace', 'name'] as const) if (get(k)) access[k] = get(k);
  const groups = params
    .getAll('groups')
    .flatMap((g) => g.split(','))
    .map((g) => g.trim())
    .filter(Boolean);
  const state = { mode, access, user: get('user'), groups, node: get('node') };
  const ready = !!access.verb && !!access.resource && (mode === 'who-can' || !!state.user);
  return { ...state, ready };
}

export function explorerCanIQuery(s: ExplorerState): CanIQuery {
  const q: CanIQuery = { ...s.access, user: s.user };
  if (s.groups.length) q.groups = s.groups;
  if (s.node) q.node = s.node;
  return q;
}
