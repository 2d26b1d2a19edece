// Splits the text of an audit file into one JSON text per event, chunk by chunk, without holding
// the file: JSON lines (what the log backend writes) line by line, and anything else (an EventList,
// a pretty-printed Event) with a small structural scanner that hands out the `items` one at a time.

export interface EventText {
  text: string;
  /** 1-based line where the event starts. */
  line: number;
}

export interface EventSplitter {
  push(chunk: string): void;
  end(): void;
}

export interface SplitterSink {
  event(e: EventText): void;
  malformed(line: number, error: string): void;
}

/** Longer than this, a line or an item is reported and skipped instead of buffered. */
export const MAX_EVENT_CHARS = 32 * 1024 * 1024;

export function createEventSplitter(sink: SplitterSink, maxChars = MAX_EVENT_CHARS): EventSplitter {
  let mode: 'unknown' | 'lines' | 'structure' = 'unknown';
  let pending = '';
  let lineNo = 1;
  let skippingLongLine = false;
  const scanner = createStructureScanner(sink, maxChars);

  const decide = (firstLine: string): typeof mode => {
    const t = firstLine.trim();
    if (t.startsWith('{') && t.endsWith('}')) {
      try {
        const v = JSON.parse(t) as { kind?: unknown };
        return (mode = v && typeof v === 'object' && v.kind === 'EventList' ? 'structure' : 'lines');
      } catch {
        // A first line that is not a whole object: a pretty-printed document.
      }
    }
    return (mode = t === '' ? 'unknown' : 'structure');
  };
  const route = (text: string) => (mode === 'lines' ? pushLines(text) : scanner.push(text));

  const emitLine = (text: string, line: number) => {
    if (text.trim() === '') return;
    sink.event({ text, line });
  };

  const pushLines = (chunk: string) => {
    let start = 0;
    let nl = chunk.indexOf('\n');
    while (nl >= 0) {
      if (skippingLongLine) skippingLongLine = false;
      else emitLine(pending + chunk.slice(start, nl), lineNo);
      pending = '';
      lineNo++;
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    if (skippingLongLine) return;
    pending += chunk.slice(start);
    if (pending.length > maxChars) {
      sink.malformed(lineNo, `line longer than ${maxChars} characters, skipped`);
      pending = '';
      skippingLongLine = true;
    }
  };

  // Undecided: the chunks of the first non-empty line, kept apart and joined once, and only each new
  // chunk searched for the line's end, so a first line of any length costs time linear in its size.
  let head: string[] = [];
  let headChars = 0;
  const takeHead = () => {
    const text = head.join('');
    head = [];
    headChars = 0;
    return text;
  };

  return {
    push(chunk) {
      if (mode === 'lines') return pushLines(chunk);
      if (mode === 'structure') return scanner.push(chunk);
      let rest = chunk;
      for (;;) {
        const nl = rest.indexOf('\n');
        if (nl < 0) {
          head.push(rest);
          headChars += rest.length;
          if (headChars <= maxChars) return;
          // A first line longer than any event: the chosen mode reports it (blank space is dropped).
          const text = takeHead();
          return decide(text) === 'unknown' ? undefined : route(text);
        }
        const first = takeHead() + rest.slice(0, nl);
        if (decide(first) === 'unknown') {
          rest = rest.slice(nl + 1);
          lineNo++;
          scanner.skipLines(1);
          continue;
        }
        return route(first + rest.slice(nl));
      }
    },
    end() {
      if (mode === 'unknown') {
        const rest = takeHead();
        if (rest.trim() !== '') {
          decide(rest);
          route(rest);
        }
      }
      if (mode === 'lines') {
        if (!skippingLongLine) emitLine(pending, lineNo);
        pending = '';
      } else if (mode === 'structure') scanner.end();
    },
  };
}

/**
 * Emits every top-level JSON object and every object in a top-level `"items": [...]`, without
 * buffering the list around them. It tracks strings and depth only; JSON.parse judges each piece.
 */
function createStructureScanner(sink: SplitterSink, maxChars: number) {
  let depth = 0;
  let inString = false;
  let escape = false;
  let line = 1;
  // The last string closed at depth 1 (a key candidate) and whether `items` opened the array we are in.
  let lastKey = '';
  let keyStart = -1;
  let keyParts: string[] = [];
  let inItems = false;
  // Capture of the current piece: the top-level object (until it proves to be a list) or an item.
  let capturing: 'none' | 'top' | 'item' = 'none';
  let captureParts: string[] = [];
  let captureLen = 0;
  let captureLine = 0;
  let captureStart = 0;
  let overflow = false;
  // The line whose stray text was last reported: a long stray line spans many chunks.
  let strayLine = 0;

  const flushCapture = (chunk: string, end: number) => {
    captureParts.push(chunk.slice(captureStart, end));
    captureLen += end - captureStart;
  };

  return {
    skipLines(n: number) {
      line += n;
    },
    push(chunk: string) {
      captureStart = 0;
      keyStart = keyStart >= 0 ? 0 : -1;
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk.charCodeAt(i);
        if (c === 10) line++;
        if (inString) {
          if (escape) escape = false;
          else if (c === 92) escape = true;
          else if (c === 34) {
            inString = false;
            if (keyStart >= 0) {
              keyParts.push(chunk.slice(keyStart, i));
              lastKey = keyParts.join('');
              keyStart = -1;
              keyParts = [];
            }
          }
          continue;
        }
        if (c === 34) {
          inString = true;
          if (depth === 1) {
            keyStart = i + 1;
            keyParts = [];
          }
        } else if (c === 123 || c === 91) {
          // { or [
          if (c === 91 && depth === 1 && lastKey === 'items') {
            inItems = true;
            // The top-level object is a list: stop buffering it.
            if (capturing === 'top') {
              capturing = 'none';
              captureParts = [];
              captureLen = 0;
            }
          }
          if (c === 123 && depth === 0) {
            capturing = 'top';
            captureStart = i;
            captureLine = line;
            overflow = false;
          } else if (c === 123 && depth === 2 && inItems && capturing === 'none') {
            capturing = 'item';
            captureStart = i;
            captureLine = line;
            overflow = false;
          }
          depth++;
        } else if (c === 125 || c === 93) {
          depth--;
          if (depth === 1 && c === 93) inItems = false;
          if (c === 125 && ((capturing === 'top' && depth === 0) || (capturing === 'item' && depth === 2))) {
            flushCapture(chunk, i + 1);
            if (!overflow) sink.event({ text: captureParts.join(''), line: captureLine });
            capturing = 'none';
            captureParts = [];
            captureLen = 0;
          }
          if (depth < 0) {
            sink.malformed(line, 'unbalanced closing bracket');
            depth = 0;
          }
        } else if (depth === 0 && c > 32 && c !== 44) {
          // Stray text between documents: report it once per line.
          if (strayLine !== line) sink.malformed(line, `unexpected "${String.fromCharCode(c)}" outside an object`);
          strayLine = line;
          const nl = chunk.indexOf('\n', i);
          if (nl < 0) break;
          i = nl - 1;
        }
      }
      if (keyStart >= 0) keyParts.push(chunk.slice(keyStart));
      if (capturing !== 'none') {
        flushCapture(chunk, chunk.length);
        if (captureLen > maxChars && !overflow) {
          overflow = true;
          sink.malformed(captureLine, `object longer than ${maxChars} characters, skipped`);
        }
        if (overflow) {
          captureParts = [];
          captureLen = 0;
        }
      }
    },
    end() {
      if (depth !== 0 || inString) sink.malformed(captureLine || line, 'the document ends inside an object (truncated file?)');
    },
  };
}
