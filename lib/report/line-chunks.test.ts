import { describe, expect, it } from 'vitest';
import { createRandom } from '@/scripts/bench/prng';
import { lineChunks } from './line-chunks';

// lineChunks must write exactly the text the renderers built before it (lines joined, trailing blank
// lines trimmed to one final newline), only in pieces of whole lines.

const joined = (lines: string[]) => `${lines.join('\n').replace(/\n+$/, '')}\n`;

describe('lineChunks', () => {
  it('concatenates to the joined, trimmed text, each piece ending with a newline, for any lines and piece size', () => {
    const shapes = ['', '\n', '\n\n', 'a', 'bb\n', 'c\nd', '| x |', '```\ncode\n```'];
    const rnd = createRandom(7).next;
    for (let round = 0; round < 2000; round++) {
      const lines = Array.from({ length: Math.floor(rnd() * 12) }, () => shapes[Math.floor(rnd() * shapes.length)]);
      const chunkChars = 1 + Math.floor(rnd() * 8);
      const chunks = [...lineChunks(lines, chunkChars)];
      expect(chunks.join(''), JSON.stringify({ lines, chunkChars })).toBe(joined(lines));
      for (const c of chunks) expect(c.endsWith('\n')).toBe(true);
    }
  });

  it('cuts a long text into pieces of about the size asked', () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i}`);
    const chunks = [...lineChunks(lines, 1000)];
    expect(chunks.join('')).toBe(joined(lines));
    expect(chunks.length).toBeGreaterThan(50);
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeLessThan(1000 + 'line 9999\n'.length * 2);
  });
});
