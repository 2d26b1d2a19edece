import 'server-only';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { catalogList } from '@/lib/analysis/catalog';
import { UsageError } from '../usage-error';
import type { CommandIO } from '../command-io';

const OPTIONS = { output: { type: 'string', short: 'o' } } as const;
const FORMATS = ['table', 'json', 'yaml'] as const;

/** `dra-posture checks [-o table|json|yaml]`: every check with its severity, meaning and general fix. */
export async function runChecks(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length > 0) throw new UsageError(`checks takes no arguments (got "${positionals[0]}")`);
  const format = values.output ?? 'table';
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`-o must be one of ${FORMATS.join(', ')} (got "${format}")`);
  // One entry per check in catalogue order; the root-cause kind stays internal to issue grouping.
  const list = catalogList().map(({ id, family, familyLabel, severity, title, description, remediation }) => ({
    id,
    family,
    familyLabel,
    severity,
    title,
    description,
    remediation,
  }));
  if (format === 'json') io.out(JSON.stringify(list, null, 2));
  else if (format === 'yaml') io.out(stringify(list));
  else {
    const width = Math.max(...list.map((c) => c.id.length));
    for (const c of list) io.out(`${c.id.padEnd(width)}  ${c.severity.padEnd(8)}  ${c.title}\n${' '.repeat(width + 12)}${c.description}`);
  }
  return 0;
}
