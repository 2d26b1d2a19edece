import 'server-only';
import https from 'node:https';
import http from 'node:http';
import type { KubeAccess } from './kube-access';
import { codeForNetworkError, codeForStatus, KubeError } from './kube-errors';

export interface KubeResponse<T = unknown> {
  status: number;
  body: T;
}

export interface KubeHttpOptions {
  /** Requests in flight at once (the API server's priority-and-fairness prefers few). */
  maxInFlight?: number;
  /** Per-request timeout for non-watch requests. */
  timeoutMs?: number;
  /** Retries of 429/5xx/network errors before giving up on one request. */
  maxRetries?: number;
  /** Called when the server throttles us, for the UI's "API server is throttling" note. */
  onThrottle?: (retryAfterSeconds: number) => void;
  sleep?: (ms: number) => Promise<void>;
}

type Options = Required<Omit<KubeHttpOptions, 'onThrottle'>> & Pick<KubeHttpOptions, 'onThrottle'>;

/**
 * A small read-only HTTP client over a kubeconfig: GET and line-streamed watches, at most a few
 * requests in flight, Retry-After honoured on 429, exponential backoff with jitter on network
 * errors and 5xx. It never sends PUT/PATCH/DELETE; the only POSTs are access and token reviews.
 */
export class KubeHttp {
  private readonly opts: Options;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly access: KubeAccess,
    options: KubeHttpOptions = {},
  ) {
    this.opts = {
      maxInFlight: options.maxInFlight ?? 4,
      timeoutMs: options.timeoutMs ?? 15_000,
      maxRetries: options.maxRetries ?? 5,
      sleep: options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
      onThrottle: options.onThrottle,
    };
  }

  async get<T = unknown>(path: string): Promise<KubeResponse<T>> {
    return this.withRetries(() => this.once<T>('GET', path));
  }

  async post<T = unknown>(path: string, body: unknown): Promise<KubeResponse<T>> {
    if (!/accessreviews$|rulesreviews$|tokenreviews$/.test(path)) throw new Error(`refusing to POST to ${path}: the dashboard is read-only`);
    return this.withRetries(() => this.once<T>('POST', path, body));
  }

  private async withRetries<T>(fn: () => Promise<KubeResponse<T>>): Promise<KubeResponse<T>> {
    let attempt = 0;
    for (;;) {
      await this.acquire();
      let result: KubeResponse<T> | undefined;
      let error: KubeError | undefined;
      try {
        result = await fn();
      } catch (e) {
        error = e as KubeError;
      } finally {
        this.release();
      }
      if (result) return result;
      const retriable = error!.code === 'throttled' || error!.code === 'unreachable' || (error!.code === 'server_error' && (error!.status ?? 500) >= 500);
      if (!retriable || attempt >= this.opts.maxRetries) throw error!;
      attempt++;
      let waitMs: number;
      if (error!.code === 'throttled') {
        const seconds = error!.retryAfterSeconds ?? 1;
        this.opts.onThrottle?.(seconds);
        // A little over Retry-After: timers run on the event loop's millisecond clock and may fire a
        // fraction of a millisecond early, and a reused connection no longer hides that behind a handshake.
        waitMs = seconds * 1000 + 10;
      } else {
        waitMs = backoffMs(attempt);
      }
      await this.opts.sleep(waitMs);
    }
  }

  private acquire(): Promise<void> {
    if (this.inFlight < this.opts.maxInFlight) {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.waiting.push(() => {
        this.inFlight++;
        resolve();
      }),
    );
  }

  private release(): void {
    this.inFlight--;
    this.waiting.shift()?.();
  }

  private async requestOptions(method: string, path: string): Promise<https.RequestOptions> {
    const server = this.access.server;
    const url = new URL(path, server.endsWith('/') ? server : `${server}/`);
    const base = new URL(server);
    // Keep any path prefix of the server URL (e.g. a proxy mount point).
    const fullPath = `${base.pathname.replace(/\/$/, '')}${path}`;
    const opts: https.RequestOptions = {
      method,
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || (url.protocol === 'https:' ? 443 : 80),
      path: fullPath,
      headers: { Accept: 'application/json', 'User-Agent': 'dra-posture' },
    };
    await this.access.applyTo(opts);
    return opts;
  }

  private async once<T>(method: string, path: string, body?: unknown): Promise<KubeResponse<T>> {
    const opts = await this.requestOptions(method, path);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    if (payload) opts.headers = { ...opts.headers, 'Content-Type': 'application/json', 'Content-Length': String(payload.length) };
    const mod = opts.protocol === 'http:' ? http : https;
    return new Promise((resolve, reject) => {
      // A wall-clock deadline for the answer to start (the socket idle timeout alone lets a
      // blackholed TLS handshake hang for twice as long), then an idle timeout while the body streams.
      const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${this.opts.timeoutMs / 1000} s`)), this.opts.timeoutMs);
      const req = mod.request(opts, (res) => {
        clearTimeout(deadline);
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => reject(new KubeError('unreachable', `${method} ${path}: ${e.message}`)));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8');
          if (status >= 200 && status < 300) {
            try {
              resolve({ status, body: JSON.parse(text) as T });
            } catch {
              reject(new KubeError('bad_response', `${method} ${path}: the server answered with something that is not JSON`, status));
            }
            return;
          }
          reject(
            new KubeError(codeForStatus(status), `${method} ${path}: ${status} ${statusMessage(text)}`, status, parseRetryAfter(res.headers['retry-after'])),
          );
        });
      });
      req.setTimeout(this.opts.timeoutMs, () => req.destroy(new Error(`no answer within ${this.opts.timeoutMs / 1000} s`)));
      req.on('error', (e) => {
        clearTimeout(deadline);
        reject(new KubeError(codeForNetworkError(e), `${method} ${path}: ${describeNetworkError(e)}`));
      });
      if (payload) req.write(payload);
      req.end();
    });
  }

  /**
   * Opens a watch and calls onEvent per decoded line. Resolves when the server closes the stream,
   * rejects on HTTP errors (with status) or network errors. `signal` aborts it. `onOpen` runs once
   * the server has accepted the watch (2xx headers), so callers know the stream is really up.
   * A stream that carries no byte for `idleTimeoutMs` (a silently dead connection: the server sends
   * bookmarks and closes watches itself well before that) is dropped and rejected as unreachable.
   */
  async watch(
    path: string,
    onEvent: (event: { type: string; object: unknown }) => void,
    signal: AbortSignal,
    onOpen?: () => void,
    idleTimeoutMs = WATCH_IDLE_TIMEOUT_MS,
  ): Promise<void> {
    const opts = await this.requestOptions('GET', path);
    const mod = opts.protocol === 'http:' ? http : https;
    return new Promise((resolve, reject) => {
      // Exactly one outcome: the error that made us drop the stream (an ERROR event, an
      // undecodable line, the idle timeout) wins over the socket errors that follow from it.
      let settled = false;
      let cause: KubeError | undefined;
      const finish = (error?: KubeError) => {
        if (settled) return;
        settled = true;
        if (cause) reject(cause);
        else if (error && !signal.aborted) reject(error);
        else resolve();
      };
      const drop = (error: KubeError) => {
        cause ??= error;
        req.destroy(error);
        finish();
      };
      // The server must accept the watch within the request timeout; after that only silence counts.
      const deadline = setTimeout(
        () => drop(new KubeError('unreachable', `watch ${path}: no answer within ${this.opts.timeoutMs / 1000} s`)),
        this.opts.timeoutMs,
      );
      const req = mod.request({ ...opts, signal }, (res) => {
        clearTimeout(deadline);
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            finish(
              new KubeError(
                codeForStatus(status),
                `watch ${path}: ${status} ${statusMessage(Buffer.concat(chunks).toString('utf8'))}`,
                status,
                parseRetryAfter(res.headers['retry-after']),
              ),
            ),
          );
          res.on('error', (e) => finish(new KubeError('unreachable', `watch ${path}: ${e.message}`)));
          return;
        }
        onOpen?.();
        let pending = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (settled) return;
          pending += chunk;
          let nl: number;
          while ((nl = pending.indexOf('\n')) >= 0) {
            const line = pending.slice(0, nl).trim();
            pending = pending.slice(nl + 1);
            if (line === '') continue;
            try {
              onEvent(JSON.parse(line) as { type: string; object: unknown });
            } catch (e) {
              drop(e instanceof KubeError ? e : new KubeError('bad_response', `watch ${path}: undecodable event`));
              return;
            }
          }
        });
        res.on('end', () => finish());
        res.on('error', (e) => finish(new KubeError('unreachable', `watch ${path}: ${e.message}`)));
        // A connection that dies mid-stream must never leave the caller waiting forever.
        res.on('close', () => finish(res.complete ? undefined : new KubeError('unreachable', `watch ${path}: connection closed mid-stream`)));
      });
      req.setTimeout(idleTimeoutMs, () => drop(new KubeError('unreachable', `watch ${path}: no data for ${Math.round(idleTimeoutMs / 1000)} s`)));
      req.on('error', (e) => {
        clearTimeout(deadline);
        finish(e instanceof KubeError ? e : new KubeError(codeForNetworkError(e), `watch ${path}: ${describeNetworkError(e)}`));
      });
      req.on('close', () => clearTimeout(deadline));
      req.end();
    });
  }
}

/** Watches ask the server to close them after 240 s and receive bookmarks meanwhile: silence beyond this is a dead link. */
export const WATCH_IDLE_TIMEOUT_MS = 300_000;

export function backoffMs(attempt: number): number {
  const base = Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

function parseRetryAfter(value: string | string[] | undefined): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  const n = Number(v);
  if (Number.isFinite(n) && n >= 0) return Math.min(n, 300);
  const date = Date.parse(v);
  return Number.isFinite(date) ? Math.max(0, Math.min(300, Math.round((date - Date.now()) / 1000))) : undefined;
}

function statusMessage(text: string): string {
  try {
    const s = JSON.parse(text) as { message?: string; reason?: string };
    return (s.message ?? s.reason ?? '').slice(0, 200);
  } catch {
    return text.slice(0, 120);
  }
}

function describeNetworkError(e: Error & { code?: string }): string {
  return e.code ? `${e.code} (${e.message})` : e.message;
}
