import { Document, isMap, isSeq, parseAllDocuments, type YAMLMap } from 'yaml';
import { describeIdentity } from './identity';
import type { BundleObject, ReasonedRule, RoleBundle } from './types';

export const APPROVED_BY = 'dra-posture.io/approved-by';
export const APPROVED_AT = 'dra-posture.io/approved-at';
export const YAML_SHA256 = 'dra-posture.io/yaml-sha256';
const APPROVAL_KEYS = [APPROVED_BY, APPROVED_AT, YAML_SHA256];

export interface ApprovalStamp {
  approvedBy: string;
  approvedAt: string;
  yamlSha256: string;
}

const TO_STRING = { lineWidth: 0, minContentWidth: 0 } as const;

// Names and reasons can come from users: no line break or control character may end a comment early
// and turn the rest of the text into YAML.
const BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
export function commentText(text: string): string {
  return text.replace(BREAKS, ' ');
}

function ruleComment(r: ReasonedRule): string {
  return ` ${commentText(r.reason)}${r.since ? `\n inert before Kubernetes ${r.since}` : ''}`;
}

function objectDocument(o: BundleObject, stamp: ApprovalStamp | undefined): Document {
  const object = stamp
    ? {
        ...o.object,
        metadata: {
          ...o.object.metadata,
          annotations: { ...o.object.metadata.annotations, [APPROVED_BY]: stamp.approvedBy, [APPROVED_AT]: stamp.approvedAt, [YAML_SHA256]: stamp.yamlSha256 },
        },
      }
    : o.object;
  const doc = new Document(object, { aliasDuplicateObjects: false });
  doc.commentBefore = commentText(
    ` ${o.object.kind} ${o.object.metadata.namespace ? `${o.object.metadata.namespace}/` : ''}${o.object.metadata.name}: ${o.reason}`,
  );
  if (o.rules) {
    const rules = (doc.contents as YAMLMap).get('rules', true);
    if (isSeq(rules)) {
      rules.items.forEach((item, i) => {
        if (!isMap(item)) return;
        if (o.rules?.[i]) item.commentBefore = ruleComment(o.rules[i]);
        // [a, b] lists keep each rule to a few lines, as hand-written RBAC usually is.
        for (const pair of item.items) if (isSeq(pair.value)) pair.value.flow = true;
      });
    }
  }
  return doc;
}

/**
 * The bundle as multi-document YAML: each object preceded by why it is there, each rule by its
 * reason (and "inert before" when it needs a newer release). Deterministic: same bundle, same bytes.
 * With a stamp, every object carries the approval annotations.
 */
export function renderBundleYaml(bundle: RoleBundle, stamp?: ApprovalStamp): string {
  const header =
    commentText(
      `# dra-posture build-role: ${bundle.persona.id} for ${describeIdentity(bundle.input.identity)}` +
        (bundle.input.drivers.length > 0 ? ` (drivers: ${bundle.input.drivers.join(', ')})` : ''),
    ) +
    '\n' +
    bundle.versionNotes.map((n) => `# NOTE: ${commentText(n)}\n`).join('');
  return header + bundle.objects.map((o) => `---\n${objectDocument(o, stamp).toString(TO_STRING)}`).join('');
}

/**
 * The YAML with the approval annotations taken out, re-serialised the way renderBundleYaml writes it:
 * for an untouched export this is byte-for-byte the unapproved YAML, so its SHA-256 is the approved one.
 */
export function stripApproval(text: string): { yaml: string; stamp: Partial<ApprovalStamp> } {
  const stamp: Partial<ApprovalStamp> = {};
  const firstDoc = text.indexOf('---\n');
  const header = firstDoc >= 0 ? text.slice(0, firstDoc) : '';
  const docs = parseAllDocuments(firstDoc >= 0 ? text.slice(firstDoc) : text);
  const parts: string[] = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    if (doc.errors.length > 0) throw new Error(`YAML: ${doc.errors[0].message}`);
    const annotations = doc.getIn(['metadata', 'annotations'], true);
    if (isMap(annotations)) {
      for (const key of APPROVAL_KEYS) {
        const value = annotations.get(key);
        if (typeof value === 'string') {
          if (key === APPROVED_BY) stamp.approvedBy ??= value;
          if (key === APPROVED_AT) stamp.approvedAt ??= value;
          if (key === YAML_SHA256) stamp.yamlSha256 ??= value;
        }
        annotations.delete(key);
      }
      if (annotations.items.length === 0) doc.deleteIn(['metadata', 'annotations']);
    }
    doc.directives.docStart = null;
    parts.push(`---\n${doc.toString(TO_STRING)}`);
  }
  return { yaml: header + parts.join(''), stamp };
}
