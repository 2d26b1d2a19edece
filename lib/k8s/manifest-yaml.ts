import { Document, isScalar, Scalar, visit } from 'yaml';

// The one way plain values become YAML text outside the role builder's commented bundles: the `yaml`
// package, in the compact style hand-written manifests use (lists of scalars as [a, b], sequences
// under a key not indented, strings quoted only when plain YAML would misread them).

export type YamlValue = string | number | boolean | null | undefined | YamlValue[] | { [key: string]: YamlValue };

const PLAIN = /^[A-Za-z0-9_./-][A-Za-z0-9_./@-]*$/;
const RESERVED = /^(true|false|yes|no|on|off|null|~|y|n|[-+]?[0-9.eE+-]+)$/i;
const TO_STRING = { lineWidth: 0, minContentWidth: 0, indentSeq: false, flowCollectionPadding: false } as const;

/** One document as compact YAML (no trailing newline). */
export function manifestYaml(value: YamlValue): string {
  return writeManifestYaml(value) ?? manifestYamlByDocument(value);
}

/** The reference: the yaml package's document, styled by the rules above. */
export function manifestYamlByDocument(value: YamlValue): string {
  const doc = new Document(value, { aliasDuplicateObjects: false });
  visit(doc, {
    Scalar(_key, node) {
      // Names such as system:nodes or <driver-name> stay readable as text when quoted; YAML's own
      // plain-scalar rules would leave some of them ambiguous to a reader (and to YAML 1.1 parsers).
      if (typeof node.value === 'string') node.type = PLAIN.test(node.value) && !RESERVED.test(node.value) ? Scalar.PLAIN : Scalar.QUOTE_DOUBLE;
    },
    Seq(key, node) {
      if (key !== null && node.items.every((item) => isScalar(item))) node.flow = true;
    },
  });
  return doc.toString(TO_STRING).replace(/\n$/, '');
}

/** Several documents separated by `---`. */
export function manifestYamlDocs(...docs: YamlValue[]): string {
  return docs.map((d) => manifestYaml(d)).join('\n---\n');
}

// A finding's fix carries a manifest, and a large cluster has tens of thousands of findings: through
// a yaml Document each costs ~0.1 ms and much garbage (2 s of a bench report). writeManifestYaml
// writes the same text directly for what fixes hold (a mapping of mappings, lists and simple scalars)
// and gives up (undefined) on anything else, which then goes through the Document. A test compares
// the two on every shape and awkward string it can generate.

const FAST_PLAIN = /^[A-Za-z][A-Za-z0-9_./@-]*$/;
const FAST_QUOTED = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** The compact text of manifestYaml, or undefined when the value holds anything unusual. */
export function writeManifestYaml(value: YamlValue): string | undefined {
  if (!isMapping(value) || !hasEntries(value)) return undefined;
  const lines: string[] = [];
  return writeMapping(value, '', lines) ? lines.join('\n') : undefined;
}

function isMapping(v: YamlValue): v is { [key: string]: YamlValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Some entry is defined: a mapping of nothing but undefined prints as {} (left to the Document). */
function hasEntries(m: { [key: string]: YamlValue }): boolean {
  for (const key in m) if (m[key] !== undefined) return true;
  return false;
}

function scalarText(v: YamlValue): string | undefined {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isSafeInteger(v) && !Object.is(v, -0) ? String(v) : undefined;
  // A key over 1024 characters becomes an explicit `? key`: long strings go to the Document.
  if (typeof v !== 'string' || v.length > 500) return undefined;
  // Most strings (names, kinds, verbs) are fast-plain, which implies PLAIN: two tests rather than three.
  if (FAST_PLAIN.test(v)) return RESERVED.test(v) ? quotedText(v) : v;
  if (PLAIN.test(v) && !RESERVED.test(v)) return undefined;
  return quotedText(v);
}

function quotedText(v: string): string | undefined {
  return FAST_QUOTED.test(v) ? `"${v}"` : undefined;
}

function isScalarValue(v: YamlValue): boolean {
  return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/** Lines of a mapping's entries at `indent`; the first line may be prefixed by the caller ("- "). */
function writeMapping(m: { [key: string]: YamlValue }, indent: string, lines: string[], first?: string): boolean {
  let prefix = first ?? indent;
  for (const key of Object.keys(m)) {
    const v = m[key];
    if (v === undefined) continue;
    const k = scalarText(key);
    if (k === undefined) return false;
    const head = `${prefix}${k}:`;
    prefix = indent;
    if (isScalarValue(v)) {
      const text = scalarText(v);
      if (text === undefined) return false;
      lines.push(`${head} ${text}`);
    } else if (Array.isArray(v)) {
      if (v.every(isScalarValue)) {
        const items: string[] = [];
        for (const item of v) {
          const text = scalarText(item);
          if (text === undefined) return false;
          items.push(text);
        }
        lines.push(`${head} [${items.join(', ')}]`);
        continue;
      }
      lines.push(head);
      for (const item of v) {
        if (!isMapping(item) || !hasEntries(item) || Object.values(item).some((x) => x === undefined)) return false;
        if (!writeMapping(item, `${indent}  `, lines, `${indent}- `)) return false;
      }
    } else if (isMapping(v)) {
      if (Object.keys(v).length > 0 && !hasEntries(v)) return false;
      if (Object.keys(v).length === 0) {
        lines.push(`${head} {}`);
        continue;
      }
      lines.push(head);
      if (!writeMapping(v, `${indent}  `, lines)) return false;
    } else {
      return false;
    }
  }
  return true;
}
