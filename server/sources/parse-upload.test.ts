import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { auditEvent, jsonLines } from '@/lib/audit/__fixtures__/events';
import { cappedBodyChunks } from '@/server/http/read-body';
import { readAuditUpload } from '@/server/sources/read-audit-upload';
import { MAX_AUDIT_BYTES_AHEAD, parseAuditUpload, parseSnapshotUpload } from './parse-upload';
import { MAX_YAML_DOCUMENTS } from './parse-documents';
import { loadSnapshotFromText } from './snapshot-source';
import { podListYaml } from './__fixtures__/pod-list-yaml';

// Uploads are parsed in a worker thread. What the route gets back must be what a parse on the main
// thread gives: the same cluster state, the same aggregate, and for bad input the same error (type,
// code and a message naming the file, document and line), so the worker changes where the CPU is
// spent and nothing else. From source each worker loads the TypeScript through tsx (~1 s on a busy
// machine), hence the long timeouts.

const encode = (text: string) => new TextEncoder().encode(text);

/** The error a function throws (or a promise rejects with). */
async function thrown(work: () => unknown): Promise<Error> {
  try {
    await work();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('parseSnapshotUpload (in the worker)', () => {
  it('gives the cluster state a parse on this thread gives, for YAML and JSON', async () => {
    const yaml = podListYaml(30);
    const json = JSON.stringify({ kind: 'List', apiVersion: 'v1', items: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } }] });
    for (const [name, text] of [
      ['pods.yaml', yaml],
      ['ns.json', json],
    ]) {
      const here = loadSnapshotFromText(encode(text), name, { maxBytes: 1 << 20, name });
      const there = await parseSnapshotUpload(encode(text), name, 1 << 20);
      expect(there).toEqual(here);
    }
    expect((await parseSnapshotUpload(encode(yaml), 'pods.yaml', 1 << 20)).pods).toHaveLength(30);
  }, 120_000);

  it('refuses bad input with the error a parse on this thread throws', async () => {
    const cases: [string, string][] = [
      ['syntax.yaml', 'items: [\n  a: b\n'],
      ['deep.json', `{"a": ${'['.repeat(80)}${']'.repeat(80)}}`],
      ['proto.json', '{"kind":"List","items":[{"kind":"Pod","metadata":{"__proto__":{}}}]}'],
      ['bomb.yaml', '---\n'.repeat(MAX_YAML_DOCUMENTS + 5)],
      ['pod.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: a, namespace: b}\nspec: {containers: 7}\n'],
      ['tag.yaml', 'a: !!binary aGVsbG8=\n'],
    ];
    for (const [name, text] of cases) {
      const here = await thrown(() => loadSnapshotFromText(encode(text), name, { maxBytes: 1 << 20, name }));
      const there = await thrown(() => parseSnapshotUpload(encode(text), name, 1 << 20));
      expect({ name: there.name, message: there.message, code: (there as { code?: string }).code }).toEqual({
        name: 'SnapshotError',
        message: here.message,
        code: (here as { code?: string }).code,
      });
      expect(there.message).toContain(name);
    }
    const big = await thrown(() => parseSnapshotUpload(encode('a: b\n'.repeat(100)), 'big.yaml', 100));
    expect(big).toMatchObject({ name: 'SnapshotError', code: 'too_large', message: expect.stringMatching(/big\.yaml/) });
  }, 120_000);

  it('refuses an upload whose parse outgrows the worker heap with a 413 that says so', async () => {
    // 60,000 pods as JSON: ~15 MB of text, several times that once parsed; the worker gets 16 MiB.
    const pods = Array.from({ length: 60_000 }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `p-${i}`, namespace: `ns-${i % 50}` },
      spec: { nodeName: `n-${i % 9}`, containers: [{ name: 'c', image: `registry.example/app:${i}` }] },
    }));
    const json = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: pods });
    const error = await parseSnapshotUpload(encode(json), 'huge.json', 64 * 1024 * 1024, 16).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ApiError', code: 'too_large' });
    expect((error as Error).message).toMatch(/parsing huge\.json needed more than the upload parser's 16 MiB of memory/);
    // With the heap a 64 MiB limit gives it, the same upload parses.
    expect((await parseSnapshotUpload(encode(json), 'huge.json', 64 * 1024 * 1024)).pods).toHaveLength(60_000);
  }, 60_000);

  it('keeps the event loop free while a large upload is parsed', async () => {
    // A YAML snapshot that takes seconds to parse (YAML is slow: ~3.7 MB here). On the event loop,
    // the longest gap between 50 ms ticks would be about the whole parse; in the worker, only the
    // worker's start and the structured clone of its answer take time on this thread.
    const yaml = encode(podListYaml(15_000));
    let last = performance.now();
    let longest = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 50);
    const t0 = performance.now();
    try {
      const state = await parseSnapshotUpload(yaml, 'large.yaml', 64 << 20);
      // The stretch since the last tick counts too: a parse here would end in one, with no tick after it.
      longest = Math.max(longest, performance.now() - last);
      expect(state.pods).toHaveLength(15_000);
    } finally {
      clearInterval(ticker);
    }
    const took = performance.now() - t0;
    // The parse must take long enough for the gap to mean something.
    expect(took, 'the upload parsed too fast for this test to tell where it ran').toBeGreaterThan(1500);
    expect(longest).toBeLessThan(1000);
  }, 240_000);
});

// The route hands the audit parser the capped body of the request, in chunks as a browser sends them.
function body(bytes: Uint8Array, chunk = 1000, limit = 1 << 30): AsyncIterable<Uint8Array> {
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, (at += chunk)));
    },
  });
  const request = new Request('http://127.0.0.1/api/v1/sources/audit', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
  return cappedBodyChunks(request, limit, 'audit log');
}

const log = jsonLines([
  auditEvent({ verb: 'update', user: 'system:serviceaccount:d:plugin', node: 'n1', namespace: 't', name: 'c', subresource: 'driver', decision: 'forbid' }),
  auditEvent({ verb: 'get', user: 'alice', namespace: 't', name: 'c', time: '2026-11-20T11:00:00Z' }),
]);
const logBytes = encode(`${log}not json\n`);

describe('parseAuditUpload (in the worker)', () => {
  it('gives the aggregate a read on this thread gives, plain and gzip', async () => {
    for (const bytes of [logBytes, new Uint8Array(gzipSync(logBytes))]) {
      const here = await readAuditUpload('up.log', body(bytes, 97));
      const there = await parseAuditUpload('up.log', body(bytes, 97));
      expect(there).toEqual(here);
      expect(there.activity.events).toBe(2);
    }
  }, 120_000);

  it('reads a log larger than it lets the worker fall behind by', async () => {
    const line = JSON.stringify(auditEvent({ verb: 'get', user: 'bob', namespace: 't', name: 'c' }));
    const many = encode(`${line}\n`.repeat(Math.ceil((3 * MAX_AUDIT_BYTES_AHEAD) / (line.length + 1))));
    const there = await parseAuditUpload('many.log', body(many, 64 * 1024));
    expect(there.activity.events).toBe(Math.ceil((3 * MAX_AUDIT_BYTES_AHEAD) / (line.length + 1)));
  }, 120_000);

  it('refuses what a read on this thread refuses, with the same code and message', async () => {
    const bomb = new Uint8Array(gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)));
    const cases: [string, () => AsyncIterable<Uint8Array>][] = [
      ['big.log', () => body(logBytes, 1000, 100)],
      ['bomb.gz', () => body(bomb, 16 * 1024, bomb.length + 10)],
      ['x.log', () => body(encode('hello\n'))],
      ['e.log', () => body(new Uint8Array())],
    ];
    // How far a bomb inflates before it is stopped depends on how the chunks arrive: not compared.
    const counts = (message: string) => message.replace(/\(\d+ bytes from the first \d+\)/, '(N bytes from the first M)');
    for (const [name, make] of cases) {
      const here = await thrown(() => readAuditUpload(name, make()));
      const there = await thrown(() => parseAuditUpload(name, make()));
      expect({ name: there.name, code: (there as { code?: string }).code, message: counts(there.message) }).toEqual({
        name: 'ApiError',
        code: (here as { code?: string }).code,
        message: counts(here.message),
      });
    }
  }, 120_000);
});
