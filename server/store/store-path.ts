import 'server-only';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where the store lives: DRA_POSTURE_STORE (a file path), else the XDG data folder. Per user, not
 * per checkout, so approvals and snapshots survive a fresh clone or reinstall.
 */
export function defaultStorePath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DRA_POSTURE_STORE) return resolve(env.DRA_POSTURE_STORE);
  const dataHome = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(dataHome, 'dra-posture', 'store.sqlite');
}
