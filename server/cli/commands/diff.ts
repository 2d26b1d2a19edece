import 'server-only';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { computeDrift, driftIsEmpty, type DriftSide } from '@/lib/compliance/drift';
import { renderDriftText } from '@/lib/compliance/render-drift';
import { openBundle } from '@/server/sources/bundle-source';
import { getSnapshotBundle, getSnapshotRecord, SNAPSHOT_ID } from '@/server/compliance/snapshot-store';
import { UsageError } from '../usage-error';
import type { CommandIO } from '../command-io';

const OPTIONS = { output: { type: 'string', short: 'o' } } as const;

/** Exit code when the two snapshots differ (as diff(1)). */
export const EXIT_DRIFT = 1;

async function side(arg: string): Promise<DriftSide> {
  const info = await stat(arg).catch(() => undefined);
  if (info?.isFile()) {
    const opened = openBundle(new Uint8Array(await readFile(arg)), basename(arg));
    return { report: opened.report, state: opened.state, label: basename(arg) };
  }
  if (SNAPSHOT_ID.test(arg)) {
    const bytes = getSnapshotBundle(arg);
    if (!bytes) throw new UsageError(`no stored snapshot ${arg}`);
    const record = getSnapshotRecord(arg)!;
    const opened = openBundle(bytes, arg);
    return { report: opened.report, state: opened.state, label: `${arg} (${record.takenAt})` };
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
  const drift = computeDrift(await side(positionals[0]), await side(positionals[1]));
  io.out(output === 'json' ? JSON.stringify(drift, null, 2) : renderDriftText(drift));
  return driftIsEmpty(drift) ? 0 : EXIT_DRIFT;
}
