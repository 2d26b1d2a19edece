// Minimal HTTPS client for the test control plane: node:https only, bearer
// token auth, serving certificate NOT verified (the apiserver self-signs).
import https from 'node:https';

export interface KubeResponse<T = any> {
  status: number;
  /** Parsed JSON body, or the raw text when the body is not JSON. */
  body: T;
  headers: Record<string, string | string[] | undefined>;
}

export interface KubeRequestOptions {
  method?: string;
  /** Serialised as JSON unless already a string. */
  body?: unknown;
  /** Content-Type for the body (default application/json; use
   *  application/merge-patch+json etc. for PATCH). */
  contentType?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

const agent = new https.Agent({ rejectUnauthorized: false, keepAlive: false });

/**
 * One request against the apiserver.
 * `token` may be '' for an anonymous request. Never throws on HTTP errors:
 * check `status`.
 */
export function kubeRequest<T = any>(baseUrl: string, token: string, path: string, opts: KubeRequestOptions = {}): Promise<KubeResponse<T>> {
  const url = new URL(path, baseUrl);
  const payload = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (payload !== undefined) {
    headers['Content-Type'] = opts.contentType ?? 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: opts.method ?? (payload === undefined ? 'GET' : 'POST'), headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          /* keep text */
        }
        resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
      });
      res.on('error', reject);
    });
    req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error(`timeout: ${req.method} ${url}`)));
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}
