import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { generateCluster, LARGE, type RbacShape } from './generate-cluster';

const GENERATOR_VERSION = 3;
/** The diverse shape's own version: its RBAC can change without touching the stamped file the README's figures refer to. */
const DIVERSE_VERSION = 1;

/** The seeded large synthetic cluster snapshot of an RBAC shape, generated once and cached (outside the repo unless `cacheDir` says otherwise). */
export async function largeClusterFile(
  shape: RbacShape = 'stamped',
  cacheDir = join(process.env.DRA_POSTURE_CACHE ?? join(homedir(), '.cache', 'dra-posture'), 'bench'),
): Promise<string> {
  const file = join(cacheDir, shape === 'stamped' ? `large-v${GENERATOR_VERSION}-seed42.json` : `large-diverse-v${DIVERSE_VERSION}-seed42.json`);
  mkdirSync(cacheDir, { recursive: true });
  if (!existsSync(file)) {
    console.log(`generating ${file} ...`);
    const tmp = `${file}.tmp`;
    await generateCluster(tmp, LARGE, 42, shape);
    renameSync(tmp, file);
  }
  return file;
}
