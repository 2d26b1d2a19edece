import type { CommandIO } from '../command-io';
import { main } from '../main';

/** Runs the CLI in process and collects what it prints (tests only). */
export async function runCli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CommandIO = { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) };
  const code = await main(argv, io);
  return { code, out, err };
}
