import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// Every route handler and page under app/, for the tests that must cover each one (request gate,
// body limits, authorization): a route added later is found by the walk, so it cannot be missed.

export const repoRoot = join(import.meta.dirname, '..', '..');
const appDir = join(repoRoot, 'app');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The URL path of an app/ file: route groups dropped, dynamic segments filled with a sample value. */
function urlPath(file: string): string {
  const segments = relative(appDir, file).split('/').slice(0, -1);
  const path = segments
    .filter((s) => !/^\(.*\)$/.test(s))
    .map((s) => (s.startsWith('[...') ? 'a/b' : s.startsWith('[') ? 'x' : s))
    .join('/');
  return `/${path}`;
}

export interface AppRoute {
  /** Absolute path of route.ts. */
  file: string;
  /** Relative to the repository. */
  name: string;
  path: string;
  source: string;
  methods: string[];
}

const files = walk(appDir);

export const appRoutes: AppRoute[] = files
  .filter((f) => f.endsWith('/route.ts'))
  .map((f) => {
    const source = readFileSync(f, 'utf8');
    return {
      file: f,
      name: relative(repoRoot, f),
      path: urlPath(f),
      source,
      methods: [...source.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/g)].map((m) => m[1]!),
    };
  });

export const appPages = files.filter((f) => f.endsWith('/page.tsx')).map((f) => ({ file: relative(repoRoot, f), path: urlPath(f) }));

/** Every handler of a method that may change state. */
export const appWrites = appRoutes.flatMap((r) => r.methods.filter((m) => m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS').map((method) => ({ ...r, method })));
