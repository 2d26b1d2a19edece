import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { generateCluster, LARGE } from './generate-cluster';

const GENERATOR_VERSION = 3;

/** The seeded large synthetic cluster snapshot, generated once and cached outside the repo. */
export async function largeClusterFile(): Promise<string> {
  const cacheDir = join(process.env.DRA_POSTURE_CACHE ?? join(homedir(), '.cache', 'dra-posture'), 'bench');
  const file = join(cacheDir, `large-v${GENERATOR_VERSION}-seed42.json`);
  mkdirSync(cacheDir, { recursive: true });
  if (!existsSync(file)) {
    console.log(`generating ${file} ...`);
    const tmp = `${file}.tmp`;
    await generateCluster(tmp, LARGE, 42);
    renameSync(tmp, file);
  }
  return file;
}
