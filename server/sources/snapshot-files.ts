import 'server-only';

// The files a snapshot path stands for, listed and sized before any byte is read: the byte and file
// caps, hidden entries and symlinks skipped, a stable order. Apart from the parsers, so a caller that
// only lists (the pre-parsed demo's freshness check) does not load them.

import { lstat, readdir, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';

import { SnapshotError } from '@/lib/k8s/snapshot-error';

export const DEFAULT_MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;
/** Raises the default byte cap for every snapshot load (CLI, server, uploads). */
export const MAX_SNAPSHOT_BYTES_ENV = 'DRA_POSTURE_MAX_SNAPSHOT_BYTES';
export const MAX_SNAPSHOT_FILES = 10_000;
const SNAPSHOT_EXTENSIONS = ['.json', '.yaml', '.yml'];

export interface SnapshotFile {
  /** Path relative to the snapshot root, with `/` separators; the bare file name for a single file. */
  name: string;
  path: string;
  size: number;
}

export function resolveMaxBytes(maxBytes: number | undefined): number {
  if (maxBytes !== undefined) return maxBytes;
  const fromEnv = process.env[MAX_SNAPSHOT_BYTES_ENV];
  if (fromEnv) {
    const parsed = Number(fromEnv);
    if (Number.isSafeInteger(parsed) && parsed > 0) return parsed;
  }
  return DEFAULT_MAX_SNAPSHOT_BYTES;
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}

export function tooLargeError(size: number, limit: number, what: string): SnapshotError {
  return new SnapshotError(
    `${what} is ${formatBytes(size)} (${size} bytes), over the limit of ${formatBytes(limit)} (${limit} bytes); ` +
      `raise it with --max-snapshot-bytes (CLI), the maxBytes option or the ${MAX_SNAPSHOT_BYTES_ENV} environment variable`,
    {},
    'too_large',
  );
}

function hasSnapshotExtension(name: string): boolean {
  const lower = name.toLowerCase();
  return SNAPSHOT_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === 'ENOENT';
}

/**
 * Lists the files a snapshot path stands for, with sizes, enforcing the byte and file caps before
 * anything is read. Hidden entries (`.git`, `..data`) and symlinks inside a folder are skipped; the
 * skipped symlinks are reported in `warnings`.
 */
export async function listSnapshotFiles(root: string, maxBytes: number): Promise<{ files: SnapshotFile[]; warnings: string[] }> {
  let rootStat;
  try {
    // The root itself may be a symlink the operator chose; entries below it may not.
    rootStat = await stat(root);
  } catch (error) {
    if (isNotFound(error)) throw new SnapshotError(`snapshot path not found: ${basename(root)}`, {}, 'not_found');
    throw error;
  }
  if (rootStat.isFile()) {
    if (rootStat.size > maxBytes) throw tooLargeError(rootStat.size, maxBytes, `snapshot ${basename(root)}`);
    return { files: [{ name: basename(root), path: root, size: rootStat.size }], warnings: [] };
  }
  if (!rootStat.isDirectory()) throw new SnapshotError(`snapshot path is neither a file nor a folder: ${basename(root)}`);

  const files: SnapshotFile[] = [];
  const warnings: string[] = [];
  let total = 0;
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      const name = relative(root, path).split(sep).join('/');
      if (entry.isSymbolicLink()) {
        warnings.push(`skipped symlink ${name}: symlinks in snapshot folders are not followed`);
        continue;
      }
      if (entry.isDirectory()) {
        pending.push(path);
        continue;
      }
      if (!entry.isFile() || !hasSnapshotExtension(entry.name)) continue;
      const size = (await lstat(path)).size;
      total += size;
      files.push({ name, path, size });
      if (files.length > MAX_SNAPSHOT_FILES) throw new SnapshotError(`snapshot folder has more than ${MAX_SNAPSHOT_FILES} files`, {}, 'too_large');
    }
  }
  if (total > maxBytes) throw tooLargeError(total, maxBytes, `snapshot folder ${basename(root)}`);
  if (files.length === 0) {
    throw new SnapshotError(`no .json, .yaml or .yml files in snapshot folder ${basename(root)}`, {}, 'not_found');
  }
  // Plain code-unit order: the same on every machine and locale.
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { files, warnings };
}
