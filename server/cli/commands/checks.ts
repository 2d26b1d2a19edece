import 'server-only';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { catalogList } from '@/lib/analysis/catalog';
import { capabilitiesOf } from '@/lib/analysis/capabilities';
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
    // The capabilities of the model whose unexpected holders this ID reports (lib/analysis/capabilities.ts).
    covers: capabilitiesOf(id).map((c) => ({ capability: c.id, label: c.label, expected: c.expected })),
  }));
  if (format === 'json') io.out(JSON.stringify(list, null, 2));
  else if (format === 'yaml') io.out(stringify(list));
  else {
    const width = Math.max(...list.map((c) => c.id.length));
    const indent = ' '.repeat(width + 12);
    for (const c of list)
      io.out(
        `${c.id.padEnd(width)}  ${c.severity.padEnd(8)}  ${c.title}\n${indent}${c.description}` +
          c.covers.map((k) => `\n${indent}covers: ${k.label} (expected: ${k.expected})`).join(''),
      );
  }
  return 0;
}
