import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ClusterStateBuilder } from '@/lib/k8s/build-cluster-state';
import { byteScanError, MAX_DEPTH, MAX_STRING_LENGTH } from './parse-documents';
import { loadSnapshot, type LoadSnapshotOptions } from './snapshot-source';
import { streamJsonList } from './stream-json-list';

// A single JSON list read item by item must give exactly what reading it whole gives: the same
// state, or the same error (message, file, line, item). Every fixture, hand-made odd shapes, and
// thousands of random edits of a small list.

const ROOT = join(import.meta.dirname, '..', '..');
let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dra-stream-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

let n = 0;
function file(text: string | Uint8Array): string {
  const path = join(dir, `f${n++}.json`);
  writeFileSync(path, text);
  return path;
}

type Outcome = { state: unknown } | { error: string; detail: string };

async function outcome(path: string, options: LoadSnapshotOptions): Promise<Outcome> {
  try {
    return { state: await loadSnapshot(path, { ...options, name: 'x' }) };
  } catch (e) {
    return { error: (e as Error).message, detail: JSON.stringify(e) };
  }
}

/** Whole (never streamed) and item by item (streamed whenever possible). */
async function both(path: string, options: LoadSnapshotOptions = {}): Promise<[Outcome, Outcome]> {
  return [await outcome(path, { ...options, streamMinBytes: Number.POSITIVE_INFINITY }), await outcome(path, { ...options, streamMinBytes: 0 })];
}

/** Whether the file was read item by item (not handed back to the ordinary way); `size` is the size it was listed at. */
async function streams(path: string, size = statSync(path).size): Promise<boolean> {
  const builder = new ClusterStateBuilder({ kind: 'snapshot', name: 'x' }, {});
  const file = { path, size };
  return streamJsonList(file, { file: 'x', document: 0 }, builder, { maxDepth: MAX_DEPTH, maxStringLength: MAX_STRING_LENGTH }, (r) => byteScanError(r, 'x'));
}

function manifestsAsList(folder: string): string {
  const items: unknown[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(e.name)) for (const doc of parseAllDocuments(readFileSync(p, 'utf8'))) if (doc.contents) items.push(doc.toJS());
    }
  };
  walk(folder);
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: {}, items }, null, 1);
}

const pod = (name: string, extra = '') =>
  `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"${name}","namespace":"a"${extra}},"spec":{"nodeName":"n1","containers":[]}}`;
const list = (items: string, around = '"apiVersion":"v1","kind":"List",') => `{${around}"items":[${items}]}`;

describe('streamJsonList', () => {
  it('every fixture, as one JSON list, streams and gives the state the whole read gives', async () => {
    const fixtures = [
      manifestsAsList(join(ROOT, 'demo', 'manifests')),
      readFileSync(join(ROOT, 'lib', 'k8s', '__fixtures__', 'kubectl-get-all.json'), 'utf8'),
      manifestsAsList(join(ROOT, 'server', 'sources', '__fixtures__', 'snapshot-folder')),
    ];
    for (const text of fixtures) {
      const path = file(text);
      expect(await streams(path)).toBe(true);
      const [whole, streamed] = await both(path);
      expect('state' in whole).toBe(true);
      expect(streamed).toEqual(whole);
      // Narrowed to a question's kinds, and with invalid objects skipped, too.
      expect((await both(path, { kinds: new Set(['Pod', 'RoleBinding']) }))[1]).toEqual((await both(path, { kinds: new Set(['Pod', 'RoleBinding']) }))[0]);
    }
  });

  it("items of every size around a batch (larger than one, runs that fill one) stream in order, with the whole read's item numbers", async () => {
    // Batches are cut by bytes (~96 KiB): an item larger than that is a batch of its own.
    const sized = (name: string, bytes: number) => pod(name, `,"annotations":{"a":"${'x'.repeat(bytes)}"}`);
    const items: string[] = [];
    for (let i = 0; i < 400; i++) items.push(i % 97 === 5 ? sized(`big${i}`, 150_000) : i % 31 === 0 ? sized(`mid${i}`, 40_000 + i) : pod(`p${i}`));
    const path = file(list(items.join(',')));
    expect(await streams(path)).toBe(true);
    const [whole, streamed] = await both(path);
    expect('state' in whole && (whole.state as { pods: unknown[] }).pods.length).toBe(400);
    expect(streamed).toEqual(whole);
    // An invalid object after them is reported at the same item number.
    const bad = file(list([...items, '{"apiVersion":"v1","kind":"Pod","metadata":{"name":7}}'].join(',')));
    const [wholeBad, streamedBad] = await both(bad);
    expect('error' in wholeBad && wholeBad.detail).toContain('400');
    expect(streamedBad).toEqual(wholeBad);
  });

  const CASES: [string, string | Uint8Array, boolean][] = [
    ['kubectl order: kind after the items', `{"apiVersion":"v1","items":[${pod('p1')},${pod('p2')}],"kind":"List","metadata":{"resourceVersion":""}}`, true],
    ['a typed list whose items name their kind', `{"kind":"PodList","apiVersion":"v1","items":[${pod('p1')}]}`, true],
    ['a typed list whose items do not', `{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"p","namespace":"a"},"spec":{}}]}`, false],
    ['no items', list(''), true],
    ['whitespace everywhere', `\n {\n "kind" : "List" ,\n "items" : [\n ${pod('p1')} ,\n ${pod('p2')}\n ]\n }\n `, true],
    [
      'a Secret and an unknown kind among the items',
      list(`${pod('p1')},{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"}},{"apiVersion":"x/v1","kind":"Widget","metadata":{"name":"w"}}`),
      true,
    ],
    ['duplicates of one pod', list(`${pod('p1')},${pod('p1', ',"labels":{"v":"2"}')}`), true],
    ['an invalid object (fails the build)', list(`${pod('p1')},{"apiVersion":"v1","kind":"Pod","metadata":{"name":7}}`), false],
    ['garbage between items', list(`${pod('p1')} x ,${pod('p2')}`), false],
    ['a trailing comma in the items', list(`${pod('p1')},`), false],
    ['two commas', list(`${pod('p1')},,${pod('p2')}`), false],
    ['a leading comma', list(`,${pod('p1')}`), false],
    ['an item that is not an object', list(`${pod('p1')},7`), false],
    ['an item that is an array', list(`${pod('p1')},[]`), false],
    ['items twice', `{"kind":"List","items":[${pod('p1')}],"items":[${pod('p2')}]}`, false],
    ['items written with an escape', `{"kind":"List","\\u0069tems":[${pod('p1')}]}`, false],
    ['items that is not an array', `{"kind":"List","items":{"a":${pod('p1')}}}`, false],
    ['items null', `{"kind":"List","items":null}`, false],
    ['not a list', `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"a"},"items":[${pod('p1')}]}`, false],
    ['kind missing', `{"items":[${pod('p1')}]}`, false],
    ['a top-level array', `[${pod('p1')},${pod('p2')}]`, false],
    ['JSON lines', `${list(pod('p1'))}\n${list(pod('p2'))}\n`, false],
    ['something after the list', `${list(pod('p1'))} 7`, false],
    ['a trailing comma in the list', `{"kind":"List","items":[${pod('p1')}],}`, false],
    ['a byte-order mark', `\ufeff${list(pod('p1'))}`, false],
    ['a forbidden key', list(pod('p1', ',"labels":{"__proto__":"x"}')), false],
    ['too deep', list(`${pod('p1')},{"kind":"Pod","apiVersion":"v1","x":${'['.repeat(70)}${']'.repeat(70)}}`), false],
    ['a string too long', list(pod('p1', `,"labels":{"a":"${'x'.repeat(MAX_STRING_LENGTH + 1)}"}`)), false],
    ['unterminated', list(pod('p1')).slice(0, -3), false],
    ['a bad escape in an item', list(pod('p1', ',"labels":{"a":"\\q"}')), false],
    ['a bad literal in the tail', `{"kind":"List","items":[${pod('p1')}],"x":tru}`, false],
    [
      'invalid UTF-8 in an item',
      new Uint8Array([...new TextEncoder().encode(list(pod('p1', ',"labels":{"a":"'))).slice(0, -5), 0xff, 0x22, 0x7d, 0x7d, 0x7d, 0x5d, 0x7d]),
      false,
    ],
  ];

  for (const [what, text, streamed] of CASES) {
    it(`${what}: ${streamed ? 'streamed' : 'read the ordinary way'}, with the same result`, async () => {
      const path = file(text);
      expect(await streams(path).catch(() => false)).toBe(streamed);
      const [whole, item] = await both(path);
      expect(item).toEqual(whole);
      const [wholeSkip, itemSkip] = await both(path, { onInvalid: 'skip' });
      expect(itemSkip).toEqual(wholeSkip);
    });
  }

  it('a file that is not the size it was listed at (it changed since) goes back to the ordinary read', async () => {
    // A trailing newline: listed one byte short, the list itself is whole and only the size tells.
    const path = file(`${list(`${pod('p1')},${pod('p2')}`)}\n`);
    const size = statSync(path).size;
    expect(await streams(path, size)).toBe(true);
    expect(await streams(path, size - 1)).toBe(false);
    expect(await streams(path, size + 1)).toBe(false);
  });

  // Each streamed read starts a worker (~25 ms): 800 here; 15,000 were run by hand (STREAM_FUZZ_EDITS).
  it(
    '800 random edits of a small list: the same state or the same error, every time',
    async () => {
      const base = `{"apiVersion":"v1","items":[${pod('p1')},\n${pod('p2', ',"labels":{"k":"v"}')},{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"rb","namespace":"a"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"edit"},"subjects":[{"kind":"User","name":"u"}]}],"kind":"List","metadata":{}}`;
      const alphabet = '{}[],:" \n\\ax0-';
      let s = 11;
      const r = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
      let streamedOk = 0;
      const edits = Number(process.env.STREAM_FUZZ_EDITS ?? 800);
      for (let t = 0; t < edits; t++) {
        let text = base;
        for (let e = 0; e < 1 + Math.floor(r() * 3); e++) {
          const at = Math.floor(r() * text.length);
          const op = r();
          const ch = alphabet[Math.floor(r() * alphabet.length)];
          text =
            op < 0.33
              ? text.slice(0, at) + text.slice(at + 1)
              : op < 0.66
                ? text.slice(0, at) + ch + text.slice(at)
                : text.slice(0, at) + ch + text.slice(at + 1);
        }
        const path = file(text);
        const [whole, item] = await both(path);
        expect(item, text).toEqual(whole);
        if ('state' in item) streamedOk++;
        rmSync(path);
      }
      // Some edits leave a readable list (in a string, between keys), or this only tests refusals.
      expect(streamedOk).toBeGreaterThan(edits / 40);
    },
    Math.max(120_000, Number(process.env.STREAM_FUZZ_EDITS ?? 0) * 50),
  );
});
