import type { ApiErrorBody } from '@/lib/api/dto';
import { ApiClientError } from '@/components/query/fetch-json';

/** POSTs JSON and returns the parsed answer, or throws the server's error message (never a stack). */
export async function postJson<T>(url: string, body: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });
  } catch {
    throw new ApiClientError('The dashboard server could not be reached.', 0, 'network');
  }
  const parsed = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) {
    const err = (parsed as ApiErrorBody | null)?.error;
    throw new ApiClientError(err?.message ?? `Request failed (HTTP ${res.status}).`, res.status, err?.code ?? 'http');
  }
  return parsed as T;
}

/** Saves text as a file through a temporary link. */
export function downloadText(filename: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
