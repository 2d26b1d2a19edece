// Text made of lines, written in pieces: a large cluster's report runs to hundreds of thousands of
// lines, too many to collect in one array and spread (`push(...lines)` overflows the stack past
// ~120,000 arguments) and, joined, close to the longest string the engine builds.

const CHUNK_CHARS = 1 << 16;

const isBlank = (line: string) => /^\n*$/.test(line);

/**
 * The lines joined by newlines, in pieces of about `chunkChars` characters that each end with a
 * newline: exactly `${lines.join('\n').replace(/\n+$/, '')}\n` when concatenated (trailing blank
 * lines dropped, one final newline), built without holding every line.
 */
export function* lineChunks(lines: Iterable<string>, chunkChars = CHUNK_CHARS): Generator<string> {
  let buffer = '';
  // The last line with text, and the blank lines after it: written once more text follows, so the
  // end of the text can still be trimmed.
  let held: string | undefined;
  let blanks = 0;
  for (const line of lines) {
    if (isBlank(line)) {
      if (held === undefined) buffer += `${line}\n`;
      else blanks += line.length + 1;
      continue;
    }
    if (held !== undefined) buffer += `${held}\n${'\n'.repeat(blanks)}`;
    held = line;
    blanks = 0;
    if (buffer.length >= chunkChars) {
      yield buffer;
      buffer = '';
    }
  }
  if (held === undefined) {
    yield '\n';
    return;
  }
  yield `${buffer}${held.replace(/\n+$/, '')}\n`;
}
