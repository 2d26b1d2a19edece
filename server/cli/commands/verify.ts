import 'server-only';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { describeProblems } from '@/lib/compliance/verify-bundle';
import { verifyBundleBytes } from '@/server/compliance/read-bundle';
import { KeyFileError, readPublicKey } from '@/server/compliance/signing';
import { UsageError } from '../usage-error';
import type { CommandIO } from '../command-io';

const OPTIONS = { key: { type: 'string' } } as const;

/** Exit code of a bundle that does not verify. */
export const EXIT_NOT_VERIFIED = 1;

/**
 * `dra-posture verify FILE [--key PUB.pem]`: exit 0 only when every digest holds and the signature
 * (required with --key) verifies; otherwise 1, one line per thing that changed, naming it.
 */
export async function runVerify(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new UsageError('expected one bundle file: dra-posture verify FILE [--key PUB.pem]');
  const file = positionals[0];
  let key;
  try {
    key = values.key ? await readPublicKey(values.key) : undefined;
  } catch (e) {
    if (e instanceof KeyFileError) throw new UsageError(`--key: ${e.message}`);
    throw e;
  }
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new UsageError(`no such bundle file: ${file}`);
  const buffer = await readFile(file);
  // A view, not a copy: bundles of large clusters are hundreds of MiB.
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const result = verifyBundleBytes(bytes, key);
  const name = basename(file);
  if (!result.ok) {
    for (const line of describeProblems(result.problems)) io.err(`${name}: ${line}`);
    io.err(`${name}: NOT VERIFIED (${result.problems.length} problem${result.problems.length === 1 ? '' : 's'})`);
    return EXIT_NOT_VERIFIED;
  }
  const entries = result.manifest?.entries.length ?? 0;
  io.out(`${name}: verified: ${entries} entries match the manifest (sha256 ${result.fingerprint}), created ${result.manifest?.createdAt}`);
  for (const note of result.notes) io.out(`${name}: ${note}`);
  return 0;
}
