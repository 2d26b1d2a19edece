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
