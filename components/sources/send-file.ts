// The request part of the Sources uploads: the file's size checked against the server's limit
// before sending, the JSON answer or the server's error message, never an exception.

export type SendResult<T> = { ok: true; body: T } | { ok: false; message: string };

/** The message for a missing or oversized file, or undefined when it can be sent. */
export function fileProblem(file: File | undefined, maxBytes: number): string | undefined {
  if (!file) return 'Choose a file first.';
  if (file.size > maxBytes) return `${file.name} is ${file.size.toLocaleString('en-US')} bytes; the limit is ${maxBytes.toLocaleString('en-US')}.`;
  return undefined;
}

export async function sendRequest<T>(url: string, init: RequestInit): Promise<SendResult<T>> {
  try {
    const res = await fetch(url, init);
    const body = (await res.json()) as T & { error?: { message: string } };
    if (!res.ok) return { ok: false, message: body.error?.message ?? `upload failed (HTTP ${res.status})` };
    return { ok: true, body };
  } catch {
    return { ok: false, message: 'The server did not answer.' };
  }
}
