import 'server-only';
import { createReadStream } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { createActivityAggregator, type ActivityAggregator, type AuditAggregate } from '@/lib/audit/aggregate-activity';
import { parseAuditEvent } from '@/lib/audit/parse-event';
import { createEventSplitter } from '@/lib/audit/split-events';
import { SnapshotError } from '@/lib/k8s/snapshot-error';

// Reads audit logs (a file or a folder of them, plain or gzip-compressed, JSON lines or an
// EventList) in one streaming pass into the aggregator. A bad line is counted with its file and
// line number; only an unreadable path stops the read.

const GZIP_MAGIC = [0x1f, 0x8b];

async function isGzip(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(2);
    const { bytesRead } = await fh.read(buf, 0, 2, 0);
    return bytesRead === 2 && buf[0] === GZIP_MAGIC[0] && buf[1] === GZIP_MAGIC[1];
  } finally {
    await fh.close();
  }
}

/** The files to read: the path itself, or the regular, non-hidden files of a folder (not recursive), by name. */
export async function auditFiles(path: string): Promise<string[]> {
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new SnapshotError(`audit log not found: ${path}`, {}, 'not_found');
  }
  if (info.isFile()) return [path];
  if (!info.isDirectory()) throw new SnapshotError(`audit log is neither a file nor a folder: ${path}`);
  const entries = await readdir(path, { withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => join(path, e.name))
    .sort();
  if (files.length === 0) throw new SnapshotError(`no audit log files in ${path}`);
  return files;
}

/** Feeds decoded text of one source (a file, an upload) to the splitter, events to the aggregator. */
export async function readAuditChunks(label: string, chunks: AsyncIterable<Buffer | Uint8Array>, into: ActivityAggregator): Promise<void> {
  const splitter = createEventSplitter({
    event({ text, line }) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        into.malformed({ file: label, line, error: `not JSON: ${(e as Error).message.slice(0, 120)}` });
        return;
      }
      const parsed = parseAuditEvent(value);
      if (parsed.kind === 'event') into.add(parsed.record);
      else if (parsed.kind === 'skip') into.skipStage();
      else into.malformed({ file: label, line, error: parsed.error });
    },
    malformed(line, error) {
      into.malformed({ file: label, line, error });
    },
  });
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of chunks)
      splitter.push(decoder.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
    splitter.push(decoder.end());
  } catch (e) {
    // A truncated gzip member (a file still being rotated) ends the file, not the read.
    into.malformed({ file: label, line: 0, error: `read stopped: ${(e as Error).message.slice(0, 160)}` });
  }
  splitter.end();
}

/** Streams one file into the aggregator. */
export async function readAuditFile(path: string, into: ActivityAggregator): Promise<void> {
  const compressed = await isGzip(path);
  into.startFile(path, compressed);
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  const source = compressed ? raw.pipe(createGunzip()) : raw;
  if (compressed) raw.on('error', (e) => source.destroy(e));
  await readAuditChunks(path, source, into);
}

/** Reads every audit file at `path` into a fresh aggregator. */
export async function readAuditLog(path: string): Promise<AuditAggregate> {
  const files = await auditFiles(path);
  const agg = createActivityAggregator();
  for (const f of files) await readAuditFile(f, agg);
  return agg.finish();
}
