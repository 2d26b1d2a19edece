import 'server-only';

export type KubeErrorCode =
  | 'unreachable'
  /** The server's certificate did not verify (wrong CA or server name, expired): asking again will not help. */
  | 'untrusted_server'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'gone'
  | 'throttled'
  | 'server_error'
  | 'bad_response'
  | 'invalid_kubeconfig';

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

// By name, not instanceof: the production server bundles this class into several chunks (see
// isSnapshotError), and a live source's error is made in one and judged in another.
export function isKubeError(error: unknown): error is KubeError {
  return error instanceof Error && error.name === 'KubeError' && 'code' in error;
}

export function codeForStatus(status: number): KubeErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 410) return 'gone';
  if (status === 429) return 'throttled';
  return 'server_error';
}

// OpenSSL's verification failures as Node reports them (err.code), and the host name check.
const UNTRUSTED =
  /^(ERR_TLS_CERT_ALTNAME_INVALID|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_(HAS_EXPIRED|NOT_YET_VALID|REVOKED|UNTRUSTED|REJECTED|SIGNATURE_FAILURE)|INVALID_CA|HOSTNAME_MISMATCH)$/;

/** The code for a failed connection: a certificate that does not verify, or an unreachable server. */
export function codeForNetworkError(e: Error & { code?: string }): KubeErrorCode {
  return e.code && UNTRUSTED.test(e.code) ? 'untrusted_server' : 'unreachable';
}
