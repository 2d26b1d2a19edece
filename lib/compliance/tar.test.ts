import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findNonCanonicalRegion, readTar, tarPieces, TarError } from './tar';

const enc = new TextEncoder();
const concat = (pieces: Iterable<Uint8Array>) => Buffer.concat([...pieces]);

describe('tar', () => {
  const entries = [
    { name: 'a.json', chunks: [enc.encode('{"a":'), enc.encode('1}\n')] },
    { name: 'empty.txt', chunks: [] },
    { name: 'block.bin', chunks: [new Uint8Array(512).fill(7)] },
  ];
  const bytes = concat(tarPieces(entries, 1_700_000_000));

  it('is read back by GNU tar with the same names, sizes and contents', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dra-tar-'));
    writeFileSync(join(dir, 'x.tar'), bytes);
    const listing = execFileSync('tar', ['-tvf', join(dir, 'x.tar')], { encoding: 'utf8' });
    expect(listing).toMatch(/a\.json/);
    expect(listing).toMatch(/ 512 .*block\.bin/);
    execFileSync('tar', ['-xf', join(dir, 'x.tar'), '-C', dir]);
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe('{"a":1}\n');
    expect(readFileSync(join(dir, 'empty.txt')).length).toBe(0);
  });

  it('reads what it wrote, and the bytes are canonical', () => {
    const read = readTar(bytes);
    expect(read.map((e) => [e.name, e.size, e.mtime])).toEqual([
      ['a.json', 8, 1_700_000_000],
      ['empty.txt', 0, 1_700_000_000],
      ['block.bin', 512, 1_700_000_000],
    ]);
    expect(findNonCanonicalRegion(bytes, read)).toBeUndefined();
  });

  it('names the header, padding or end region where a byte changed', () => {
    const padded = Buffer.from(bytes);
    padded[512 + 8 + 3] = 1; // padding after a.json
    expect(findNonCanonicalRegion(padded, readTar(padded))).toBe('the padding after entry a.json');
    const trailing = Buffer.concat([bytes, Buffer.from('x')]);
    expect(findNonCanonicalRegion(trailing, readTar(trailing))).toMatch(/end of the archive/);
    const header = Buffer.from(bytes);
    header[1024 + 100] = 0x31; // mode of empty.txt: checksum no longer holds
    expect(() => readTar(header)).toThrow(/tar header of entry empty.txt is corrupt/);
  });

  it('refuses a file that is not a tar archive', () => {
    expect(() => readTar(enc.encode('{"kind":"List"}'))).toThrow(TarError);
  });
});
