import { describe, expect, it } from 'vitest';
import { scanJsonBytesBefore } from './__fixtures__/scan-json-bytes-before';
import { scanJsonBytes, type ItemBoundaries } from './scan-json-bytes';

// The scan's fast path for strings without escapes must decide exactly what the byte-by-byte scan
// decided: the same result (depth, string length in UTF-16 units, forbidden-name suspicion, the
// line of an error) and the same item boundaries, on random text full of the cases that matter.

const PIECES = [
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  ' ',
  '\n',
  '"',
  '"',
  '"',
  '\\',
  '\\"',
  '\\\\',
  '\\u0070',
  '\\u005f',
  '\\u0031',
  '\\u00e9',
  '\\uD83D\\uDE00',
  '\\n',
  '\\x',
  'a',
  'é',
  '😀',
  '中',
  '__proto__',
  'prototype',
  'constructor',
  'namespace',
  'protozoan',
  'containers',
  '"items"',
  '"kind"',
  'items',
  '1',
  'true',
  'null',
];

function boundaries(): ItemBoundaries {
  return { offsets: new Int32Array(64), control: new Int32Array(new SharedArrayBuffer(16)) };
}

function randomText(next: () => number): string {
  // Half start from a plain list, so that item boundaries are tracked for a while before an edit.
  let text = next() < 0.5 ? '{"kind":"List","items":[{"a":"b"},{"c":["d",{"e":"f"}]}],"x":"y"}' : '';
  const edits = 1 + Math.floor(next() * 12);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(next() * (text.length + 1));
    const piece = PIECES[Math.floor(next() * PIECES.length)];
    text = text.slice(0, at) + piece + text.slice(at);
  }
  return text;
}

describe('scanJsonBytes', () => {
  it('decides as the byte-by-byte scan did on 20,000 random texts, with and without item boundaries, read whole or as it goes', () => {
    let seed = 2026;
    const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    let suspicious = 0;
    let stringErrors = 0;
    for (let t = 0; t < 20_000; t++) {
      const bytes = new TextEncoder().encode(randomText(next));
      const maxDepth = 1 + Math.floor(next() * 6);
      const maxStringLength = Math.floor(next() * 14);
      const now = boundaries();
      const before = boundaries();
      const result = scanJsonBytes(bytes, maxDepth, maxStringLength, now);
      expect(result).toEqual(scanJsonBytesBefore(bytes, maxDepth, maxStringLength, before));
      expect([...now.offsets, ...now.control]).toEqual([...before.offsets, ...before.control]);
      expect(scanJsonBytes(bytes, 64, 1 << 20)).toEqual(scanJsonBytesBefore(bytes, 64, 1 << 20));
      // Read as the scan goes, in random pieces: the same decisions and boundaries.
      const piece = 1 + Math.floor(next() * 8);
      const filling = new Uint8Array(bytes.length);
      let read = 0;
      const more = () => {
        const to = Math.min(bytes.length, read + piece);
        filling.set(bytes.subarray(read, to), read);
        return (read = to);
      };
      const chunked = boundaries();
      expect(scanJsonBytes(filling, maxDepth, maxStringLength, chunked, undefined, more)).toEqual(result);
      expect([...chunked.offsets, ...chunked.control]).toEqual([...now.offsets, ...now.control]);
      if ('suspicious' in result && result.suspicious) suspicious++;
      if ('error' in result && result.error === 'string') stringErrors++;
    }
    // The texts reach both kinds of outcome often, or this compares little.
    expect(suspicious).toBeGreaterThan(200);
    expect(stringErrors).toBeGreaterThan(1000);
  });

  it('measures a string in UTF-16 units whatever its bytes, and reads forbidden names only unescaped or through \\u', () => {
    const scan = (text: string, max = 100) => scanJsonBytes(new TextEncoder().encode(text), 10, max);
    expect(scan('["éééé"]', 4)).toEqual({ suspicious: false });
    expect(scan('["ééééé"]', 4)).toEqual({ error: 'string', length: 5, line: 1 });
    expect(scan('["😀😀"]', 4)).toEqual({ suspicious: false });
    expect(scan('["😀😀a"]', 4)).toEqual({ error: 'string', length: 5, line: 1 });
    expect(scan('{"__proto__":1}')).toEqual({ suspicious: true });
    expect(scan('{"constructor":1}')).toEqual({ suspicious: true });
    expect(scan('{"a":"prototype"}')).toEqual({ suspicious: true });
    expect(scan('{"protozoan":1,"namespace":"x"}')).toEqual({ suspicious: false });
    expect(scan('{"\\u005f_proto__":1}')).toEqual({ suspicious: true });
    expect(scan('{"\\u0031":1}')).toEqual({ suspicious: false });
  });
});
