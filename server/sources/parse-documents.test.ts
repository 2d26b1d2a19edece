import { describe, expect, it } from 'vitest';

import { SnapshotError } from '@/lib/k8s/snapshot-error';

import { MAX_DEPTH, MAX_STRING_LENGTH, MAX_YAML_DOCUMENTS, parseDocuments } from './parse-documents';

function errorOf(fn: () => unknown): SnapshotError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SnapshotError) return e;
    throw e;
  }
  throw new Error('expected a SnapshotError');
}

function timed<T>(fn: () => T): { result: T; ms: number } {
  const start = performance.now();
  const result = fn();
  return { result, ms: performance.now() - start };
}

const values = (items: { value: unknown }[]) => items.map((i) => i.value);

describe('JSON', () => {
  it('reads one object, an array of objects, or JSON lines', () => {
    expect(parseDocuments('{"kind":"List","items":[]}', 'a.json')).toEqual([{ value: { kind: 'List', items: [] }, origin: { file: 'a.json', document: 0 } }]);
    expect(parseDocuments('[{"a":1},{"b":2}]', 'b.json')).toEqual([
      { value: { a: 1 }, origin: { file: 'b.json', document: 0 } },
      { value: { b: 2 }, origin: { file: 'b.json', document: 1 } },
    ]);
    expect(parseDocuments('{"a":1}\n\n{"b":2}\n{"c":3}\n', 'c.jsonl')).toEqual([
      { value: { a: 1 }, origin: { file: 'c.jsonl', document: 0 } },
      { value: { b: 2 }, origin: { file: 'c.jsonl', document: 1 } },
      { value: { c: 3 }, origin: { file: 'c.jsonl', document: 2 } },
    ]);
  });

  it('sniffs JSON by content and takes the JSON path for a .yaml file holding JSON', () => {
    expect(values(parseDocuments(' \n{"x": "y"}', 'upload'))).toEqual([{ x: 'y' }]);
    expect(values(parseDocuments('{"x": "y"}', 'dump.yaml'))).toEqual([{ x: 'y' }]);
    // ...but YAML flow syntax in a .yaml file still reads as YAML.
    expect(values(parseDocuments('{x: y}', 'flow.yaml'))).toEqual([{ x: 'y' }]);
  });

  it('strips a byte-order mark and refuses invalid UTF-8', () => {
    expect(values(parseDocuments(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"a":1}')]), 'bom.json'))).toEqual([{ a: 1 }]);
    expect(errorOf(() => parseDocuments(new Uint8Array([0x7b, 0xff, 0x7d]), 'bin.json')).message).toBe('bin.json: not valid UTF-8 text');
  });

  it('reports syntax errors with the file and line', () => {
    const error = errorOf(() => parseDocuments('{\n  "a": 1,\n  "b": \n}', 'broken.json'));
    expect(error.file).toBe('broken.json');
    expect(error.message).toMatch(/^broken\.json: (line \d+: )?invalid JSON: /);
    const lines = errorOf(() => parseDocuments('{"a":1}\n{"b":2}\n{"c":\n', 'l.jsonl'));
    expect(lines.message).toMatch(/^l\.jsonl: document 3, line 3: invalid JSON: /);
  });

  it('rejects 1e5-deep arrays and objects cleanly and fast', () => {
    const n = 100_000;
    for (const text of ['['.repeat(n) + ']'.repeat(n), '{"a":'.repeat(n) + '1' + '}'.repeat(n)]) {
      const { result, ms } = timed(() => errorOf(() => parseDocuments(text, 'deep.json')));
      expect(result.message).toBe(`deep.json: line 1: nested deeper than ${MAX_DEPTH} levels`);
      expect(ms).toBeLessThan(1000);
    }
  });

  it('accepts exactly the depth limit and refuses one more', () => {
    const nest = (d: number) => '['.repeat(d) + ']'.repeat(d);
    expect(parseDocuments(nest(MAX_DEPTH), 'ok.json')).toHaveLength(1);
    expect(errorOf(() => parseDocuments(nest(MAX_DEPTH + 1), 'no.json')).reason).toBe(`nested deeper than ${MAX_DEPTH} levels`);
    // Brackets inside strings do not count.
    expect(parseDocuments(`{"a": "${'['.repeat(500)}"}`, 's.json')).toHaveLength(1);
  });

  it('rejects a string over 1 MiB, and accepts one at the limit', () => {
    const big = `{"metadata":{"name":"x","annotations":{"a":"${'x'.repeat(2 * 1024 * 1024)}"}}}`;
    expect(errorOf(() => parseDocuments(big, 'big.json')).message).toBe(`big.json: line 1: string longer than ${MAX_STRING_LENGTH} characters (2097152)`);
    expect(parseDocuments(`{"a":"${'x'.repeat(MAX_STRING_LENGTH)}"}`, 'edge.json')).toHaveLength(1);
    const escaped = `{"a":"${'\\n'.repeat(MAX_STRING_LENGTH / 2 + 1)}${'x'.repeat(MAX_STRING_LENGTH / 2)}"}`;
    expect(errorOf(() => parseDocuments(escaped, 'esc.json')).reason).toBe(`string longer than ${MAX_STRING_LENGTH} characters (${MAX_STRING_LENGTH + 1})`);
  });

  it.each([
    ['{"metadata": {"labels": {"__proto__": {"polluted": "yes"}}}}', 'metadata.labels.__proto__: forbidden key "__proto__"'],
    ['[{"a": 1}, {"spec": {"constructor": {"prototype": {"polluted": "yes"}}}}]', 'spec.constructor: forbidden key "constructor"'],
    ['{"x": [{"prototype": 1}]}', 'x[0].prototype: forbidden key "prototype"'],
    ['{"\\u005f_proto__": {"polluted": "yes"}}', '__proto__: forbidden key "__proto__"'],
    ['{"a": {"__pro\\u0074o__": {"polluted": "yes"}}}', 'a.__proto__: forbidden key "__proto__"'],
  ])('rejects forbidden keys: %s', (text, tail) => {
    const error = errorOf(() => parseDocuments(text, 'evil.json'));
    expect(error.message.endsWith(tail)).toBe(true);
    expect(error.file).toBe('evil.json');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  it('names the document of a forbidden key in an array', () => {
    expect(errorOf(() => parseDocuments('[{}, {"__proto__": 1}]', 'arr.json')).message).toBe('arr.json: document 2: __proto__: forbidden key "__proto__"');
  });

  it('accepts the forbidden names as values and inside longer keys', () => {
    expect(values(parseDocuments('{"name": "constructor", "labels": {"x-prototype": "__proto__"}, "e": "\\u0041"}', 'ok.json'))).toEqual([
      { name: 'constructor', labels: { 'x-prototype': '__proto__' }, e: 'A' },
    ]);
  });
});

describe('YAML', () => {
  it('reads multi-document YAML with comments and empty documents', () => {
    const text = [
      '# a snapshot',
      'apiVersion: v1',
      'kind: Namespace',
      'metadata: {name: a}',
      '---',
      '---',
      'apiVersion: v1',
      'kind: Namespace',
      'metadata:',
      '  name: b',
      '...',
      '',
    ].join('\n');
    expect(parseDocuments(text, 'ns.yaml')).toEqual([
      { value: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }, origin: { file: 'ns.yaml', document: 0 } },
      { value: null, origin: { file: 'ns.yaml', document: 1 } },
      { value: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b' } }, origin: { file: 'ns.yaml', document: 2 } },
    ]);
  });

  it('uses the core schema: timestamps stay strings, yes/no stay strings', () => {
    expect(values(parseDocuments('t: 2026-07-01T10:00:00Z\nb: yes\nn: 10\nq: "10"\nx: ~\n', 'c.yaml'))).toEqual([
      { t: '2026-07-01T10:00:00Z', b: 'yes', n: 10, q: '10', x: null },
    ]);
  });

  it('reads up to the document limit and refuses a document bomb at the first document past it', () => {
    expect(parseDocuments('---\n'.repeat(MAX_YAML_DOCUMENTS), 'many.yaml')).toHaveLength(MAX_YAML_DOCUMENTS);
    // 500,000 empty documents (2 MB): refused where the limit is passed, naming the limit and the line.
    const error = errorOf(() => parseDocuments('---\n'.repeat(500_000), 'docs.yaml'));
    expect(error.document).toBe(MAX_YAML_DOCUMENTS);
    expect(error.line).toBeGreaterThan(MAX_YAML_DOCUMENTS - 2);
    expect(error.line).toBeLessThan(MAX_YAML_DOCUMENTS + 3);
    expect(error.message).toMatch(
      new RegExp(
        `^docs\\.yaml: document ${MAX_YAML_DOCUMENTS + 1}, line \\d+: more than ${MAX_YAML_DOCUMENTS} YAML documents; put the objects in one List document$`,
      ),
    );
  });

  it('allows a few plain anchors and aliases', () => {
    expect(values(parseDocuments('a: &l {app: web}\nb: *l\n', 'alias.yaml'))).toEqual([{ a: { app: 'web' }, b: { app: 'web' } }]);
  });

  it('rejects a billion-laughs alias bomb fast', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      lines.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const { result, ms } = timed(() => errorOf(() => parseDocuments(lines.join('\n'), 'bomb.yaml')));
    expect(result.message).toBe('bomb.yaml: document 1: too many YAML alias expansions (limit 100)');
    expect(ms).toBeLessThan(1000);
  });

  it.each([
    ['f: !!js/function "function () { process.exit(1) }"', 'f: YAML tag !!js/function is not allowed'],
    ['r: !!js/regexp /x/', 'r: YAML tag !!js/regexp is not allowed'],
    ['a: !custom {b: 1}', 'a: YAML tag !custom is not allowed'],
    ['data: !!binary aGVsbG8=', 'data: YAML tag !!binary is not allowed'],
    ['s: !!set {a, b}', 's: YAML tag !!set is not allowed'],
    ['t: !!timestamp 2026-01-01', 't: YAML tag !!timestamp is not allowed'],
    ['items:\n  - !!omap [{a: 1}]', 'items[0]: YAML tag !!omap is not allowed'],
  ])('rejects the tag in %j', (text, tail) => {
    const error = errorOf(() => parseDocuments(text, 'tags.yaml'));
    expect(error.message.endsWith(tail)).toBe(true);
    expect(error.message.startsWith('tags.yaml: document 1, line ')).toBe(true);
  });

  it('accepts the standard tags', () => {
    expect(values(parseDocuments('a: !!str 10\nb: !!int "7"\nc: !!map {x: !!seq [1]}\nd: !!bool true\ne: !!null ""\nf: !!float 1.5\n', 'std.yaml'))).toEqual([
      { a: '10', b: 7, c: { x: [1] }, d: true, e: null, f: 1.5 },
    ]);
  });

  it('rejects deep flow and block nesting cleanly and fast', () => {
    const n = 100_000;
    // Text starting with `[` or `{` first goes through the JSON scanner, which has no document yet.
    const cases: [string, string][] = [
      ['['.repeat(n) + ']'.repeat(n), 'deep.yaml: line 1: '],
      ['{a: '.repeat(n) + '1' + '}'.repeat(n), 'deep.yaml: line 1: '],
      ['k: ' + '['.repeat(n) + ']'.repeat(n), 'deep.yaml: document 1, line 1: '],
      ['- '.repeat(n) + 'x\n', 'deep.yaml: document 1, line 1: '],
      [Array.from({ length: 5000 }, (_, i) => `${' '.repeat(i)}- a:`).join('\n'), 'deep.yaml: document 1, line '],
    ];
    for (const [text, prefix] of cases) {
      const { result, ms } = timed(() => errorOf(() => parseDocuments(text, 'deep.yaml')));
      expect(result.reason).toBe(`nested deeper than ${MAX_DEPTH} levels`);
      expect(result.message.startsWith(prefix)).toBe(true);
      expect(ms).toBeLessThan(1000);
    }
  });

  it('accepts the depth limit and refuses one more (block style)', () => {
    const nested = (d: number) => {
      const lines: string[] = [];
      for (let i = 0; i < d; i++) lines.push(`${'  '.repeat(i)}k${i}:`);
      lines.push(`${'  '.repeat(d)}leaf`);
      return lines.join('\n');
    };
    expect(parseDocuments(nested(MAX_DEPTH), 'ok.yaml')).toHaveLength(1);
    expect(errorOf(() => parseDocuments(nested(MAX_DEPTH + 1), 'no.yaml')).reason).toBe(`nested deeper than ${MAX_DEPTH} levels`);
  });

  it('re-checks depth after aliases expand', () => {
    const lines = ['a0: &a0 [x]'];
    for (let i = 1; i < 70; i++) lines.push(`a${i}: &a${i} [*a${i - 1}]`);
    expect(errorOf(() => parseDocuments(lines.join('\n'), 'chain.yaml')).reason).toMatch(
      new RegExp(`nested deeper than ${MAX_DEPTH} levels|too many YAML alias expansions`),
    );
  });

  it.each([
    ['__proto__: {polluted: yes}', '__proto__: forbidden key "__proto__"'],
    ['metadata:\n  labels:\n    constructor: x', 'metadata.labels.constructor: forbidden key "constructor"'],
    ['"__proto__": 1', '__proto__: forbidden key "__proto__"'],
    ['a:\n  <<: {__proto__: {polluted: yes}}', 'a["<<"].__proto__: forbidden key "__proto__"'],
  ])('rejects forbidden keys: %j', (text, tail) => {
    const error = errorOf(() => parseDocuments(text, 'evil.yaml'));
    expect(error.message.endsWith(tail)).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('does not merge `<<` keys: they stay plain keys', () => {
    expect(values(parseDocuments('base: &b {x: 1}\nobj:\n  <<: *b\n  y: 2\n', 'merge.yaml'))).toEqual([{ base: { x: 1 }, obj: { '<<': { x: 1 }, y: 2 } }]);
  });

  it('rejects duplicate keys with the line', () => {
    expect(errorOf(() => parseDocuments('a: 1\nb: 2\na: 3\n', 'dup.yaml')).message).toBe('dup.yaml: document 1, line 3: invalid YAML: Map keys must be unique');
  });

  it('rejects complex keys', () => {
    expect(errorOf(() => parseDocuments('? [a, b]\n: 1\n', 'k.yaml')).reason).toBe(
      'mapping keys must be plain scalars (no aliases, collections or empty keys)',
    );
  });

  it('reports syntax errors with the document and line', () => {
    const error = errorOf(() => parseDocuments('a: 1\n---\nb: [1, 2\nc: 3\n', 'syntax.yaml'));
    expect([error.file, error.document]).toEqual(['syntax.yaml', 1]);
    expect(error.line).toBeGreaterThanOrEqual(3);
    expect(error.message).toMatch(/^syntax\.yaml: document 2, line \d+: invalid YAML: /);
  });

  it('rejects a 2 MiB string', () => {
    const error = errorOf(() => parseDocuments(`a: ${'x'.repeat(2 * 1024 * 1024)}\n`, 'big.yaml'));
    expect(error.message).toBe(`big.yaml: document 1, line 1: a: string longer than ${MAX_STRING_LENGTH} characters (2097152)`);
  });
});
