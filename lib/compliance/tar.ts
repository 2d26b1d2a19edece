// A plain ustar archive, written and read here so a bundle needs no dependency and opens with any
// `tar`. Headers are canonical (mode 0644, owner 0, one mtime for all entries): the reader can
// rebuild every byte it was given, so a change anywhere in the file, header and padding included,
// is found and located.

export const TAR_BLOCK = 512;
const END_BLOCKS = 2;

export interface TarEntryInput {
  name: string;
  chunks: readonly Uint8Array[];
}

export interface TarEntry {
  name: string;
  size: number;
  mtime: number;
  /** Offset of the header block. */
  headerOffset: number;
  /** Offset of the first content byte. */
  dataOffset: number;
}

export class TarError extends Error {
  override name = 'TarError';
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

function writeString(block: Uint8Array, offset: number, length: number, text: string): void {
  const bytes = encoder.encode(text);
  if (bytes.length > length) throw new TarError(`tar field too long: "${text}"`);
  block.set(bytes, offset);
}

function octal(value: number, width: number): string {
  // width includes the trailing NUL
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

export function entrySize(entry: TarEntryInput): number {
  let n = 0;
  for (const c of entry.chunks) n += c.byteLength;
  return n;
}

/** The one header this module writes for an entry; the reader compares against it. */
export function tarHeader(name: string, size: number, mtime: number): Uint8Array {
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(name)) throw new TarError(`unsupported entry name "${name}"`);
  const block = new Uint8Array(TAR_BLOCK);
  writeString(block, 0, 100, name);
  writeString(block, 100, 8, '0000644\0');
  writeString(block, 108, 8, '0000000\0');
  writeString(block, 116, 8, '0000000\0');
  writeString(block, 124, 12, octal(size, 12));
  writeString(block, 136, 12, octal(mtime, 12));
  block.fill(0x20, 148, 156); // checksum computed with its own field as spaces
  block[156] = 0x30; // '0': regular file
  writeString(block, 257, 6, 'ustar\0');
  writeString(block, 263, 2, '00');
  let sum = 0;
  for (const b of block) sum += b;
  writeString(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

const padding = (size: number) => (TAR_BLOCK - (size % TAR_BLOCK)) % TAR_BLOCK;

/** One entry's pieces: its header, its own chunks, the padding to the next block. */
export function* tarEntryPieces(entry: TarEntryInput, mtime: number): Generator<Uint8Array> {
  const size = entrySize(entry);
  yield tarHeader(entry.name, size, mtime);
  for (const c of entry.chunks) if (c.byteLength > 0) yield c;
  const pad = padding(size);
  if (pad > 0) yield new Uint8Array(pad);
}

/** The end-of-archive blocks, after the last entry. */
export function tarEnd(): Uint8Array {
  return new Uint8Array(TAR_BLOCK * END_BLOCKS);
}

/** The archive as pieces to write in order (headers, the entries' own chunks, padding, end blocks). */
export function* tarPieces(entries: readonly TarEntryInput[], mtime: number): Generator<Uint8Array> {
  for (const entry of entries) yield* tarEntryPieces(entry, mtime);
  yield tarEnd();
}

function isZero(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (bytes[i] !== 0) return false;
  return true;
}

const latin1 = new TextDecoder('latin1');

function readOctal(block: Uint8Array, offset: number, length: number): number {
  const text = latin1.decode(block.subarray(offset, offset + length)).replace(/[\0 ]+$/, '');
  if (!/^[0-7]+$/.test(text)) return NaN;
  return parseInt(text, 8);
}

function readName(block: Uint8Array): string {
  const end = block.subarray(0, 100).indexOf(0);
  try {
    return decoder.decode(block.subarray(0, end < 0 ? 100 : end));
  } catch {
    return '';
  }
}

/**
 * Lists the entries of an archive written by tarPieces. Anything this module would not have
 * written (another entry type, a bad checksum, trailing data) is a TarError naming the entry.
 */
export function readTar(bytes: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  for (;;) {
    if (offset + TAR_BLOCK > bytes.length)
      throw new TarError(`the archive is truncated${entries.length ? ` after entry ${entries[entries.length - 1].name}` : ''}`);
    const block = bytes.subarray(offset, offset + TAR_BLOCK);
    if (isZero(block, 0, TAR_BLOCK)) break;
    const name = readName(block);
    const label = name ? `entry ${name}` : `entry #${entries.length + 1}`;
    const stored = readOctal(block, 148, 8);
    let sum = 0;
    for (let i = 0; i < TAR_BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i];
    if (stored !== sum) throw new TarError(`the tar header of ${label} is corrupt (checksum mismatch)`);
    if (block[156] !== 0x30 && block[156] !== 0) throw new TarError(`${label} is not a regular file`);
    const size = readOctal(block, 124, 12);
    const mtime = readOctal(block, 136, 12);
    if (!Number.isFinite(size) || !Number.isFinite(mtime)) throw new TarError(`the tar header of ${label} is corrupt`);
    const dataOffset = offset + TAR_BLOCK;
    if (dataOffset + size > bytes.length) throw new TarError(`${label} is truncated`);
    entries.push({ name, size, mtime, headerOffset: offset, dataOffset });
    offset = dataOffset + size + padding(size);
  }
  return entries;
}

/**
 * Where the bytes differ from what tarPieces writes for these entries (same names, sizes and the
 * most common mtime); undefined when they are exactly that. Entry contents are not compared: that
 * is the digests' job.
 */
export function findNonCanonicalRegion(bytes: Uint8Array, entries: readonly TarEntry[]): string | undefined {
  const counts = new Map<number, number>();
  for (const e of entries) counts.set(e.mtime, (counts.get(e.mtime) ?? 0) + 1);
  const mtime = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  let end = 0;
  for (const e of entries) {
    let expected: Uint8Array;
    try {
      expected = tarHeader(e.name, e.size, mtime);
    } catch {
      return `the tar header of entry ${e.name}`;
    }
    const actual = bytes.subarray(e.headerOffset, e.dataOffset);
    for (let i = 0; i < TAR_BLOCK; i++) if (actual[i] !== expected[i]) return `the tar header of entry ${e.name}`;
    const dataEnd = e.dataOffset + e.size;
    end = dataEnd + padding(e.size);
    if (!isZero(bytes, dataEnd, end)) return `the padding after entry ${e.name}`;
  }
  const archiveEnd = end + TAR_BLOCK * END_BLOCKS;
  if (bytes.length !== archiveEnd || !isZero(bytes, end, archiveEnd)) return 'the end of the archive (bytes after the last entry)';
  return undefined;
}

export function entryBytes(bytes: Uint8Array, entry: TarEntry): Uint8Array {
  return bytes.subarray(entry.dataOffset, entry.dataOffset + entry.size);
}
