import type { ApiErrorBody } from '@/lib/api/dto';

/** An API error as the UI shows it: the server's message, never a stack. */
export class ApiClientError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ApiClientError';
  }
}

export function fetchJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  return requestJson<T>(url, { signal, headers: { Accept: 'application/json' } });
}

/** POSTs JSON and returns the parsed answer, or throws the server's error message (never a stack). */
export function postJson<T>(url: string, body: unknown): Promise<T> {
  return requestJson<T>(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });
}

async function requestJson<T>(url: string, init: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch {
    throw new ApiClientError('The dashboard server could not be reached.', 0, 'network');
  }
  const body = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) {
    const err = (body as ApiErrorBody | null)?.error;
    throw new ApiClientError(err?.message ?? `Request failed (HTTP ${res.status}).`, res.status, err?.code ?? 'http');
  }
  return body as T;
}
