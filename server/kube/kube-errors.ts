import 'server-only';

export type KubeErrorCode =
  'unreachable' | 'unauthorized' | 'forbidden' | 'not_found' | 'gone' | 'throttled' | 'server_error' | 'bad_response' | 'invalid_kubeconfig';

/** An API server failure with a short message that never carries credentials or headers. */
export class KubeError extends Error {
  constructor(
    readonly code: KubeErrorCode,
    message: string,
    readonly status?: number,
    readonly retryAfterSeconds?: number,
  ) {
    super(message.length > 300 ? `${message.slice(0, 297)}...` : message);
    this.name = 'KubeError';
  }
}

export function codeForStatus(status: number): KubeErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 410) return 'gone';
  if (status === 429) return 'throttled';
  return 'server_error';
}
