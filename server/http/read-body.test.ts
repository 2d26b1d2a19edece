import { describe, expect, it } from 'vitest';
import { cappedBodyChunks, readBodyBytes } from './read-body';

function post(body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}): Request {
  return new Request('http://127.0.0.1/x', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
}

/** A stream of `count` chunks of `size` bytes, made as they are read, counting what was pulled. */
function counted(count: number, size: number) {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(c) {
        if (seen.pulled >= count * size) return c.close();
        seen.pulled += size;
        c.enqueue(new Uint8Array(size).fill(0x61));
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

describe('readBodyBytes', () => {
  it('returns a body within the limit whole', async () => {
    const { stream } = counted(4, 1000);
    const bytes = await readBodyBytes(post(stream), 4000);
    expect(bytes.byteLength).toBe(4000);
    expect(new TextDecoder().decode(bytes.slice(0, 3))).toBe('aaa');
  });

  it('refuses a declared Content-Length over the limit without reading a byte', async () => {
    const { stream, seen } = counted(1000, 1000);
    await expect(readBodyBytes(post(stream, { 'content-length': '1000000' }), 4000, 'snapshot')).rejects.toMatchObject({
      code: 'too_large',
      message: 'snapshot too large: 1000000 bytes, the limit is 4000',
    });
    expect(seen.pulled).toBe(0);
  });

  it('stops a chunked body one chunk past the limit and cancels the rest', async () => {
    const { stream, seen } = counted(1000, 1000);
    await expect(readBodyBytes(post(stream), 4500, 'audit log')).rejects.toMatchObject({
      code: 'too_large',
      message: 'audit log too large: more than 4500 bytes',
    });
    expect(seen.pulled).toBe(5000);
    expect(seen.cancelled).toBe(true);
  });

  it('turns a broken upload into a 400 naming the body', async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        c.error(new Error('socket hang up'));
      },
    });
    await expect(readBodyBytes(post(stream), 4500, 'snapshot')).rejects.toMatchObject({
      code: 'bad_request',
      message: 'snapshot could not be read: the upload stopped (socket hang up)',
    });
  });

  it('cancels the body when its reader is abandoned early', async () => {
    const { stream, seen } = counted(1000, 1000);
    for await (const chunk of cappedBodyChunks(post(stream), 1e9)) {
      expect(chunk.byteLength).toBe(1000);
      break;
    }
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThan(5000);
  });

  it('drops a body that stops sending (408), releasing what it held, while a slow but steady one is read', async () => {
    const env = process.env.DRA_POSTURE_BODY_IDLE_MS;
    process.env.DRA_POSTURE_BODY_IDLE_MS = '150';
    try {
      let cancelled = false;
      let sent = 0;
      const stalled = new ReadableStream<Uint8Array>({
        async pull(c) {
          // Two chunks, then silence: the trickle that would hold an upload slot forever.
          if (sent < 2) {
            sent++;
            c.enqueue(new Uint8Array(10));
          } else await new Promise(() => {});
        },
        cancel() {
          cancelled = true;
        },
      });
      await expect(readBodyBytes(post(stalled), 1e6, 'snapshot')).rejects.toMatchObject({
        code: 'request_timeout',
        message: 'snapshot stalled: no bytes for 150 ms',
      });
      expect(cancelled).toBe(true);

      // Each chunk within the idle time: the whole body, however long it takes in total.
      let n = 0;
      const steady = new ReadableStream<Uint8Array>({
        async pull(c) {
          if (n++ >= 5) return c.close();
          await new Promise((r) => setTimeout(r, 60));
          c.enqueue(new Uint8Array(10));
        },
      });
      expect((await readBodyBytes(post(steady), 1e6)).byteLength).toBe(50);
    } finally {
      if (env === undefined) delete process.env.DRA_POSTURE_BODY_IDLE_MS;
      else process.env.DRA_POSTURE_BODY_IDLE_MS = env;
    }
  });
});
