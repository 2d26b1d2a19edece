import 'server-only';

// A download rendered while it is sent: a large cluster's bundle or report is hundreds of megabytes,
// which should neither sit whole in memory nor be joined into one string (past the longest one the
// engine builds). Pieces are gathered into blocks of about a megabyte, strings encoded as UTF-8.

const BLOCK_BYTES = 1 << 20;
const encoder = new TextEncoder();

function nextBlock(pieces: Iterator<Uint8Array | string>, blockBytes: number): Uint8Array | undefined {
  const parts: Uint8Array[] = [];
  let size = 0;
  while (size < blockBytes) {
    const next = pieces.next();
    if (next.done) break;
    const bytes = typeof next.value === 'string' ? encoder.encode(next.value) : next.value;
    parts.push(bytes);
    size += bytes.byteLength;
  }
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : Buffer.concat(parts, size);
}

/**
 * A response body that reads `pieces` as the client takes them. The first block is rendered before
 * this returns, so a renderer that fails at once still fails the request (an error response, not a
 * truncated download); a later failure aborts the stream.
 */
export function streamBody(pieces: Iterable<Uint8Array | string>, blockBytes = BLOCK_BYTES): ReadableStream<Uint8Array> {
  const iterator = pieces[Symbol.iterator]();
  let first = nextBlock(iterator, blockBytes);
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const block = first ?? nextBlock(iterator, blockBytes);
        first = undefined;
        if (block === undefined) controller.close();
        else controller.enqueue(block);
      },
      cancel() {
        iterator.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}
