// Test harness: a small fault-injecting HTTPS proxy on 127.0.0.1 in front of the real test
// kube-apiserver. It terminates TLS with a throwaway self-signed certificate (openssl), forwards
// every request upstream, and records a request log (method, path with query, headers without
// Authorization, status, timestamps). Faults are switched on and off by the tests:
//   down()/up()            close every connection and refuse new ones (the server is "killed"), then listen again
//   setBlackhole(true)     accept TCP but never answer; open watch streams stop moving
//   setLatency(ms)         delay every request
//   addRule({...})         answer matching requests with a status (410 at watch start, 410 on continue=,
//                          429 + Retry-After for a fraction of LISTs, 403 for one resource path, 503 ...)
//   injectWatchError(...)  write an in-stream {"type":"ERROR","object":{"kind":"Status","code":410}} into open
//                          watches and end them, as the apiserver does when a resourceVersion is too old
// Clients trust it through a kubeconfig with insecure-skip-tls-verify (see kubeconfig()).
// Uses only node:* built-ins and the openssl binary.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRandom } from '../../scripts/bench/prng';

export interface ProxyLogEntry {
  /** Sequence number. */
  id: number;
  /** Arrival time (performance.now() of this process, ms). */
  t: number;
  /** When the answer was complete (or the connection gone). */
  end?: number;
  method: string;
  /** Path with query, as sent. */
  path: string;
  /** Path without query. */
  pathname: string;
  query: URLSearchParams;
  /** Request headers, lower-case names, without Authorization/Cookie/Proxy-Authorization. */
  headers: Record<string, string | string[] | undefined>;
  /** Status sent to the client (undefined if the connection died first). */
  status?: number;
  /** Name of the fault that answered, if any. */
  fault?: string;
  watch: boolean;
}

export interface RequestInfo {
  method: string;
  path: string;
  pathname: string;
  query: URLSearchParams;
  watch: boolean;
  /** A GET of a collection: not a watch, carries limit= or continue= (how the live source lists). */
  list: boolean;
}

export interface FaultRule {
  /** Shown in the log entry's `fault`. */
  name: string;
  match: (req: RequestInfo) => boolean;
  status: number;
  /** Adds `Retry-After: <n>` (seconds). */
  retryAfter?: number;
  /** Let this many matching requests through before faulting (e.g. 1 = fault the 2nd). */
  skip?: number;
  /** Fault at most this many requests (default: unlimited). */
  times?: number;
  /** Fault only this fraction of matching requests (deterministic PRNG, seeded per rule). */
  fraction?: number;
  seed?: number;
  reason?: string;
  message?: string;
}

export interface FaultProxy {
  url: string;
  port: number;
  log: ProxyLogEntry[];
  /** Writes a kubeconfig that reaches the upstream server through the proxy. */
  kubeconfig(name: string, token: string, opts?: { namespace?: string }): string;
  addRule(rule: FaultRule): { remove(): void; readonly hits: number };
  clearRules(): void;
  setLatency(ms: number): void;
  setBlackhole(on: boolean): void;
  /** Destroys every client connection and stops listening: new connections get ECONNREFUSED. */
  down(): Promise<void>;
  /** Listens on the same port again. */
  up(): Promise<void>;
  readonly isDown: boolean;
  /** Open watch streams (paths). */
  openWatches(): string[];
  /** Writes an ERROR event with `code` into open watches whose path matches, then ends them. Returns how many. */
  injectWatchError(match: (path: string) => boolean, code?: number): number;
  /** Ends open watches whose path matches, cleanly (as a server-side timeout does). Returns how many. */
  endWatches(match: (path: string) => boolean): number;
  /** Highest number of simultaneous non-watch requests seen in the log so far (optionally filtered). */
  maxInFlight(filter?: (e: ProxyLogEntry) => boolean): number;
  /** TCP connections clients opened so far (each one a TLS handshake). */
  readonly connectionsOpened: number;
  close(): Promise<void>;
}

const REDACTED = new Set(['authorization', 'proxy-authorization', 'cookie']);

function selfSignedCert(dir: string): { key: Buffer; cert: Buffer } {
  const key = path.join(dir, 'proxy.key');
  const cert = path.join(dir, 'proxy.crt');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=dra-posture-fault-proxy',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
}

function statusBody(code: number, reason: string, message: string): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

const REASONS: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  410: 'Expired',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};

interface OpenWatch {
  path: string;
  res: http.ServerResponse;
  upstream: http.ClientRequest;
  upstreamRes?: http.IncomingMessage;
  atLineEnd: boolean;
  pendingInjection?: string;
  finished: boolean;
}

/** Starts the proxy on a free 127.0.0.1 port, forwarding to `upstream` (https://127.0.0.1:port). */
export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const up = new URL(upstream);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dra-posture-proxy-'));
  const { key, cert } = selfSignedCert(dir);
  const agent = new https.Agent({ keepAlive: true, maxSockets: Infinity, rejectUnauthorized: false });
  const log: ProxyLogEntry[] = [];
  const rules: (FaultRule & { seen: number; hits: number; rand: () => number })[] = [];
  const sockets = new Set<net.Socket>();
  const held = new Set<net.Socket>();
  const watches = new Set<OpenWatch>();
  const paused = new Set<http.IncomingMessage>();
  let latencyMs = 0;
  let blackhole = false;
  let isDown = false;
  let seq = 0;

  const tlsServer = https.createServer({ key, cert }, (req, res) => void handle(req, res));
  tlsServer.keepAliveTimeout = 60_000;

  let connectionsOpened = 0;
  const front = net.createServer((socket) => {
    connectionsOpened++;
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      held.delete(socket);
    });
    socket.on('error', () => undefined);
    if (blackhole) {
      // Accept, never read or answer.
      held.add(socket);
      socket.pause();
      return;
    }
    tlsServer.emit('connection', socket);
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      front.once('error', reject);
      front.listen(port, '127.0.0.1', () => {
        front.removeListener('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (front.address() as net.AddressInfo).port;
  const url = `https://127.0.0.1:${port}`;

  function pickRule(info: RequestInfo): (FaultRule & { hits: number }) | undefined {
    for (const rule of rules) {
      if (rule.times !== undefined && rule.hits >= rule.times) continue;
      if (!rule.match(info)) continue;
      rule.seen++;
      if (rule.skip !== undefined && rule.seen <= rule.skip) continue;
      if (rule.fraction !== undefined && rule.rand() >= rule.fraction) continue;
      rule.hits++;
      return rule;
    }
    return undefined;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const rawPath = req.url ?? '/';
    const parsed = new URL(rawPath, 'https://proxy.invalid');
    const query = parsed.searchParams;
    const watch = query.get('watch') === '1' || query.get('watch') === 'true';
    const method = req.method ?? 'GET';
    const headers: ProxyLogEntry['headers'] = {};
    for (const [k, v] of Object.entries(req.headers)) if (!REDACTED.has(k.toLowerCase())) headers[k.toLowerCase()] = v;
    const entry: ProxyLogEntry = { id: ++seq, t: performance.now(), method, path: rawPath, pathname: parsed.pathname, query, headers, watch };
    log.push(entry);
    res.on('close', () => (entry.end ??= performance.now()));

    if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
    if (blackhole) {
      // Hold the request: never answer until the connection goes away.
      if (req.socket) held.add(req.socket as net.Socket);
      return;
    }
    const info: RequestInfo = {
      method,
      path: rawPath,
      pathname: parsed.pathname,
      query,
      watch,
      list: method === 'GET' && !watch && (query.has('limit') || query.has('continue')),
    };
    const rule = pickRule(info);
    if (rule) {
      const reason = rule.reason ?? REASONS[rule.status] ?? 'Fault';
      const body = statusBody(rule.status, reason, rule.message ?? `fault-proxy: ${rule.name}`);
      const h: Record<string, string> = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) };
      if (rule.retryAfter !== undefined) h['Retry-After'] = String(rule.retryAfter);
      entry.status = rule.status;
      entry.fault = rule.name;
      req.resume();
      res.writeHead(rule.status, h);
      res.end(body);
      return;
    }

    const upHeaders = { ...req.headers, host: up.host };
    const upReq = https.request({
      hostname: up.hostname,
      port: up.port,
      method,
      path: rawPath,
      headers: upHeaders,
      agent: watch ? false : agent,
      rejectUnauthorized: false,
    });
    let w: OpenWatch | undefined;
    if (watch) {
      w = { path: rawPath, res, upstream: upReq, atLineEnd: true, finished: false };
      watches.add(w);
    }
    const cleanup = () => {
      if (w) {
        w.finished = true;
        watches.delete(w);
        if (w.upstreamRes) paused.delete(w.upstreamRes);
      }
    };
    res.on('close', () => {
      cleanup();
      if (!upReq.destroyed) upReq.destroy();
    });
    upReq.on('error', () => {
      cleanup();
      if (!res.headersSent) {
        const body = statusBody(502, 'BadGateway', 'fault-proxy: upstream unreachable');
        entry.status = 502;
        res.writeHead(502, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
        res.end(body);
      } else {
        res.destroy();
      }
    });
    upReq.on('response', (upRes) => {
      entry.status = upRes.statusCode;
      const outHeaders = { ...upRes.headers };
      res.writeHead(upRes.statusCode ?? 502, outHeaders);
      if (!w) {
        upRes.pipe(res);
        return;
      }
      // Pass the headers on at once, as the apiserver does: a watch is "open" before its first event.
      res.flushHeaders();
      const watchEntry = w;
      watchEntry.upstreamRes = upRes;
      if (blackhole) {
        upRes.pause();
        paused.add(upRes);
      }
      upRes.on('data', (chunk: Buffer) => {
        if (watchEntry.finished) return;
        res.write(chunk);
        watchEntry.atLineEnd = chunk.length > 0 ? chunk[chunk.length - 1] === 0x0a : watchEntry.atLineEnd;
        if (watchEntry.pendingInjection !== undefined && watchEntry.atLineEnd) finishWithLine(watchEntry, watchEntry.pendingInjection);
      });
      upRes.on('end', () => {
        cleanup();
        res.end();
      });
      upRes.on('error', () => {
        cleanup();
        res.destroy();
      });
    });
    req.pipe(upReq);
  }

  function finishWithLine(w: OpenWatch, line: string): void {
    w.finished = true;
    watches.delete(w);
    if (line) w.res.write(line);
    w.res.end();
    w.upstream.destroy();
  }

  function injectWatchError(match: (p: string) => boolean, code = 410): number {
    const line = `${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `fault-proxy: too old resource version`, reason: code === 410 ? 'Expired' : 'InternalError', code } })}\n`;
    let n = 0;
    for (const w of [...watches]) {
      if (!match(w.path) || !w.upstreamRes) continue;
      n++;
      if (w.atLineEnd) finishWithLine(w, line);
      else w.pendingInjection = line;
    }
    return n;
  }

  function endWatches(match: (p: string) => boolean): number {
    let n = 0;
    for (const w of [...watches]) {
      if (!match(w.path) || !w.upstreamRes) continue;
      n++;
      if (w.atLineEnd) finishWithLine(w, '');
      else w.pendingInjection = '';
    }
    return n;
  }

  async function down(): Promise<void> {
    if (isDown) return;
    isDown = true;
    await new Promise<void>((resolve) => {
      front.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  }

  async function upAgain(): Promise<void> {
    if (!isDown) return;
    await listen(port);
    isDown = false;
  }

  function setBlackhole(on: boolean): void {
    blackhole = on;
    if (on) {
      for (const w of watches) {
        if (w.upstreamRes) {
          w.upstreamRes.pause();
          paused.add(w.upstreamRes);
        }
      }
    } else {
      // Held connections never got an answer: drop them (the client has timed out or will see a reset).
      for (const s of held) s.destroy();
      held.clear();
      for (const r of paused) r.resume();
      paused.clear();
    }
  }

  function maxInFlight(filter: (e: ProxyLogEntry) => boolean = () => true): number {
    const events: [number, number][] = [];
    for (const e of log) {
      if (e.watch || !filter(e)) continue;
      events.push([e.t, 1], [e.end ?? Number.POSITIVE_INFINITY, -1]);
    }
    events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let cur = 0;
    let max = 0;
    for (const [, d] of events) {
      cur += d;
      max = Math.max(max, cur);
    }
    return max;
  }

  function kubeconfig(name: string, token: string, opts: { namespace?: string } = {}): string {
    const q = JSON.stringify;
    const text = [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: fault-proxy',
      '  cluster:',
      `    server: ${q(url)}`,
      '    insecure-skip-tls-verify: true',
      'users:',
      `- name: ${q(name)}`,
      '  user:',
      `    token: ${q(token)}`,
      'contexts:',
      `- name: ${q(name)}`,
      '  context:',
      '    cluster: fault-proxy',
      `    user: ${q(name)}`,
      ...(opts.namespace ? [`    namespace: ${q(opts.namespace)}`] : []),
      `current-context: ${q(name)}`,
      '',
    ].join('\n');
    const file = path.join(dir, `${name.replace(/[^A-Za-z0-9_.-]/g, '_')}${opts.namespace ? `-${opts.namespace}` : ''}.kubeconfig`);
    fs.writeFileSync(file, text, { mode: 0o600 });
    return file;
  }

  return {
    url,
    port,
    log,
    kubeconfig,
    addRule(rule) {
      const r = { ...rule, seen: 0, hits: 0, rand: createRandom(rule.seed ?? 1).next };
      rules.push(r);
      return {
        remove: () => {
          const i = rules.indexOf(r);
          if (i >= 0) rules.splice(i, 1);
        },
        get hits() {
          return r.hits;
        },
      };
    },
    clearRules: () => void rules.splice(0),
    setLatency: (ms) => void (latencyMs = ms),
    setBlackhole,
    down,
    up: upAgain,
    get connectionsOpened() {
      return connectionsOpened;
    },
    get isDown() {
      return isDown;
    },
    openWatches: () => [...watches].filter((w) => w.upstreamRes).map((w) => w.path),
    injectWatchError,
    endWatches,
    maxInFlight,
    async close() {
      setBlackhole(false);
      for (const w of [...watches]) finishWithLine(w, '');
      if (!isDown) await down();
      tlsServer.close();
      agent.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
