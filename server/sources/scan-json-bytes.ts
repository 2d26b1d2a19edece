import 'server-only';
// The JSON safety scan of parse-documents, over UTF-8 bytes instead of decoded text, so that it can
// run in a worker thread while the main thread decodes and parses the same shared bytes. The function must
// stay self-contained (no outer names): the worker receives its source text.

export type ByteScanResult = { suspicious: boolean } | { error: 'depth' | 'string'; length: number; line: number };

/**
 * Where the scan publishes the items of a top-level `{..., "items": [ {...}, ... ], ...}` as it
 * finds them, for a reader on another thread: item i spans offsets[2i] to offsets[2i+1]
 * (exclusive). control[ITEMS_COUNT] is how many are published (Atomics); control[ITEMS_STATUS] is
 * ITEMS_SCANNING, then ITEMS_DONE (control[ITEMS_OPEN] and [ITEMS_CLOSE] then hold the offsets of the
 * items array's brackets), ITEMS_OTHER (not that shape, or not written plainly: read the file the
 * ordinary way) or ITEMS_FULL (more items than offsets has room for).
 */
export interface ItemBoundaries {
  offsets: Int32Array;
  control: Int32Array;
}
export const ITEMS_COUNT = 0;
export const ITEMS_STATUS = 1;
export const ITEMS_OPEN = 2;
export const ITEMS_CLOSE = 3;
export const ITEMS_SCANNING = 0;
export const ITEMS_DONE = 1;
export const ITEMS_OTHER = 2;
export const ITEMS_FULL = 3;

/**
 * Checks depth and string length (in UTF-16 code units, as the decoded text would have) and notes
 * whether some string could decode to `__proto__`, `constructor` or `prototype`. Malformed JSON is
 * left for JSON.parse to report. With `items`, also publishes the item boundaries (ItemBoundaries):
 * only the separators between items are checked here; what they span, and everything around the
 * items array, is left for JSON.parse. `onPublished` is called after each publication (every 256
 * items), on the scanning thread, with the number published. With `more`, `b` is filled as the
 * scan goes: `more()` reads on into it and returns how many bytes are read (`b.length` at the end).
 */
export function scanJsonBytes(
  b: Uint8Array,
  maxDepth: number,
  maxStringLength: number,
  items?: ItemBoundaries,
  onPublished?: (count: number) => void,
  more?: () => number,
): ByteScanResult {
  // Where the item boundaries stand: before the top-level object, expecting one of its keys, in one
  // of its values (or after a key), after `"items":`, expecting an element of the items array, in
  // an element, after an element, after the top-level object; OFF when not tracking (any more).
  const OFF = -1;
  const BEFORE = 0;
  const KEY = 1;
  const VALUE = 2;
  const ITEMS_VALUE = 3;
  const ELEMENT_NEXT = 4;
  const ELEMENT = 5;
  const AFTER_ELEMENT = 6;
  const AFTER = 7;
  const offsets = items ? items.offsets : new Int32Array(0);
  const control = items ? items.control : new Int32Array(4);
  let track = items ? BEFORE : OFF;
  let count = 0;
  let published = 0;
  let sawItems = false;
  let itemsKey = false;
  let afterComma = false;
  const stop = (status: number) => {
    track = OFF;
    Atomics.store(control, 1, status);
    Atomics.notify(control, 0);
  };

  const result = scan();
  if (items) {
    if (track === AFTER) {
      Atomics.store(control, 0, count);
      Atomics.store(control, 1, 1);
      Atomics.notify(control, 0);
    } else if (track !== OFF) {
      stop(2);
    }
  }
  return result;

  function scan(): ByteScanResult {
    const total = b.length;
    // Bytes read so far: all of them, or what `more` has read (it reads on and says how far).
    let n = more ? more() : total;
    let depth = 0;
    let suspicious = false;
    let i = 0;
    for (;;) {
      if (i >= n) {
        if (n >= total) break;
        n = more!();
        continue;
      }
      const c = b[i];
      if (c === 34) {
        const start = i + 1;
        let k = start;
        let units = 0;
        let escaped = false;
        // Most strings have no escape: find the closing quote, and count UTF-16 units only when
        // the bytes could be over the limit (a string has no more units than bytes). The word check
        // below reads the bytes, so a 9- or 11-byte string that is not ASCII never matches there.
        let ch = 0;
        while (k < n && (ch = b[k]) !== 34 && ch !== 92) k++;
        if (k < n && ch === 34) {
          units = k - start;
          if (units > maxStringLength) {
            units = 0;
            for (let h = start; h < k; h++) {
              const u = b[h];
              if (u < 0x80 || u >= 0xc0) units += u >= 0xf0 ? 2 : 1;
            }
          }
        } else {
          k = start;
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
        }
        if (k >= n) {
          // The string goes past what is read: read on and take it again from its quote.
          if (n < total) {
            n = more!();
            continue;
          }
          return { suspicious };
        }
        if (track !== OFF && track !== VALUE && track !== ELEMENT) {
          if (track !== KEY) stop(2);
          else if (escaped) stop(2);
          else {
            // A key of the top-level object: a second "items" is not the plain shape.
            itemsKey = k - start === 5 && b[start] === 105 && b[start + 1] === 116 && b[start + 2] === 101 && b[start + 3] === 109 && b[start + 4] === 115;
            if (itemsKey && sawItems) stop(2);
            else {
              sawItems ||= itemsKey;
              track = VALUE;
            }
          }
        }
        // Only the first letters of the three words (`_`, `p`, `c`) need the word spelled out.
        if (!escaped && (units === 9 || units === 11) && (b[start] === 95 || b[start] === 112 || b[start] === 99)) {
          let word = '';
          for (let h = start; h < k; h++) word += String.fromCharCode(b[h]);
          if (word === '__proto__' || word === 'prototype' || word === 'constructor') suspicious = true;
        }
        if (units > maxStringLength) return { error: 'string', length: units, line: lineAtByte(b, i) };
        i = k + 1;
        continue;
      }
      if (c === 123 || c === 91) {
        if (track !== OFF && track !== VALUE && track !== ELEMENT) {
          if (track === BEFORE && c === 123) track = KEY;
          else if (track === ITEMS_VALUE && c === 91) {
            control[2] = i;
            track = ELEMENT_NEXT;
            afterComma = false;
          } else if (track === ELEMENT_NEXT && c === 123) {
            offsets[2 * count] = i;
            track = ELEMENT;
          } else stop(2);
        }
        if (++depth > maxDepth) return { error: 'depth', length: depth, line: lineAtByte(b, i) };
      } else if (c === 125 || c === 93) {
        depth--;
        if (track === ELEMENT) {
          if (depth === 2) {
            offsets[2 * count + 1] = i + 1;
            count++;
            track = AFTER_ELEMENT;
            if (2 * count + 2 > offsets.length) stop(3);
            else if (count - published >= 256) {
              published = count;
              Atomics.store(control, 0, count);
              Atomics.notify(control, 0);
              if (onPublished) onPublished(count);
            }
          }
        } else if (track === VALUE || track === KEY) {
          // Only the top-level object closes here (other closes are inside values).
          if (depth === 0) {
            if (c === 125 && sawItems) track = AFTER;
            else stop(2);
          } else if (track === KEY) stop(2);
        } else if (track === ELEMENT_NEXT || track === AFTER_ELEMENT) {
          if (c === 93 && depth === 1 && (track === AFTER_ELEMENT || !afterComma)) {
            control[3] = i;
            itemsKey = false;
            track = VALUE;
          } else stop(2);
        } else if (track !== OFF) stop(2);
      } else if (track !== OFF && c !== 32 && c !== 10 && c !== 13 && c !== 9) {
        // Separators and literals, where the plain shape allows them.
        if (track === VALUE) {
          if (depth === 1 && c === 44) track = KEY;
          else if (depth === 1 && c === 58 && itemsKey) track = ITEMS_VALUE;
        } else if (track === AFTER_ELEMENT && c === 44) {
          track = ELEMENT_NEXT;
          afterComma = true;
        } else if (track !== ELEMENT) stop(2);
      }
      i++;
    }
    return { suspicious };
  }

  function lineAtByte(bytes: Uint8Array, offset: number): number {
    let line = 1;
    for (let h = 0; h < offset; h++) if (bytes[h] === 10) line++;
    return line;
  }
}
