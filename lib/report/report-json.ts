import type { Report } from '@/lib/analysis/types';

// The report as JSON, in pieces: a large cluster's report (tens of thousands of findings, thousands
// of nodes) can exceed the longest string a JavaScript engine will build, so callers write it piece
// by piece. Layout: the top level pretty-printed with two spaces, each item of a top-level list on
// one compact line (one finding per line reads well with grep and diff, and indenting every field of
// 60,000 findings made a third of the file whitespace).

const CHUNK_CHARS = 1 << 16;

/** Also used for report-shaped objects (a bundle's report.json). */
export function* reportJsonChunks(report: Report): Generator<string> {
  let buffer: string[] = [];
  let size = 0;
  const line = function* (text: string) {
    buffer.push(text);
    size += text.length;
    if (size >= CHUNK_CHARS) {
      yield buffer.join('\n');
      buffer = [];
      size = 0;
    }
  };
  const entries = Object.entries(report).filter(([, v]) => v !== undefined);
  yield* line('{');
  for (let i = 0; i < entries.length; i++) {
    const [key, value] = entries[i];
    const comma = i < entries.length - 1 ? ',' : '';
    const name = JSON.stringify(key);
    if (Array.isArray(value) && value.length > 0) {
      yield* line(`  ${name}: [`);
      for (let j = 0; j < value.length; j++) yield* line(`    ${JSON.stringify(value[j])}${j < value.length - 1 ? ',' : ''}`);
      yield* line(`  ]${comma}`);
    } else {
      yield* line(`  ${name}: ${JSON.stringify(value, null, 2).replace(/\n/g, '\n  ')}${comma}`);
    }
  }
  yield* line('}');
  if (buffer.length > 0) yield buffer.join('\n');
}

/** The report's JSON text in pieces: the chunks above joined by newlines and one at the end, as `report -o json` prints them. */
export function* reportJsonTextChunks(report: Report): Generator<string> {
  let first = true;
  for (const chunk of reportJsonChunks(report)) {
    yield first ? chunk : `\n${chunk}`;
    first = false;
  }
  yield '\n';
}
