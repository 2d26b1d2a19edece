import { describe, expect, it } from 'vitest';
import { formatCount, plural } from './count-text';

// formatCount groups whole counts itself; its text must be what toLocaleString('en-US') gives
// (the report's issue titles and reasons were written with it, and must stay byte-identical).

function seededRandom(seed: number) {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('formatCount', () => {
  it('groups digits in threes, as en-US does', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1,000');
    expect(formatCount(10007)).toBe('10,007');
    expect(formatCount(100016)).toBe('100,016');
    expect(formatCount(1234567)).toBe('1,234,567');
  });

  it('equals toLocaleString("en-US") on random counts of every length, and on what is not a whole count', () => {
    const random = seededRandom(23);
    const samples = [Number.MAX_SAFE_INTEGER, 2 ** 53, -1, -1234, -0, 0.5, 1234.5678, NaN, Infinity, -Infinity, 1e21];
    for (let digits = 1; digits <= 16; digits++) for (let i = 0; i < 200; i++) samples.push(Math.floor(random() * 10 ** digits));
    for (const n of samples) expect(formatCount(n), String(n)).toBe(n.toLocaleString('en-US'));
  });

  it('plural names one or many', () => {
    expect(plural(1, 'node')).toBe('1 node');
    expect(plural(2500, 'finding')).toBe('2,500 findings');
  });
});
