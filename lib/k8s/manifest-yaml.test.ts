import { describe, expect, it } from 'vitest';
import { manifestYaml, manifestYamlByDocument, writeManifestYaml, type YamlValue } from './manifest-yaml';

// writeManifestYaml must print exactly what the yaml Document prints, or give up. Random values of
// every shape a manifest can take, with strings chosen to sit on each quoting rule's edge.

const STRINGS = [
  'team-a',
  'resource.k8s.io',
  'nvidia.com/gpu',
  'count/resourceclaims.resource.k8s.io',
  'system:nodes',
  'system:serviceaccount:ns:sa',
  '<driver-name>',
  '',
  ' ',
  'a b',
  '10',
  '10Gi',
  '0x1F',
  '1e3',
  '.inf',
  '-',
  '-a',
  '_x',
  '/path',
  './x',
  'true',
  'True',
  'yes',
  'No',
  'null',
  '~',
  'y',
  'on',
  'a#b',
  'a: b',
  '#comment',
  'say "hi"',
  'back\\slash',
  'tab\there',
  'two\nlines',
  'émoji 🎉',
  'x@y',
  '@x',
  '*',
  '&anchor',
  '[a]',
  '{b}',
  'a,b',
  '%',
  '!tag',
  '---',
  '...',
  'x'.repeat(1200),
  'k8s.io/v1',
  'RoleBinding',
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomValue(r: () => number, depth: number): YamlValue {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const kind = depth > 3 ? Math.floor(r() * 4) : Math.floor(r() * 7);
  switch (kind) {
    case 0:
      return pick(STRINGS);
    case 1:
      return pick([0, 1, 10, -3, 2.5, -0, 1e21, Number.NaN, 123456789]);
    case 2:
      return pick([true, false, null, undefined]);
    case 3:
      return pick(['a', 'b', 'c']);
    case 4:
    case 5: {
      const m: Record<string, YamlValue> = {};
      const n = Math.floor(r() * 4);
      for (let i = 0; i < n; i++)
        m[r() < 0.8 ? pick(['apiVersion', 'kind', 'metadata', 'name', 'spec', 'rules', 'hard', 'verbs']) : pick(STRINGS)] = randomValue(r, depth + 1);
      return m;
    }
    default:
      return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
  }
}

describe('writeManifestYaml', () => {
  it('prints what the yaml Document prints, or gives up, for 20,000 random values', () => {
    const r = rng(7);
    let written = 0;
    for (let i = 0; i < 20_000; i++) {
      const value: YamlValue = { apiVersion: 'v1', kind: 'X', body: randomValue(r, 0) };
      const fast = writeManifestYaml(value);
      if (fast === undefined) continue;
      written++;
      expect(fast, JSON.stringify(value)).toBe(manifestYamlByDocument(value));
    }
    // Most values are ordinary enough to take the direct path, or this proves little.
    expect(written).toBeGreaterThan(5_000);
  });

  it('takes the manifests fixes are made of: a ResourceQuota, a Role with rules, a binding', () => {
    const docs: YamlValue[] = [
      {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'dra-quota', namespace: 'tenant-a' },
        spec: { hard: { 'count/resourceclaims.resource.k8s.io': '10' } },
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'r', namespace: 'ns' },
        rules: [
          { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: ['get', 'update'], resourceNames: ['<claim>'] },
          { apiGroups: [''], resources: ['pods'], verbs: ['*'] },
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'b', namespace: 'ns', labels: {} },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
        subjects: [{ kind: 'Group', name: 'system:nodes', apiGroup: 'rbac.authorization.k8s.io' }],
      },
    ];
    for (const doc of docs) {
      expect(writeManifestYaml(doc)).toBeDefined();
      expect(manifestYaml(doc)).toBe(manifestYamlByDocument(doc));
    }
    expect(manifestYaml(docs[0])).toBe(
      'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: dra-quota\n  namespace: tenant-a\nspec:\n  hard:\n    count/resourceclaims.resource.k8s.io: "10"',
    );
  });

  // scalarText tests FAST_PLAIN first: strings that start with a letter and still read as a
  // reserved word or a number must come out quoted, as the Document prints them.
  it('quotes letter-first strings YAML would read as a word or a number, as the Document does', () => {
    const words = ['e5', 'E', 'e', 'eE', 'e-1', 'E+2', 'ee', 'e5x', 'off', 'OFF', 'Y', 'n', 'NULL', 'Yes', 'ON', 'nope', 'truex', 'x5', 'a.b/c@d-e_f'];
    let quoted = 0;
    for (const w of words) {
      const value: YamlValue = { kind: w, list: [w, 'v'], nested: { [w]: w } };
      const fast = writeManifestYaml(value);
      expect(fast, w).toBeDefined();
      expect(fast, w).toBe(manifestYamlByDocument(value));
      if (fast!.startsWith('kind: "')) quoted++;
    }
    expect(quoted).toBeGreaterThan(5);
    expect(quoted).toBeLessThan(words.length);
  });
});
