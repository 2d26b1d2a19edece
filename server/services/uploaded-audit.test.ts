import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { auditEvent, jsonLines } from '@/lib/audit/__fixtures__/events';
import { ApiError } from '@/server/http/api-errors';
import { readAuditUpload } from './uploaded-audit';

// Uploads are read while they stream in, in small chunks as a browser sends them.
function stream(bytes: Uint8Array, chunk = 1000): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, (at += chunk)));
    },
  });
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

  it('refuses an upload over the limit, a gzip that expands too much, and one without events', async () => {
    await expect(readAuditUpload('big.log', stream(bytes), 100)).rejects.toMatchObject({ code: 'too_large' });
    const bomb = new Uint8Array(gzipSync(Buffer.alloc(10 * 1024 * 1024, 0x20)));
    await expect(readAuditUpload('bomb.gz', stream(bomb), bomb.length + 10)).rejects.toMatchObject({
      code: 'too_large',
      message: expect.stringMatching(/expands too much/),
    });
    const none = readAuditUpload('x.log', stream(new TextEncoder().encode('hello\n')));
    await expect(none).rejects.toBeInstanceOf(ApiError);
    await expect(readAuditUpload('x.log', stream(new TextEncoder().encode('hello\n')))).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/no audit event in x\.log .*line 1/),
    });
    await expect(readAuditUpload('e.log', stream(new Uint8Array()))).rejects.toMatchObject({ code: 'bad_request' });
  });
});
