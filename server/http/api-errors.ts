import 'server-only';
import { z } from 'zod';
import type { ApiErrorBody, ApiErrorCode } from '@/lib/api/dto';
import { isSnapshotError } from '@/lib/k8s/snapshot-error';
import { isStoreError } from '@/server/store/store-error';
import { isKubeError } from '@/server/kube/kube-errors';

// The HTTP API's error envelope (DESIGN §5): {"error": {"code", "message"}} with the right status,
// never a stack trace; every API response is uncacheable and inert if opened as a document.

const STATUS: Record<ApiErrorCode, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  too_large: 413,
  too_many_requests: 429,
  invalid_snapshot: 400,
  source_unavailable: 503,
  store_unavailable: 503,
  auth_unavailable: 503,
  internal: 500,
};
const MAX_MESSAGE = 200;

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    /** Sent with the error response (Retry-After on a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** By name (see isKubeError): an ApiError made in one server chunk may be judged in another. */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof Error && error.name === 'ApiError' && 'code' in error && 'headers' in error;
}

export const API_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
};

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...API_HEADERS, ...headers } });
}

export function errorResponse(code: ApiErrorCode, message: string, headers: Record<string, string> = {}): Response {
  const body: ApiErrorBody = { error: { code, message: clip(message) } };
  return jsonResponse(body, STATUS[code], headers);
}

function clip(message: string): string {
  const oneLine = message.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_MESSAGE ? `${oneLine.slice(0, MAX_MESSAGE - 1)}…` : oneLine;
}

/** Maps anything thrown to the envelope: ApiError as is, bad query → 400, bad source → 503, else a generic 500. */
export function toErrorResponse(error: unknown): Response {
  if (isApiError(error)) return errorResponse(error.code, error.message, error.headers);
  if (error instanceof z.ZodError) return errorResponse('bad_request', formatZodError(error));
  const sourceFailure = sourceFailureMessage(error);
  if (sourceFailure) return errorResponse('source_unavailable', sourceFailure);
  if (isStoreError(error)) return errorResponse('store_unavailable', error.message);
  console.error('[api] unexpected error:', error instanceof Error ? error.message : String(error));
  return errorResponse('internal', 'internal error');
}

/**
 * Why the cluster source cannot be read (a bad snapshot, an API server failure), for the 503 and the
 * pages' banner; undefined for any other error. A 401 names the credentials, not the network.
 */
export function sourceFailureMessage(error: unknown): string | undefined {
  if (isKubeError(error) && error.code === 'unauthorized')
    return "the cluster source could not be read: credentials rejected (401); not retried until the kubeconfig's credentials change";
  if (isKubeError(error) || isSnapshotError(error)) return `the cluster source could not be read: ${error.message}`;
  return undefined;
}

export function formatZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid request';
  const where = issue.path.length ? issue.path.join('.') : 'query';
  return `${where}: ${issue.message}`;
}

/** Wraps a route handler so that nothing it throws escapes as a stack trace. */
export function withApiErrors<C>(handler: (request: Request, context: C) => Response | Promise<Response>): (request: Request, context: C) => Promise<Response> {
  return async (request, context) => {
    try {
      return await handler(request, context);
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}

/**
 * Query parameters as an object for a zod schema: a key listed in `multi` keeps every value (also
 * comma-separated ones); other keys keep their first value. Unknown keys are left to the schema.
 */
export function queryObject(url: string | URL, multi: readonly string[] = []): Record<string, string | string[]> {
  const params = new URL(url).searchParams;
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    if (multi.includes(key)) {
      out[key] = params
        .getAll(key)
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean);
    } else out[key] = params.get(key) ?? '';
  }
  return out;
}
