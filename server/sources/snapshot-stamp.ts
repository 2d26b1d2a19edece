import 'server-only';
import { readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/**
 * What a `--snapshot` path holds now, cheaply (sizes, modification times and inodes, not contents):
 * a change means the file or folder was rewritten and is read again; undefined means it is gone.
 */
export function snapshotStamp(path: string): string | undefined {
  let root: Stats;
  try {
    root = statSync(path);
  } catch {
    return undefined;
  }
  const line = (name: string, s: Stats) => `${name}\u0000${s.size}\u0000${s.mtimeMs}\u0000${s.ino}`;
  if (!root.isDirectory()) return line('', root);
  const lines = [line('', root)];
  for (const name of (readdirSync(path, { recursive: true }) as string[]).sort()) {
    try {
      lines.push(line(name, statSync(join(path, name))));
    } catch {
      lines.push(`${name}\u0000(gone)`);
    }
  }
  return lines.join('\n');
}
