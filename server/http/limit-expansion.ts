import 'server-only';
import { ApiError } from './api-errors';

// A guard on decompressed output: a gzip of zeros expands about 1000:1, so an absolute cap alone
// lets a 1 MB upload keep the server inflating a gigabyte. Output may grow only in proportion to the
// compressed bytes received so far (plus a small allowance for the first block), and never past an
// absolute cap, so a bomb stops after a few megabytes instead of after the whole expansion.

export interface ExpansionLimits {
  /** Decompressed bytes allowed per compressed byte received. */
  ratio: number;
  /** Decompressed bytes allowed in all. */
  maxBytes: number;
  /** Decompressed bytes always allowed, whatever the ratio (a short file's header and first block). */
  allowanceBytes?: number;
  /** Names the input in the 413 message. */
  what: string;
}

export const DEFAULT_EXPANSION_ALLOWANCE = 1024 * 1024;

/** Passes decompressed chunks through; throws a 413 naming the limit as soon as either is passed. */
export async function* limitExpansion(
  decompressed: AsyncIterable<Uint8Array>,
  compressedBytes: () => number,
  limits: ExpansionLimits,
): AsyncGenerator<Uint8Array> {
  const allowance = limits.allowanceBytes ?? DEFAULT_EXPANSION_ALLOWANCE;
  let total = 0;
  for await (const chunk of decompressed) {
    total += chunk.byteLength;
    if (total > limits.maxBytes) throw new ApiError('too_large', `${limits.what} expands past ${limits.maxBytes} bytes when decompressed`);
    const received = compressedBytes();
    if (total > allowance && total > received * limits.ratio)
      throw new ApiError(
        'too_large',
        `${limits.what} expands more than ${limits.ratio}:1 when decompressed (${total} bytes from the first ${received}): refused as a compression bomb`,
      );
    yield chunk;
  }
}
