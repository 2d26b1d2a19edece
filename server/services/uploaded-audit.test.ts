import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { auditEvent, jsonLines } from '@/lib/audit/__fixtures__/events';
import { ApiError } from '@/server/http/api-errors';
import { cappedBodyChunks } from '@/server/http/read-body';
import { readAuditUpload } from '@/server/sources/read-audit-upload';

// Uploads are read while they stream in, in small chunks as a browser sends them.
// The route hands readAuditUpload the capped body of the request (cappedBodyChunks).
function stream(bytes: Uint8Array, chunk = 1000, limit = 1 << 30): AsyncIterable<Uint8Array> {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, (at += chunk)));
    },
  });
  const request = new Request('http://127.0.0.1/api/v1/sources/audit', { method: 'POST', body, duplex: 'half' } as RequestInit);
  return cappedBodyChunks(request, limit, 'audit log');
}

const log = jsonLines([
  auditEvent({
    verb: 'update',
    user: 'system:serviceaccount:d:plugin',
    node: 'n1',
    namespace: 't',
    name: 'c',
    subresource: 'driver',
    decision: 'forbid',
    time: '2026-11-20T10:00:00Z',
  }),
  auditEvent({ verb: 'get', user: 'alice', namespace: 't', name: 'c', time: '2026-11-20T11:00:00Z' }),
]);
const bytes = new TextEncoder().encode(`${log}not json\n`);

describe('readAuditUpload', () => {
  it('reads plain and gzip uploads, counting the bad line', async () => {
    for (const body of [bytes, new Uint8Array(gzipSync(bytes))]) {
      const a = await readAuditUpload('up.log', stream(body, 97));
      expect(a.activity.events).toBe(2);
      expect(a.activity.malformed.samples).toEqual([{ file: 'up.log', line: 3, error: expect.stringMatching(/^not JSON/) }]);
      expect(a.alerts.map((x) => x.check)).toEqual(['AUDIT004']);
    }
  });

  it('reads the events before a truncated gzip member and counts the cut (a file still being rotated)', async () => {
    const gz = new Uint8Array(gzipSync(new TextEncoder().encode(log)));
    const a = await readAuditUpload('cut.gz', stream(gz.slice(0, gz.length - 12), 97));
    expect(a.activity.events).toBe(1);
    expect(a.activity.malformed.samples.map((m) => m.error)).toEqual([expect.stringMatching(/^read stopped: /), expect.stringMatching(/^not JSON/)]);
  });

  it('refuses an upload over the limit, a gzip that expands too much, and one without events', async () => {
    await expect(readAuditUpload('big.log', stream(bytes, 1000, 100))).rejects.toMatchObject({
      code: 'too_large',
      message: 'audit log too large: more than 100 bytes',
    });
    // 64 MiB of spaces gzip to ~64 KiB (about 1000:1); under the byte limit, refused by the ratio
    // long before it is all inflated: the message counts what was inflated when it stopped.
    const bomb = new Uint8Array(gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)));
    const refused = await readAuditUpload('bomb.gz', stream(bomb, 16 * 1024, bomb.length + 10)).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'too_large', message: expect.stringMatching(/^audit log bomb\.gz expands more than 100:1 when decompressed/) });
    const inflated = Number(/\((\d+) bytes from/.exec((refused as Error).message)?.[1]);
    expect(inflated).toBeGreaterThan(1024 * 1024);
    expect(inflated).toBeLessThan(8 * 1024 * 1024);
    const none = readAuditUpload('x.log', stream(new TextEncoder().encode('hello\n')));
    await expect(none).rejects.toBeInstanceOf(ApiError);
    await expect(readAuditUpload('x.log', stream(new TextEncoder().encode('hello\n')))).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/no audit event in x\.log .*line 1/),
    });
    await expect(readAuditUpload('e.log', stream(new Uint8Array()))).rejects.toMatchObject({ code: 'bad_request' });
  });
});
