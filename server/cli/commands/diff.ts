import 'server-only';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { diffDigests, driftIsEmpty } from '@/lib/compliance/drift';
import type { DriftDigest } from '@/lib/compliance/drift-digest';
import { renderDriftText } from '@/lib/compliance/render-drift';
import { bundleDriftDigest, storedDriftDigest } from '@/server/sources/bundle-drift-digest';
import { getSnapshotRecord, SNAPSHOT_ID } from '@/server/compliance/snapshot-store';
import { UsageError } from '../usage-error';
import type { CommandIO } from '../command-io';

const OPTIONS = { output: { type: 'string', short: 'o' } } as const;

/** Exit code when the two snapshots differ (as diff(1)). */
export const EXIT_DRIFT = 1;

// Each side is read down to its drift digest before the next is read: one bundle in memory at a time.
async function side(arg: string): Promise<{ digest: DriftDigest; label: string }> {
  const info = await stat(arg).catch(() => undefined);
  // A Buffer is a Uint8Array: passed as it is (new Uint8Array(buffer) would copy the whole bundle).
  if (info?.isFile()) return { digest: bundleDriftDigest(await readFile(arg), basename(arg)), label: basename(arg) };
  if (SNAPSHOT_ID.test(arg)) {
    const record = getSnapshotRecord(arg);
    const digest = record ? storedDriftDigest(arg) : undefined;
    if (!record || !digest) throw new UsageError(`no stored snapshot ${arg}`);
    return { digest, label: `${arg} (${record.takenAt})` };
  }
  throw new UsageError(`${arg} is neither a bundle file nor a stored snapshot id (snap-…)`);
}

/**
 * `dra-posture diff A B [-o json]`: what changed from bundle (or stored snapshot) A to B: findings,
 * DRA permissions per identity, node writers, quotas, zeroing. Exit 0 when nothing changed, 1 when
 * something did, 2 on usage errors or a bundle that does not verify.
 */
export async function runDiff(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length !== 2) throw new UsageError('expected two snapshots: dra-posture diff A B (bundle files or stored snapshot ids)');
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'json') throw new UsageError(`-o must be text or json (got "${output}")`);
  const from = await side(positionals[0]);
  const drift = diffDigests(from, await side(positionals[1]));
  io.out(output === 'json' ? JSON.stringify(drift, null, 2) : renderDriftText(drift));
  return driftIsEmpty(drift) ? 0 : EXIT_DRIFT;
}
