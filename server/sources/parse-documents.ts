import 'server-only';

// File bytes → RawItems, treating every byte as hostile: limits on nesting, string length and YAML
// aliases, no custom YAML tags, no keys that could reach Object.prototype. Each limit is checked
// before the expensive or recursive step it protects:
// - JSON: one linear pass over the raw text (strings skipped with indexOf) checks depth and string
//   length before JSON.parse, and notes whether a forbidden key could be present; only then is the
//   parsed value walked for it, so large clean files pay one cheap scan.
// - YAML: the yaml package composes documents recursively and overflows the stack on deep input
//   (next to a RegExp compilation that can even abort the process), so the CST is built token by
//   token and abandoned as soon as the parser's stack is deeper than the limit allows.

import { Composer, Lexer, LineCounter, Parser, isAlias, isMap, isPair, isScalar, isSeq, type Document } from 'yaml';

import type { RawItem } from '@/lib/k8s/build-cluster-state';
import { SnapshotError } from '@/lib/k8s/snapshot-error';
import type { ByteScanResult } from './scan-json-bytes';
import { scanJsonBytesAsync, WORKER_SCAN_MIN_BYTES } from './scan-json-in-worker';

export const MAX_DEPTH = 64;
/** In UTF-16 code units of the decoded string. */
export const MAX_STRING_LENGTH = 1024 * 1024;
export const MAX_YAML_ALIASES = 100;
/**
 * Documents in one YAML file. Each costs parser and composer state even when empty (500,000 empty
 * documents, 2 MB, took 13 s and 750 MB); a large snapshot is one List document, not many.
 */
export const MAX_YAML_DOCUMENTS = 10_000;

export type DocumentFormat = 'json' | 'yaml';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const ALLOWED_YAML_TAGS = new Set([
  'tag:yaml.org,2002:str',
  'tag:yaml.org,2002:int',
  'tag:yaml.org,2002:float',
  'tag:yaml.org,2002:bool',
  'tag:yaml.org,2002:null',
  'tag:yaml.org,2002:map',
  'tag:yaml.org,2002:seq',
]);

// The parser keeps about one stack entry per open collection, plus a few for the node being built.
const MAX_YAML_PARSER_STACK = MAX_DEPTH * 2 + 8;

/**
 * Parses a snapshot file. `format` defaults to the extension (.json, .yaml, .yml), then to the
 * content: text starting with `{` or `[` is JSON (one object, an array of objects, or JSON lines).
 */
export function parseDocuments(input: string | Uint8Array, fileName: string, format?: DocumentFormat): RawItem[] {
  const text = decode(input, fileName);
  const lower = fileName.toLowerCase();
  const first = firstSignificantChar(text);
  const looksJson = first === '{' || first === '[';
  const chosen = format ?? (lower.endsWith('.json') ? 'json' : lower.endsWith('.yaml') || lower.endsWith('.yml') ? 'yaml' : looksJson ? 'json' : 'yaml');
  if (chosen === 'json') return parseJsonDocuments(text, fileName);
  // kubectl -o json > x.yaml is common and big: take the fast path when it is JSON after all.
  if (looksJson) {
    const items = tryParseJson(text, fileName);
    if (items !== undefined) return items;
  }
  return parseYamlDocuments(text, fileName);
}

/**
 * parseDocuments for large JSON files: the safety scan runs in a worker over the shared bytes while
 * this thread decodes and parses them; nothing parsed is returned before the scan has passed. Any
 * parse failure takes the ordinary path, which reports it exactly as parseDocuments does.
 */
export async function parseDocumentsAsync(bytes: Uint8Array, fileName: string, options: { workerMinBytes?: number } = {}): Promise<RawItem[]> {
  const minBytes = options.workerMinBytes ?? WORKER_SCAN_MIN_BYTES;
  if (bytes.length < minBytes || !startsLikeJson(bytes)) return parseDocuments(bytes, fileName);
  const scan = scanJsonBytesAsync(bytes, MAX_DEPTH, MAX_STRING_LENGTH, minBytes);
  let value: unknown;
  let failed = false;
  try {
    value = JSON.parse(decode(bytes, fileName));
  } catch {
    failed = true;
  }
  const result = await scan;
  if ('error' in result) throw byteScanError(result, fileName);
  if (failed) return parseDocuments(bytes, fileName);
  const items = toItems(value, fileName);
  if (result.suspicious) for (const item of items) assertNoForbiddenKeys(item.value, fileName, item.origin.document);
  return items;
}

export function startsLikeJson(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 10 || bytes[i] === 13)) i++;
  return bytes[i] === 123 || bytes[i] === 91;
}

export function byteScanError(result: Extract<ByteScanResult, { error: string }>, fileName: string): SnapshotError {
  const message = result.error === 'depth' ? `nested deeper than ${MAX_DEPTH} levels` : `string longer than ${MAX_STRING_LENGTH} characters (${result.length})`;
  return new SnapshotError(message, { file: fileName, line: result.line });
}

function decode(input: string | Uint8Array, fileName: string): string {
  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      throw new SnapshotError('not valid UTF-8 text', { file: fileName });
    }
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function firstSignificantChar(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return text[i];
  }
  return '';
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  let i = text.indexOf('\n');
  while (i !== -1 && i < offset) {
    line++;
    i = text.indexOf('\n', i + 1);
  }
  return line;
}

// ------------------------------------------------------------------------------------------ JSON

function isNameCode(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function hexValue(text: string, at: number): number {
  let value = 0;
  for (let i = at; i < at + 4; i++) {
    const c = text.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/**
 * One pass over raw JSON text. Throws on depth or string length; returns whether some string could
 * decode to a forbidden key name (then the parsed value must be walked). Malformed text is left for
 * JSON.parse to report.
 */
function scanJson(text: string, fileName: string): boolean {
  const n = text.length;
  let depth = 0;
  let suspicious = false;
  let nextBackslash = text.indexOf('\\');
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const start = i + 1;
      let end = text.indexOf('"', start);
      if (end === -1) return suspicious;
      if (nextBackslash !== -1 && nextBackslash < start) nextBackslash = text.indexOf('\\', start);
      let length: number;
      if (nextBackslash !== -1 && nextBackslash < end) {
        // Escapes inside: walk this string. Only a \u escape of a letter or `_` can spell a
        // forbidden name; any other escape decodes to a character none of them contains.
        let k = start;
        length = 0;
        while (k < n) {
          const ch = text.charCodeAt(k);
          if (ch === 34) break;
          if (ch === 92) {
            if (text.charCodeAt(k + 1) === 117 /* u */) {
              if (isNameCode(hexValue(text, k + 2))) suspicious = true;
              k += 6;
            } else {
              k += 2;
            }
          } else {
            k++;
          }
          length++;
        }
        if (k >= n) return suspicious;
        end = k;
        nextBackslash = text.indexOf('\\', end);
      } else {
        length = end - start;
        if (
          (length === 9 || length === 11) &&
          (text.startsWith('__proto__', start) || text.startsWith('prototype', start) || text.startsWith('constructor', start))
        ) {
          suspicious = true;
        }
      }
      if (length > MAX_STRING_LENGTH) {
        throw new SnapshotError(`string longer than ${MAX_STRING_LENGTH} characters (${length})`, { file: fileName, line: lineAt(text, i) });
      }
      i = end + 1;
      continue;
    }
    if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > MAX_DEPTH) {
        throw new SnapshotError(`nested deeper than ${MAX_DEPTH} levels`, { file: fileName, line: lineAt(text, i) });
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
    }
    i++;
  }
  return suspicious;
}

function jsonSyntaxError(error: unknown, fileName: string, text: string, document?: number, knownLine?: number): SnapshotError {
  const raw = error instanceof Error ? error.message : String(error);
  const match = /at position (\d+)/.exec(raw);
  const line = knownLine ?? (match ? lineAt(text, Number(match[1])) : undefined);
  let reason = raw.replace(/\s+/g, ' ');
  if (reason.length > 160) reason = `${reason.slice(0, 157)}...`;
  return new SnapshotError(`invalid JSON: ${reason}`, { file: fileName, document, line });
}

function toItems(value: unknown, fileName: string): RawItem[] {
  if (Array.isArray(value)) return value.map((v, i) => ({ value: v, origin: { file: fileName, document: i } }));
  return [{ value, origin: { file: fileName, document: 0 } }];
}

function parseJsonLines(text: string, fileName: string): RawItem[] | undefined {
  const items: RawItem[] = [];
  let offset = 0;
  let line = 0;
  while (offset <= text.length) {
    let end = text.indexOf('\n', offset);
    if (end === -1) end = text.length;
    line++;
    const chunk = text.slice(offset, end);
    if (chunk.trim() !== '') {
      try {
        items.push({ value: JSON.parse(chunk), origin: { file: fileName, document: items.length } });
      } catch (error) {
        // The first line not parsing means this is not JSON lines at all.
        if (items.length === 0) return undefined;
        throw jsonSyntaxError(error, fileName, text, items.length, line);
      }
    }
    offset = end + 1;
  }
  return items.length > 1 ? items : undefined;
}

function parseJsonValue(text: string, fileName: string): { items: RawItem[] } | { error: SnapshotError } {
  const suspicious = scanJson(text, fileName);
  let items: RawItem[];
  try {
    items = toItems(JSON.parse(text), fileName);
  } catch (error) {
    const lines = text.indexOf('\n') !== -1 ? parseJsonLines(text, fileName) : undefined;
    if (lines === undefined) return { error: jsonSyntaxError(error, fileName, text) };
    items = lines;
  }
  if (suspicious) for (const item of items) assertNoForbiddenKeys(item.value, fileName, item.origin.document);
  return { items };
}

function parseJsonDocuments(text: string, fileName: string): RawItem[] {
  const result = parseJsonValue(text, fileName);
  if ('error' in result) throw result.error;
  return result.items;
}

function tryParseJson(text: string, fileName: string): RawItem[] | undefined {
  const result = parseJsonValue(text, fileName);
  return 'error' in result ? undefined : result.items;
}

function formatPath(segments: readonly (string | number)[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(s)) out += out ? `.${s}` : s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

interface WalkEntry {
  value: unknown;
  parent: WalkEntry | undefined;
  segment: string | number | undefined;
  depth: number;
}

function pathOf(entry: WalkEntry, last: string | number): string {
  const segments: (string | number)[] = [last];
  for (let e: WalkEntry | undefined = entry; e && e.segment !== undefined; e = e.parent) segments.push(e.segment);
  return formatPath(segments.reverse());
}

/** Iterative walk of parsed data: refuses forbidden keys and, with `checkDepth`, excess nesting. */
function assertNoForbiddenKeys(value: unknown, fileName: string, document: number | undefined, checkDepth = false): void {
  const stack: WalkEntry[] = [{ value, parent: undefined, segment: undefined, depth: 0 }];
  while (stack.length > 0) {
    const entry = stack.pop() as WalkEntry;
    const v = entry.value;
    if (typeof v !== 'object' || v === null) continue;
    if (checkDepth && entry.depth >= MAX_DEPTH) {
      throw new SnapshotError(`nested deeper than ${MAX_DEPTH} levels`, { file: fileName, document, path: pathOf(entry.parent ?? entry, entry.segment ?? '') });
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], parent: entry, segment: i, depth: entry.depth + 1 });
      continue;
    }
    for (const key of Object.keys(v)) {
      if (FORBIDDEN_KEYS.has(key)) {
        throw new SnapshotError(`forbidden key ${JSON.stringify(key)}`, { file: fileName, document, path: pathOf(entry, key) });
      }
      stack.push({ value: (v as Record<string, unknown>)[key], parent: entry, segment: key, depth: entry.depth + 1 });
    }
  }
}

// ------------------------------------------------------------------------------------------ YAML

function parseYamlDocuments(text: string, fileName: string): RawItem[] {
  const lineCounter = new LineCounter();
  const lexer = new Lexer();
  const parser = new Parser(lineCounter.addNewLine);
  lineCounter.addNewLine(0);
  const tokens = [];
  let documentCount = 0;
  for (const lexeme of lexer.lex(text)) {
    for (const token of parser.next(lexeme)) {
      tokens.push(token);
      if (token.type === 'document' && ++documentCount > MAX_YAML_DOCUMENTS) {
        const line = lineCounter.linePos(token.offset).line;
        throw new SnapshotError(`more than ${MAX_YAML_DOCUMENTS} YAML documents; put the objects in one List document`, {
          file: fileName,
          document: documentCount - 1,
          line,
        });
      }
    }
    if (parser.stack.length > MAX_YAML_PARSER_STACK) {
      const line = lineCounter.linePos(parser.offset).line;
      throw new SnapshotError(`nested deeper than ${MAX_DEPTH} levels`, { file: fileName, document: countDocuments(tokens), line });
    }
  }
  for (const token of parser.end()) tokens.push(token);

  const composer = new Composer({
    version: '1.2',
    schema: 'core',
    customTags: [],
    merge: false,
    uniqueKeys: true,
    strict: true,
    prettyErrors: false,
    intAsBigInt: false,
  });
  const documents = Array.from(composer.compose(tokens, false, text.length));
  const stream = composer.streamInfo();
  if (stream.errors.length > 0) throw yamlError(stream.errors[0], fileName, undefined, lineCounter);

  const items: RawItem[] = [];
  documents.forEach((document, index) => {
    if (document.errors.length > 0) throw yamlError(document.errors[0], fileName, index, lineCounter);
    const hasAlias = checkYamlNodes(document, fileName, index, lineCounter);
    let value: unknown;
    try {
      value = document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
    } catch (error) {
      const reason =
        error instanceof Error && /alias/i.test(error.message)
          ? `too many YAML alias expansions (limit ${MAX_YAML_ALIASES})`
          : `cannot read the YAML document: ${error instanceof Error ? error.message : String(error)}`;
      throw new SnapshotError(reason, { file: fileName, document: index });
    }
    // Aliases can nest what they point to: re-check depth on the expanded value.
    if (hasAlias) assertNoForbiddenKeys(value, fileName, index, true);
    items.push({ value, origin: { file: fileName, document: index } });
  });
  return items;
}

function countDocuments(tokens: readonly { type: string }[]): number {
  let n = 0;
  for (const t of tokens) if (t.type === 'document') n++;
  return n;
}

function yamlError(error: { message: string; pos: [number, number] }, fileName: string, document: number | undefined, lineCounter: LineCounter): SnapshotError {
  const line = lineCounter.linePos(error.pos[0]).line;
  const reason = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  return new SnapshotError(`invalid YAML: ${reason}`, { file: fileName, document, line });
}

interface YamlWalkEntry {
  node: unknown;
  parent: YamlWalkEntry | undefined;
  segment: string | number | undefined;
  depth: number;
}

function yamlPath(entry: YamlWalkEntry | undefined, last?: string | number): string {
  const segments: (string | number)[] = last === undefined ? [] : [last];
  for (let e = entry; e && e.segment !== undefined; e = e.parent) segments.push(e.segment);
  return formatPath(segments.reverse());
}

/** Checks tags, keys, string lengths and depth on the YAML AST; returns whether aliases occur. */
function checkYamlNodes(document: Document.Parsed, fileName: string, index: number, lineCounter: LineCounter): boolean {
  let hasAlias = false;
  const stack: YamlWalkEntry[] = [{ node: document.contents, parent: undefined, segment: undefined, depth: 0 }];
  const fail = (node: unknown, entry: YamlWalkEntry | undefined, last: string | number | undefined, reason: string): never => {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    throw new SnapshotError(reason, {
      file: fileName,
      document: index,
      line: range ? lineCounter.linePos(range[0]).line : undefined,
      path: yamlPath(entry, last),
    });
  };
  const checkTag = (node: { tag?: string }, entry: YamlWalkEntry | undefined, last: string | number | undefined) => {
    if (node.tag !== undefined && !ALLOWED_YAML_TAGS.has(node.tag))
      fail(node, entry, last, `YAML tag ${node.tag.replace('tag:yaml.org,2002:', '!!')} is not allowed`);
  };
  while (stack.length > 0) {
    const entry = stack.pop() as YamlWalkEntry;
    const node = entry.node;
    if (node === null || node === undefined) continue;
    if (isAlias(node)) {
      hasAlias = true;
      continue;
    }
    if (isScalar(node)) {
      checkTag(node, entry.parent, entry.segment);
      if (typeof node.value === 'string' && node.value.length > MAX_STRING_LENGTH) {
        fail(node, entry.parent, entry.segment, `string longer than ${MAX_STRING_LENGTH} characters (${node.value.length})`);
      }
      continue;
    }
    if (entry.depth >= MAX_DEPTH) fail(node, entry.parent, entry.segment, `nested deeper than ${MAX_DEPTH} levels`);
    if (isSeq(node)) {
      checkTag(node, entry.parent, entry.segment);
      for (let i = node.items.length - 1; i >= 0; i--) stack.push({ node: node.items[i], parent: entry, segment: i, depth: entry.depth + 1 });
      continue;
    }
    if (isMap(node)) {
      checkTag(node, entry.parent, entry.segment);
      for (let i = node.items.length - 1; i >= 0; i--) {
        const pair = node.items[i];
        if (!isPair(pair)) continue;
        const key = pair.key;
        if (!isScalar(key) || key.value === null || typeof key.value === 'object') {
          fail(key ?? node, entry, undefined, 'mapping keys must be plain scalars (no aliases, collections or empty keys)');
          continue;
        }
        checkTag(key, entry, undefined);
        const name = String(key.value);
        if (name.length > MAX_STRING_LENGTH) fail(key, entry, undefined, `key longer than ${MAX_STRING_LENGTH} characters`);
        if (FORBIDDEN_KEYS.has(name)) fail(key, entry, name, `forbidden key ${JSON.stringify(name)}`);
        stack.push({ node: pair.value, parent: entry, segment: name, depth: entry.depth + 1 });
      }
      continue;
    }
    fail(node, entry.parent, entry.segment, 'unsupported YAML node');
  }
  return hasAlias;
}
