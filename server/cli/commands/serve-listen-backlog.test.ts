import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// `serve` starts `next start` with bin/listen-backlog.mjs preloaded: Next.js listens with Node's
// default accept queue of 511, and 1,000 clients connecting at once overflowed it (their handshakes
// were dropped and retried for seconds). Checked on the kernel's own view of the listening socket.

const PRELOAD = join(import.meta.dirname, '..', '..', '..', 'bin', 'listen-backlog.mjs');
const SERVE_PRELOAD = join(import.meta.dirname, '..', '..', '..', 'bin', 'serve-preload.mjs');
const somaxconn = (() => {
  try {
    return Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
  } catch {
    return 0;
  }
})();
const hasSs = spawnSync('ss', ['-V']).status === 0;

describe.skipIf(!hasSs || somaxconn <= 511 || !existsSync(PRELOAD))('bin/listen-backlog.mjs', () => {
  async function queueOf(listen: string, preload: boolean, preloadFile = PRELOAD): Promise<number> {
    const script = `const s = require('node:http').createServer(); s.on('listening', () => console.log(s.address().port)); ${listen}; setTimeout(() => s.close(), 10000);`;
    const child = spawn(process.execPath, [...(preload ? ['--import', pathToFileURL(preloadFile).href] : []), '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const port = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const line = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' }).trim();
      return Number(line.split(/\s+/)[2]);
    } finally {
      child.kill();
    }
  }

  it('deepens the queue of listen(port, host) as next start calls it, up to the kernel cap', async () => {
    expect(await queueOf("s.listen(0, '127.0.0.1')", false)).toBe(511);
    expect(await queueOf("s.listen(0, '127.0.0.1')", true)).toBe(Math.min(4096, somaxconn));
    expect(await queueOf('s.listen(0, undefined)', true)).toBe(Math.min(4096, somaxconn));
  });

  it('deepens it too through bin/serve-preload.mjs, which serve preloads (with request pacing)', async () => {
    expect(await queueOf("s.listen(0, '127.0.0.1')", true, SERVE_PRELOAD)).toBe(Math.min(4096, somaxconn));
  });

  it('leaves a listen call that names its own backlog as it is', async () => {
    expect(await queueOf("s.listen({ port: 0, host: '127.0.0.1', backlog: 7 })", true)).toBe(7);
  });
});
