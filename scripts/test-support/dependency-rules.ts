import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

// The folder layering of lib/ and server/ and the file-level import graph, read from the source text.
// A folder may import its own files and folders of a lower layer, never one of its own layer or above:
// that keeps the engine's direction one way (k8s → authz → analysis → report → …) without loops.

export const LAYERS: Readonly<Record<string, number>> = {
  'lib/k8s': 0,
  // Admission policies read only objects (k8s) and are used by the write simulation (authz).
  'lib/admission': 0.5,
  'lib/authz': 1,
  'lib/personas': 2,
  'lib/analysis': 3,
  'lib/report': 4,
  'lib/graph': 4,
  'lib/view': 4,
  'lib/compliance': 5,
  'lib/role-builder': 5,
  'lib/api': 6,
  'server/store': 0,
  'server/kube': 0,
  'server/compliance': 1,
  'server/http': 1,
  'server/sources': 2,
  'server/services': 3,
  'server/role-builder': 4,
  'server/cli': 4,
};

export const isTestFile = (rel: string) => /\.(test|spec)\.tsx?$/.test(rel) || rel.includes('__fixtures__') || rel.includes('__golden__');

export function sourceFiles(root: string, dir: string): string[] {
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

export function importsOf(file: string, options: { valuesOnly?: boolean } = {}): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  const re = /(?:import|export)\s([^'"]*?)from\s*['"]([^'"]+)['"]|import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    // `import type` / `export type` vanish at run time: they cannot form a runtime cycle.
    if (options.valuesOnly && m[1] !== undefined && /^type\s/.test(m[1])) continue;
    specs.push(m[2] ?? m[3] ?? m[4]);
  }
  return specs;
}

/** The repo-relative file an import names ('@/x' or './x'), or undefined for packages and unknown files. */
export function resolveImport(root: string, fromRel: string, spec: string): string | undefined {
  let base: string;
  if (spec.startsWith('@/')) base = spec.slice(2);
  else if (spec.startsWith('.')) base = relative(root, join(root, dirname(fromRel), spec));
  else return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile()) return candidate;
  }
  return undefined;
}

/** lib/analysis for lib/analysis/checks/x.ts; undefined outside the layered folders. */
export function layeredFolder(rel: string): string | undefined {
  const [top, folder] = rel.split('/');
  const key = `${top}/${folder}`;
  return key in LAYERS ? key : undefined;
}

/** Non-test imports from a layered folder into another folder of the same or a higher layer. */
export function folderBackEdges(root: string): string[] {
  const bad: string[] = [];
  for (const top of ['lib', 'server']) {
    for (const file of sourceFiles(root, top)) {
      const rel = relative(root, file);
      const from = layeredFolder(rel);
      if (!from || isTestFile(rel)) continue;
      for (const spec of importsOf(file)) {
        const target = resolveImport(root, rel, spec);
        const to = target && layeredFolder(target);
        const sameTop = to?.split('/')[0] === from.split('/')[0];
        if (to && to !== from && sameTop && LAYERS[to] >= LAYERS[from]) bad.push(`${rel} → ${target} (${from} may not import ${to})`);
      }
    }
  }
  return bad;
}

/** Runtime import cycles (type-only imports left out) between non-test files of lib/, server/ and components/. */
export function fileCycles(root: string): string[][] {
  const graph = new Map<string, string[]>();
  for (const top of ['lib', 'server', 'components']) {
    for (const file of sourceFiles(root, top)) {
      const rel = relative(root, file);
      if (isTestFile(rel)) continue;
      graph.set(
        rel,
        importsOf(file, { valuesOnly: true })
          .map((s) => resolveImport(root, rel, s))
          .filter((t): t is string => !!t && !isTestFile(t)),
      );
    }
  }
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}
