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

export async function fetchJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { signal, headers: { Accept: 'application/json' } });
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
