import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Dependencies point one way (house style): lib/ is pure and isomorphic; server/ is server-only;
// components/ never reaches server/.
const root = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries: string[];
    try {
      entries = readdirSync(d);
    } catch {
      return;
    }
    for (const name of entries) {
      const p = join(d, name);
      if (name === 'node_modules' || name.startsWith('.')) continue;
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|tsx|mts)$/.test(name)) out.push(p);
    }
  };
  walk(join(root, dir));
  return out;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  const re = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) specs.push(m[1] ?? m[2] ?? m[3]);
  return specs;
}

const isTest = (f: string) => /\.test\.tsx?$/.test(f) || f.includes('__fixtures__');

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
});
