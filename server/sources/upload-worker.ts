import 'server-only';
// Entry of the worker thread that parses uploads (started by parse-upload.ts): the parse, safety
// checks and normalisation of a snapshot or an audit log run here so the server's event loop keeps
// answering other requests meanwhile. The same functions as on the main thread, so every limit and
// error message is the same.
import { parentPort } from 'node:worker_threads';
import { readAuditUpload } from './read-audit-upload';
import type { UploadJob, UploadReply } from './upload-messages';
import { loadSnapshotFromText } from './snapshot-source';
import { toWireError } from './upload-wire-error';

const port = parentPort;
if (!port) throw new Error('upload-worker.ts runs as a worker thread');
const reply = (message: UploadReply, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);

// Audit chunks wait here until the parser asks for them.
const chunks: Uint8Array[] = [];
let ended = false;
let wake: (() => void) | undefined;

async function* auditChunks(): AsyncGenerator<Uint8Array> {
  for (;;) {
    const chunk = chunks.shift();
    if (chunk) {
      reply({ ack: chunk.byteLength });
      yield chunk;
    } else if (ended) return;
    else await new Promise<void>((resolve) => (wake = resolve));
  }
}

function answer(work: () => unknown): void {
  Promise.resolve()
    .then(work)
    .then(
      (value) => reply({ value }),
      (error: unknown) => reply({ error: toWireError(error) }),
    );
}

port.on('message', (message: UploadJob) => {
  if ('job' in message && message.job === 'snapshot') {
    answer(() => loadSnapshotFromText(message.bytes, message.name, { maxBytes: message.maxBytes, name: message.name }));
  } else if ('job' in message) {
    answer(() => readAuditUpload(message.name, auditChunks()));
  } else {
    if ('chunk' in message) chunks.push(message.chunk);
    else ended = true;
    wake?.();
    wake = undefined;
  }
});
reply({ ready: true });
