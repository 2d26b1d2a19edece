import 'server-only';
// The JSON safety scan of parse-documents, over UTF-8 bytes instead of decoded text, so that it can
// run in a worker thread while the main thread decodes and parses the same shared bytes. The function must
// stay self-contained (no outer names): the worker receives its source text.

export type ByteScanResult = { suspicious: boolean } | { error: 'depth' | 'string'; length: number; line: number };

/**
 * Checks depth and string length (in UTF-16 code units, as the decoded text would have) and notes
 * whether some string could decode to `__proto__`, `constructor` or `prototype`. Malformed JSON is
 * left for JSON.parse to report.
 */
export function scanJsonBytes(b: Uint8Array, maxDepth: number, maxStringLength: number): ByteScanResult {
  const n = b.length;
  let depth = 0;
  let suspicious = false;
  let i = 0;
  while (i < n) {
    const c = b[i];
    if (c === 34) {
      const start = i + 1;
      let k = start;
      let units = 0;
      let escaped = false;
      while (k < n) {
        const ch = b[k];
        if (ch === 34) break;
        if (ch === 92) {
          escaped = true;
          if (b[k + 1] === 117) {
            // Only a \u escape of a letter or `_` can spell a forbidden name.
            let code = 0;
            for (let h = k + 2; h < k + 6; h++) {
              const d = b[h];
              const v = d >= 48 && d <= 57 ? d - 48 : d >= 65 && d <= 70 ? d - 55 : d >= 97 && d <= 102 ? d - 87 : -1;
              if (v < 0) {
                code = -1;
                break;
              }
              code = code * 16 + v;
            }
            if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95) suspicious = true;
            k += 6;
          } else {
            k += 2;
          }
          units++;
        } else {
          k++;
          // Continuation bytes add nothing; a 4-byte sequence is a surrogate pair.
          if (ch < 0x80 || ch >= 0xc0) units += ch >= 0xf0 ? 2 : 1;
        }
      }
      if (k >= n) return { suspicious };
      if (!escaped && (units === 9 || units === 11)) {
        let word = '';
        for (let h = start; h < k; h++) word += String.fromCharCode(b[h]);
        if (word === '__proto__' || word === 'prototype' || word === 'constructor') suspicious = true;
      }
      if (units > maxStringLength) return { error: 'string', length: units, line: lineAtByte(b, i) };
      i = k + 1;
      continue;
    }
    if (c === 123 || c === 91) {
      if (++depth > maxDepth) return { error: 'depth', length: depth, line: lineAtByte(b, i) };
    } else if (c === 125 || c === 93) {
      depth--;
    }
    i++;
  }
  return { suspicious };

  function lineAtByte(bytes: Uint8Array, offset: number): number {
    let line = 1;
    for (let h = 0; h < offset; h++) if (bytes[h] === 10) line++;
    return line;
  }
}
