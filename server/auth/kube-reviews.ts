import 'server-only';
import { DASHBOARD_ACTIONS, DASHBOARD_API_GROUP, type DashboardAction } from '@/lib/api/dashboard-actions';
import { loadKubeconfig } from '@/server/kube/kubeconfig';
import { KubeHttp } from '@/server/kube/kube-http';
import { authKubeconfigFromEnv } from './auth-config';

/** Who a token belongs to, as the API server's TokenReview says. */
export interface AuthenticatedUser {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export type TokenReviewResult = { authenticated: true; user: AuthenticatedUser } | { authenticated: false; reason: string };

interface TokenReviewStatus {
  status?: { authenticated?: boolean; user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> }; error?: string };
}

interface AccessReviewStatus {
  status?: { allowed?: boolean; denied?: boolean; reason?: string; evaluationError?: string };
}

// One client per process, shared by the proxy and the route handlers (separate bundles) on globalThis.
const KEY = Symbol.for('dra-posture.auth-client');
const holder = globalThis as unknown as Record<symbol, Promise<KubeHttp> | undefined>;

function client(): Promise<KubeHttp> {
  // Sign-in must answer quickly: a short timeout and one retry, not the collector's patience.
  const made = (holder[KEY] ??= loadKubeconfig(authKubeconfigFromEnv()).then((access) => new KubeHttp(access, { timeoutMs: 5_000, maxRetries: 1 })));
  // A kubeconfig that could not be read is tried again on the next request, not remembered.
  made.catch(() => {
    if (holder[KEY] === made) holder[KEY] = undefined;
  });
  return made;
}

/** Asks the API server who presents this token (POST tokenreviews). Throws KubeError when it cannot answer. */
export async function reviewToken(token: string): Promise<TokenReviewResult> {
  const http = await client();
  const { body } = await http.post<TokenReviewStatus>('/apis/authentication.k8s.io/v1/tokenreviews', {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenReview',
    spec: { token },
  });
  const status = body.status ?? {};
  if (!status.authenticated || !status.user?.username) {
    return { authenticated: false, reason: status.error ? `the API server rejected the token: ${status.error}` : 'the API server did not accept the token' };
  }
  const user: AuthenticatedUser = { username: status.user.username, groups: status.user.groups ?? [] };
  if (status.user.uid) user.uid = status.user.uid;
  if (status.user.extra && Object.keys(status.user.extra).length > 0) user.extra = status.user.extra;
  return { authenticated: true, user };
}

/** Asks the API server whether this user may do a dashboard action (POST subjectaccessreviews). */
export async function reviewAccess(user: AuthenticatedUser, action: DashboardAction): Promise<boolean> {
  const http = await client();
  const { verb, resource } = DASHBOARD_ACTIONS[action];
  const spec: Record<string, unknown> = {
    user: user.username,
    groups: user.groups,
    resourceAttributes: { group: DASHBOARD_API_GROUP, resource, verb },
  };
  if (user.uid) spec.uid = user.uid;
  if (user.extra) spec.extra = user.extra;
  const { body } = await http.post<AccessReviewStatus>('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec,
  });
  return body.status?.allowed === true;
}

/** Forgets the client (tests point the server at another API server). */
export function resetAuthClient(): void {
  holder[KEY] = undefined;
}
