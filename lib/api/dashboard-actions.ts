// What a viewer may do with the dashboard, as Kubernetes authorizes it under `serve --auth kubernetes`:
// each action is a verb on a resource of the API group dra-posture.io, so a cluster's own RBAC
// (ClusterRoles in deploy/15-user-roles.yaml) decides who may do it, checked per request with a
// SubjectAccessReview. The table below maps every request the server answers to one action; a
// request it does not list needs "get reports" when it only reads and is refused otherwise, so a new
// write route is closed until it is named here (dashboard-actions.test.ts walks every route).

export const DASHBOARD_API_GROUP = 'dra-posture.io';

export const DASHBOARD_ACTIONS = {
  /** Every page and read API: the report, findings, nodes, graph, explorer answers, approval history. */
  'get reports': { verb: 'get', resource: 'reports' },
  /** What-if computations: simulate a write, build and review a role. */
  'create simulations': { verb: 'create', resource: 'simulations' },
  /** Record an approval or rejection of a generated role. */
  'create approvals': { verb: 'create', resource: 'approvals' },
  /** List, download and compare compliance snapshots. */
  'get snapshots': { verb: 'get', resource: 'snapshots' },
  /** Take a compliance snapshot. */
  'create snapshots': { verb: 'create', resource: 'snapshots' },
  /** Switch the cluster source, upload a snapshot or an audit log. */
  'create sources': { verb: 'create', resource: 'sources' },
} as const;

export type DashboardAction = keyof typeof DASHBOARD_ACTIONS;

export const DASHBOARD_ACTION_NAMES = Object.keys(DASHBOARD_ACTIONS) as DashboardAction[];

/** "create approvals.dra-posture.io": how the UI and error messages name an action. */
export function describeAction(action: DashboardAction): string {
  const { verb, resource } = DASHBOARD_ACTIONS[action];
  return `${verb} ${resource}.${DASHBOARD_API_GROUP}`;
}

/** Requests anyone may send, signed in or not: signing in itself and the liveness probe. */
const PUBLIC_PATHS = new Set(['/sign-in', '/api/v1/session', '/api/healthz', '/icon.svg', '/favicon.ico', '/robots.txt']);

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface PathRule {
  pattern: RegExp;
  /** Action per HTTP method; '*' for any method the rule does not name. */
  actions: Partial<Record<string, DashboardAction>>;
}

const RULES: PathRule[] = [
  { pattern: /^\/api\/v1\/simulate$/, actions: { POST: 'create simulations' } },
  { pattern: /^\/api\/v1\/role-builder\/build$/, actions: { POST: 'create simulations' } },
  { pattern: /^\/api\/v1\/role-builder\/approvals$/, actions: { GET: 'get reports', POST: 'create approvals' } },
  { pattern: /^\/api\/v1\/snapshots$/, actions: { GET: 'get snapshots', POST: 'create snapshots' } },
  // The current report as a bundle or document: the report itself, not a kept snapshot.
  { pattern: /^\/api\/v1\/snapshots\/current\/[^/]+$/, actions: { GET: 'get reports' } },
  { pattern: /^\/api\/v1\/snapshots\/.+$/, actions: { GET: 'get snapshots' } },
  { pattern: /^\/snapshots(\/.*)?$/, actions: { GET: 'get snapshots' } },
  { pattern: /^\/api\/v1\/sources\/(select|upload|reset|audit)$/, actions: { POST: 'create sources', DELETE: 'create sources' } },
];

export type RequestAccess = { kind: 'public' } | { kind: 'action'; action: DashboardAction } | { kind: 'refused'; reason: string };

/** The action a request needs (pathname without query), or that it is public, or refused outright. */
export function accessForRequest(method: string, pathname: string): RequestAccess {
  const m = method.toUpperCase();
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (PUBLIC_PATHS.has(path)) return { kind: 'public' };
  for (const rule of RULES) {
    if (!rule.pattern.test(path)) continue;
    const action = rule.actions[m] ?? (READS.has(m) ? rule.actions.GET : undefined);
    if (action) return { kind: 'action', action };
    break;
  }
  if (READS.has(m)) return { kind: 'action', action: 'get reports' };
  return { kind: 'refused', reason: `${m} ${path} is not an action this server knows` };
}
