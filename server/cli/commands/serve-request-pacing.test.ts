import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { paceRequests } from '../../../bin/request-pacing.mjs';

// `serve` preloads bin/serve-preload.mjs into `next start`; bin/request-pacing.mjs starts request
// handlers one per event-loop turn. libuv (Node 20) accepts one connection per turn, so without it a
// server busy with many keep-alive clients took waiting connections about one per second.

const PRELOAD = join(import.meta.dirname, '..', '..', '..', 'bin', 'serve-preload.mjs');
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function fakeRequest(destroyed = false) {
  return { socket: { destroyed } } as unknown as IncomingMessage;
}

describe('paceRequests', () => {
  it('starts one request per event-loop turn, in arrival order', async () => {
    const server = new EventEmitter() as Server;
    const started: IncomingMessage[] = [];
    server.on('request', (req: IncomingMessage) => started.push(req));
    paceRequests(server);
    const reqs = [fakeRequest(), fakeRequest(), fakeRequest()];
    for (const req of reqs) expect(server.emit('request', req, {} as ServerResponse)).toBe(true);
    expect(started).toEqual([]);
    await nextTurn();
    expect(started).toEqual(reqs.slice(0, 1));
    await nextTurn();
    expect(started).toEqual(reqs.slice(0, 2));
    await nextTurn();
    expect(started).toEqual(reqs);
  });

  it('passes every other event on at once', () => {
    const server = new EventEmitter() as Server;
    const seen: string[] = [];
    server.on('connection', () => seen.push('connection'));
    server.on('close', () => seen.push('close'));
    paceRequests(server);
    server.emit('connection', {});
    server.emit('close');
    expect(seen).toEqual(['connection', 'close']);
    expect(server.emit('upgrade', {}, {}, Buffer.alloc(0))).toBe(false);
  });

  it('drops a request whose connection closed while it waited, without costing a turn', async () => {
    const server = new EventEmitter() as Server;
    const started: IncomingMessage[] = [];
    server.on('request', (req: IncomingMessage) => started.push(req));
    paceRequests(server);
    const [gone, live] = [fakeRequest(true), fakeRequest()];
    server.emit('request', gone, {} as ServerResponse);
    server.emit('request', live, {} as ServerResponse);
    await nextTurn();
    expect(started).toEqual([live]);
  });

  it('paces a server once however often it is asked', async () => {
    const server = new EventEmitter() as Server;
    let count = 0;
    server.on('request', () => count++);
    paceRequests(server);
    paceRequests(server);
    server.emit('request', fakeRequest(), {} as ServerResponse);
    server.emit('request', fakeRequest(), {} as ServerResponse);
    await nextTurn();
    expect(count).toBe(1);
  });
});

describe('bin/serve-preload.mjs on a busy server', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill();
  });

  // A plain node:http server started as `serve` starts next start (preloaded, listen(port, host)),
  // whose handler costs 2 ms of CPU. BUSY keep-alive clients keep it busy; then LATE clients connect
  // at once. Unpaced, a turn runs ~BUSY handlers (≥ 0.4 s) and accepts one connection, so the last
  // late client waits ≥ LATE × 0.4 s = 40 s; paced, each is accepted within a few handlers' time.
  it('accepts connections that arrive while keep-alive clients keep it busy', async () => {
    const BUSY = 200;
    const LATE = 100;
    const script = `
      const s = require('node:http').createServer((req, res) => {
        const end = performance.now() + 2;
        while (performance.now() < end);
        res.end('ok');
      });
      s.keepAliveTimeout = 65000;
      s.on('listening', () => console.log(s.address().port));
      s.listen(0, '127.0.0.1');`;
    const server = spawn(process.execPath, ['--import', pathToFileURL(PRELOAD).href, '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    child = server;
    const port = await new Promise<string>((resolve, reject) => {
      server.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
      server.once('exit', (code) => reject(new Error(`server exited ${code}`)));
    });
    const url = `http://127.0.0.1:${port}/`;
    const get = (agent: http.Agent) =>
      new Promise<void>((resolve, reject) => {
        http
          .get(url, { agent }, (res) => {
            res.resume();
            res.on('end', resolve);
          })
          .on('error', reject);
      });

    const busyAgent = new http.Agent({ keepAlive: true, maxSockets: BUSY });
    const lateAgent = new http.Agent({ keepAlive: true, maxSockets: LATE });
    let stop = false;
    let busyAnswered = 0;
    let busyReady!: () => void;
    const allBusyAnswered = new Promise<void>((resolve) => (busyReady = resolve));
    const busy = Array.from({ length: BUSY }, async () => {
      let first = true;
      while (!stop) {
        await get(busyAgent);
        if (first && ++busyAnswered === BUSY) busyReady();
        first = false;
      }
    });
    try {
      await allBusyAnswered;
      const t0 = performance.now();
      let lateAnswered = 0;
      const late = Promise.all(Array.from({ length: LATE }, () => get(lateAgent).then(() => lateAnswered++)));
      const outcome = await Promise.race([late.then(() => 'answered'), new Promise((r) => setTimeout(() => r('waiting'), 10_000))]);
      expect(outcome, `late clients answered within 10 s: ${lateAnswered} of ${LATE}`).toBe('answered');
      expect(performance.now() - t0).toBeLessThan(10_000);
    } finally {
      stop = true;
      busyAgent.destroy();
      lateAgent.destroy();
      await Promise.allSettled(busy);
    }
  }, 60_000);
});
