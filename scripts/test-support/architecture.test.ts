import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileCycles, folderBackEdges, importsOf, isTestFile, sourceFiles as listSources } from './dependency-rules';

// Dependencies point one way (house style): lib/ is pure and isomorphic; server/ is server-only;
// components/ never reaches server/.
const root = join(import.meta.dirname, '..', '..');

const sourceFiles = (dir: string) => listSources(root, dir);
const isTest = (f: string) => isTestFile(relative(root, f));

describe('dependency direction', () => {
  it('lib/ imports nothing from React, Next, node:*, client-node, server/, app/ or components/', () => {
    const bad: string[] = [];
    for (const file of sourceFiles('lib')) {
      if (isTest(file)) continue;
      for (const spec of importsOf(file)) {
        if (
          /^(react|react-dom|next)(\/|$)/.test(spec) ||
          spec.startsWith('node:') ||
          spec.startsWith('@kubernetes/client-node') ||
          /^@\/(server|app|components)(\/|$)/.test(spec) ||
          spec === 'server-only' ||
          /^(fs|path|os|child_process|crypto|http|https|url|util|stream)$/.test(spec)
        ) {
          bad.push(`${relative(root, file)} → ${spec}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('every server/ module is server-only', () => {
    const missing = sourceFiles('server')
      .filter((f) => !isTest(f))
      .filter((f) => !/^\s*import ['"]server-only['"];/m.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f));
    expect(missing).toEqual([]);
  });

  it('components/ never imports server/, and server/ never imports app/ or components/', () => {
    const bad: string[] = [];
    for (const file of sourceFiles('components'))
      for (const spec of importsOf(file)) if (/^@\/server(\/|$)/.test(spec)) bad.push(`${relative(root, file)} → ${spec}`);
    for (const file of sourceFiles('server'))
      for (const spec of importsOf(file)) if (/^@\/(app|components)(\/|$)/.test(spec)) bad.push(`${relative(root, file)} → ${spec}`);
    expect(bad).toEqual([]);
  });

  it('the scanner sees the engine (guards against an empty walk)', () => {
    expect(sourceFiles('lib').length).toBeGreaterThan(10);
    expect(importsOf(join(root, 'lib/authz/authz-engine.ts'))).toContain('./authorize');
  });

  it('folders import only lower layers (lib: k8s → admission → authz → personas → analysis → report/graph/view → compliance/role-builder → api; server: store/kube → compliance/http → sources → services → cli/role-builder)', () => {
    expect(folderBackEdges(root)).toEqual([]);
  });

  it('no runtime import cycles between files', () => {
    expect(fileCycles(root)).toEqual([]);
  });
});

describe('the rules catch what they are for', () => {
  const tree = mkdtempSync(join(tmpdir(), 'dra-posture-arch-'));
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(tree, rel)), { recursive: true });
    writeFileSync(join(tree, rel), text);
  };
  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  it('a back-edge inserted into a copy of the engine (analysis → report, compliance → sources) and a file cycle are reported', () => {
    for (const rel of ['lib/analysis/types.ts', 'lib/report/build-report.ts', 'server/compliance/read-bundle.ts', 'server/sources/bundle-source.ts']) {
      write(rel, readFileSync(join(root, rel), 'utf8'));
    }
    expect(folderBackEdges(tree)).toEqual([]);
    write('lib/analysis/back-edge.ts', "import { buildReport } from '@/lib/report/build-report';\nexport const x = buildReport;\n");
    write('server/compliance/back-edge.ts', "import 'server-only';\nimport { openBundle } from '../sources/bundle-source';\nexport const y = openBundle;\n");
    expect(folderBackEdges(tree)).toEqual([
      'lib/analysis/back-edge.ts → lib/report/build-report.ts (lib/analysis may not import lib/report)',
      'server/compliance/back-edge.ts → server/sources/bundle-source.ts (server/compliance may not import server/sources)',
    ]);
    write('lib/k8s/a.ts', "import { b } from './b';\nexport const a = () => b;\n");
    write('lib/k8s/b.ts', "import type { T } from './c';\nimport { a } from './a';\nexport const b = () => a;\nexport type U = T;\n");
    write('lib/k8s/c.ts', "import type { U } from './b';\nexport type T = U;\n");
    expect(fileCycles(tree)).toEqual([['lib/k8s/a.ts', 'lib/k8s/b.ts', 'lib/k8s/a.ts']]);
  });
});
