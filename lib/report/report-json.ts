import type { Report } from '@/lib/analysis/types';

// The report as pretty-printed JSON, in pieces: a large cluster's report (thousands of nodes, each
// listing its status writers) can exceed the longest string a JavaScript engine will build, so
// callers write it piece by piece. Joined with "\n", the pieces equal JSON.stringify(report, null, 2).

const CHUNK_CHARS = 1 << 16;
const GROUP = 64;
const WRAP_HEAD = '{\n  "k": [\n';
const WRAP_TAIL = '\n  ]\n}';

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
      // Items go through JSON.stringify in groups, wrapped so that they come out already indented
      // as members of a top-level array (re-indenting each item's text was the slow part).
      for (let j = 0; j < value.length; j += GROUP) {
        const end = Math.min(value.length, j + GROUP);
        const text = JSON.stringify({ k: value.slice(j, end) }, null, 2);
        yield* line(`${text.slice(WRAP_HEAD.length, text.length - WRAP_TAIL.length)}${end < value.length ? ',' : ''}`);
      }
      yield* line(`  ]${comma}`);
    } else {
      yield* line(`  ${name}: ${JSON.stringify(value, null, 2).replace(/\n/g, '\n  ')}${comma}`);
    }
  }
  yield* line('}');
  if (buffer.length > 0) yield buffer.join('\n');
}
