import { describe, expect, it } from 'vitest';
import { limitExpansion } from './limit-expansion';

async function drain(chunks: AsyncIterable<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const c of chunks) n += c.byteLength;
  return n;
}

async function* blocks(count: number, size: number, onEach: () => void = () => undefined): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < count; i++) {
    onEach();
    yield new Uint8Array(size);
  }
}

describe('limitExpansion', () => {
  it('passes output that stays within the ratio of the bytes received and the absolute cap', async () => {
    let received = 0;
    const out = limitExpansion(
      blocks(10, 1000, () => (received += 100)),
      () => received,
      { ratio: 10, maxBytes: 1e6, allowanceBytes: 0, what: 'x' },
    );
    expect(await drain(out)).toBe(10_000);
  });

  it('refuses output past the ratio of the compressed bytes received so far', async () => {
    let received = 0;
    const out = limitExpansion(
      blocks(10, 1000, () => (received += 50)),
      () => received,
      { ratio: 10, maxBytes: 1e6, allowanceBytes: 0, what: 'upload f.gz' },
    );
    await expect(drain(out)).rejects.toMatchObject({
      code: 'too_large',
      message: expect.stringMatching(/^upload f\.gz expands more than 10:1 when decompressed \(1000 bytes from the first 50\)/),
    });
  });

  it('lets the first block through the allowance, then applies the ratio', async () => {
    const out = limitExpansion(blocks(3, 1000), () => 1, { ratio: 10, maxBytes: 1e6, allowanceBytes: 2000, what: 'x' });
    await expect(drain(out)).rejects.toMatchObject({ message: expect.stringMatching(/\(3000 bytes from the first 1\)/) });
  });

  it('refuses output past the absolute cap whatever the ratio', async () => {
    const out = limitExpansion(blocks(10, 1000), () => 1e9, { ratio: 10, maxBytes: 4500, what: 'x' });
    await expect(drain(out)).rejects.toMatchObject({ code: 'too_large', message: 'x expands past 4500 bytes when decompressed' });
  });
});
