import 'server-only';

// `serve --auth` hands its choice to the Next.js process through these (like the request gate's host).
export const AUTH_MODE_ENV = 'DRA_POSTURE_AUTH';
/** The kubeconfig (and context) whose API server reviews tokens and access; else the source's, else in-cluster. */
export const AUTH_KUBECONFIG_ENV = 'DRA_POSTURE_AUTH_KUBECONFIG';
export const AUTH_CONTEXT_ENV = 'DRA_POSTURE_AUTH_CONTEXT';

export type AuthMode = 'none' | 'kubernetes';

export function authModeFromEnv(env: Record<string, string | undefined> = process.env): AuthMode {
  return env[AUTH_MODE_ENV] === 'kubernetes' ? 'kubernetes' : 'none';
}

/** Where token and access reviews go: the auth kubeconfig, else the live source's, else the default (in-cluster). */
export function authKubeconfigFromEnv(env: Record<string, string | undefined> = process.env): { kubeconfig?: string; context?: string } {
  const own = env[AUTH_KUBECONFIG_ENV];
  if (own) return { kubeconfig: own, context: env[AUTH_CONTEXT_ENV] || undefined };
  return { kubeconfig: env.DRA_POSTURE_KUBECONFIG || undefined, context: env[AUTH_CONTEXT_ENV] || env.DRA_POSTURE_CONTEXT || undefined };
}
