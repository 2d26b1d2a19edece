import { describe, expect, it } from 'vitest';
import { streamBody } from './stream-body';

// Downloads rendered while they are sent (issue #26): the bytes are the pieces' concatenation, in
// blocks of about the size asked; a renderer that fails at once fails before any byte is sent.

describe('streamBody', () => {
  it('sends the pieces (strings as UTF-8, bytes as they are) in order, in blocks', async () => {
    const pieces = function* () {
      for (let i = 0; i < 100_000; i++) yield i % 2 ? `line ${i} · é\n` : new TextEncoder().encode(`bytes ${i}\n`);
    };
    const expected = Array.from(pieces(), (p) => (typeof p === 'string' ? p : new TextDecoder().decode(p))).join('');
    const reader = streamBody(pieces(), 64 * 1024).getReader();
    const blocks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) blocks.push(r.value);
    expect(new TextDecoder().decode(Buffer.concat(blocks))).toBe(expected);
    expect(blocks.length).toBeGreaterThan(10);
    for (const b of blocks.slice(0, -1)) expect(b.byteLength).toBeGreaterThanOrEqual(64 * 1024);
  });

  it('throws at once when the first piece fails; errors the stream when a later one does', async () => {
    const failing = function* (after: number) {
      for (let i = 0; i < after; i++) yield 'x'.repeat(1000);
      throw new Error('render failed');
    };
    expect(() => streamBody(failing(0))).toThrow('render failed');
    await expect(new Response(streamBody(failing(5000), 1024)).text()).rejects.toThrow('render failed');
  });

  it('stops rendering when the client goes away', async () => {
    let rendered = 0;
    let closed = false;
    const pieces = function* () {
      try {
        for (;;) {
          rendered++;
          yield 'y'.repeat(1024);
        }
      } finally {
        closed = true;
      }
    };
    const reader = streamBody(pieces(), 4096).getReader();
    await reader.read();
    await reader.cancel();
    expect(closed).toBe(true);
    expect(rendered).toBeLessThan(100);
  });
});
