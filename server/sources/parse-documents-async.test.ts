import { describe, expect, it } from 'vitest';
import { parseDocuments, parseDocumentsAsync } from './parse-documents';
import { scanJsonBytes } from './scan-json-bytes';
import { scanJsonBytesInWorker } from './scan-json-in-worker';

// The worker-scanned path must accept and refuse exactly what the plain path does, with the same
// message, file and line.

function shared(text: string): Uint8Array {
  const plain = new TextEncoder().encode(text);
  const bytes = new Uint8Array(new SharedArrayBuffer(plain.length));
  bytes.set(plain);
  return bytes;
}

async function both(text: string): Promise<[unknown, unknown]> {
  const run = async (f: () => unknown) => {
    try {
      return { items: (await f()) as unknown };
    } catch (e) {
      return { error: (e as Error).message, detail: JSON.stringify(e) };
    }
  };
  return [
    await run(() => parseDocuments(new TextEncoder().encode(text), 'f.json')),
    await run(() => parseDocumentsAsync(shared(text), 'f.json', { workerMinBytes: 0 })),
  ];
}

const item = (extra: string) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"${extra}}}`;
const CASES: Record<string, string> = {
  list: `{"kind":"List","items":[${item('')},${item(',"labels":{"é":"ü😀"}')}]}`,
  'deep nesting': `{"kind":"List","items":[${'['.repeat(70)}${']'.repeat(70)}]}`,
  'deep on line 3': `{\n"kind":"List",\n"items":${'{"a":'.repeat(65)}1${'}'.repeat(65)}}`,
  'long ascii string': `{"kind":"List","items":[${item(`,"annotations":{"a":"${'x'.repeat(1024 * 1024 + 1)}"}`)}]}`,
  'long multibyte string counted in UTF-16 units': `{"kind":"List","items":[${item(`,"annotations":{"a":"${'é'.repeat(1024 * 1024 + 1)}"}`)}]}`,
  'string at the limit with astral characters': `{"kind":"List","items":[${item(`,"annotations":{"a":"${'😀'.repeat(512 * 1024)}"}`)}]}`,
  'astral string one unit over': `{"kind":"List","items":[${item(`,"annotations":{"a":"${'😀'.repeat(512 * 1024)}x"}`)}]}`,
  'plain __proto__ key': `{"kind":"List","items":[${item(',"labels":{"__proto__":"x"}')}]}`,
  'escaped constructor key': `{"kind":"List","items":[${item(',"labels":{"\\u0063onstructor":"x"}')}]}`,
  'escaped harmless key': `{"kind":"List","items":[${item(',"labels":{"a\\nb":"x","\\u00e9":"y"}')}]}`,
  'value named prototype is fine': `{"kind":"List","items":[${item(',"labels":{"a":"prototype"}')}]}`,
  'syntax error': `{"kind":"List","items":[${item('')},]}`,
  'JSON lines': `${item('')}\n${item('')}\n`,
  'unterminated string': `{"kind":"List","items":["abc`,
  'byte order mark': `\ufeff{"kind":"List","items":[${item('')}]}`,
};

describe('parseDocumentsAsync', () => {
  for (const [name, text] of Object.entries(CASES)) {
    it(`agrees with parseDocuments: ${name}`, async () => {
      const [plain, concurrent] = await both(text);
      expect(concurrent).toEqual(plain);
    });
  }

  it('refuses what it should (the cases above are not all accepted)', async () => {
    const refused = [];
    for (const [name, text] of Object.entries(CASES)) if ('error' in ((await both(text))[1] as object)) refused.push(name);
    expect(refused.sort()).toEqual(
      [
        'astral string one unit over',
        'deep nesting',
        'deep on line 3',
        'escaped constructor key',
        'long ascii string',
        'long multibyte string counted in UTF-16 units',
        'plain __proto__ key',
        'syntax error',
        'unterminated string',
      ].sort(),
    );
  });

  it('counts UTF-16 units and lines like the text scan', () => {
    const text = `{\n"a": "é😀x",\n"b": ${'['.repeat(3)}${']'.repeat(3)}}`;
    expect(scanJsonBytes(new TextEncoder().encode(text), 2, 4)).toEqual({ error: 'depth', length: 3, line: 3 });
    expect(scanJsonBytes(new TextEncoder().encode(text), 10, 3)).toEqual({ error: 'string', length: 4, line: 2 });
    expect(scanJsonBytes(new TextEncoder().encode(text), 10, 4)).toEqual({ suspicious: false });
  });

  it('runs in a worker thread from its own source text', async () => {
    const text = `{"items":[{"metadata":{"labels":{"__proto__":"x"}}}], "deep": ${'['.repeat(5)}${']'.repeat(5)}}`;
    expect(await scanJsonBytesInWorker(shared(text), 64, 100)).toEqual({ suspicious: true });
    expect(await scanJsonBytesInWorker(shared(text), 4, 100)).toEqual({ error: 'depth', length: 5, line: 1 });
  });
});
