// The bench worker compiled as the CLI ships (esbuild, plain ES modules): each phase then runs in a
// process like `dra-posture report`, not under the tsx loader, which adds ~70 MiB of RSS before the
// first line runs and would be counted in every phase's peak.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
// @ts-expect-error a plain ES module without types (scripts/build)
import { nodeBundleOptions, ROOT } from '../build/build-cli.mjs';

/**
 * Compiles scripts/bench/bench-worker.ts into a fresh folder under dist/ (inside the repo, so that its
 * external packages resolve from node_modules as the CLI's do); returns the module's path and a cleanup.
 */
export async function compileBenchWorker(): Promise<{ path: string; remove: () => void }> {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'dist', 'bench-worker-'));
  await build({ ...nodeBundleOptions({ 'bench-worker': 'scripts/bench/bench-worker.ts' }, dir), metafile: false });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  return { path: join(dir, 'bench-worker.mjs'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
