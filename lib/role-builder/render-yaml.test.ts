import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { buildBundle } from './build-bundle';
import { GOLDEN_INPUTS } from './golden-inputs';
import { APPROVED_BY, renderBundleYaml, stripApproval } from './render-yaml';
import { sha256Hex } from './sha256';
import { PERSONA_IDS } from './types';

describe('renderBundleYaml', () => {
  it('is valid YAML whose objects equal the bundle objects, and deterministic', () => {
    for (const id of PERSONA_IDS) {
      const bundle = buildBundle(GOLDEN_INPUTS[id]);
      const text = renderBundleYaml(bundle);
      expect(renderBundleYaml(buildBundle(GOLDEN_INPUTS[id]))).toBe(text);
      const docs = parseAllDocuments(text) as unknown as { toJS(): unknown }[];
      expect(docs.map((d) => d.toJS())).toEqual(bundle.objects.map((o) => o.object));
    }
  });

  it('user text cannot break out of a comment into YAML', () => {
    const input = {
      ...GOLDEN_INPUTS.custom,
      customRules: [{ rule: { apiGroups: [''], resources: ['pods'], verbs: ['get'] }, reason: 'x\r- apiGroups: ["*"]\u2028  resources: ["*"]' }],
    };
    const bundle = buildBundle(input);
    const text = renderBundleYaml(bundle);
    const docs = parseAllDocuments(text) as unknown as { toJS(): unknown }[];
    expect(docs.map((d) => d.toJS())).toEqual(bundle.objects.map((o) => o.object));
    expect(text).toContain('# x - apiGroups: ["*"]   resources: ["*"]');
  });

  it('an approved export carries the stamp on every object; stripping it gives back the exact unapproved bytes', () => {
    for (const id of PERSONA_IDS) {
      const bundle = buildBundle(GOLDEN_INPUTS[id]);
      const plain = renderBundleYaml(bundle);
      const stamp = { approvedBy: 'Grace Hopper', approvedAt: '2026-05-01T10:00:00.000Z', yamlSha256: sha256Hex(plain) };
      const approved = renderBundleYaml(bundle, stamp);
      const objects = (parseAllDocuments(approved) as unknown as { toJS(): { metadata: { annotations: Record<string, string> } } }[]).map((d) => d.toJS());
      for (const o of objects) expect(o.metadata.annotations[APPROVED_BY]).toBe('Grace Hopper');
      const stripped = stripApproval(approved);
      expect(stripped.yaml).toBe(plain);
      expect(stripped.stamp).toEqual(stamp);
      expect(sha256Hex(stripped.yaml)).toBe(stamp.yamlSha256);
    }
  });

  it('any edit to an approved export changes the digest of the stripped YAML', () => {
    const bundle = buildBundle(GOLDEN_INPUTS['node-local-driver']);
    const plain = renderBundleYaml(bundle);
    const approved = renderBundleYaml(bundle, { approvedBy: 'x', approvedAt: 'y', yamlSha256: sha256Hex(plain) });
    for (const edited of [
      approved.replace('associated-node:update', 'arbitrary-node:update'),
      approved.replace('resourceNames: [ gpu.example.com ]', 'resourceNames: [ gpu.example.com, other.example.com ]'),
      approved.replace('# read the claims', '# (edited) read the claims'),
    ]) {
      expect(edited).not.toBe(approved);
      const s = stripApproval(edited);
      expect(s.stamp.yamlSha256).toBe(sha256Hex(plain));
      expect(sha256Hex(s.yaml)).not.toBe(sha256Hex(plain));
    }
  });
});
