import 'server-only';
import { parseArgs } from 'node:util';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { WhoCanEntry } from '@/lib/authz/who-can';
import { kindsForWhoCan } from '@/lib/authz/kinds-for-question';
import { loadClusterFromFlags, SOURCE_OPTIONS } from '../load-cluster';
import { TARGET_OPTIONS, targetFromArgs } from '../request-target';
import { authorizersFlag } from '../authorizers-flag';
import { UsageError } from '../usage-error';
import type { CommandIO } from '../command-io';

const OPTIONS = {
  ...SOURCE_OPTIONS,
  ...TARGET_OPTIONS,
  authorizers: { type: 'string' },
  output: { type: 'string', short: 'o' },
} as const;

export async function runWhoCan(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'json') throw new UsageError(`-o must be json (got "${output}")`);
  const [verb, type, name, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
  const target = targetFromArgs(verb, type, name, values, io.err);
  const chain = authorizersFlag(values.authorizers);
  const engine = createAuthzEngine(await loadClusterFromFlags(values, { kinds: kindsForWhoCan(chain, target.resource) }), { chain });
  const entries = engine.whoCan(target);
  if (output === 'json') io.out(JSON.stringify({ request: target.resource ?? target.nonResource, subjects: entries }, null, 2));
  else io.out(formatTable(entries));
  return 0;
}

function formatTable(entries: WhoCanEntry[]): string {
  const rows = [['KIND', 'NAMESPACE', 'NAME', 'VIA']];
  for (const e of entries) {
    const via =
      e.via === 'rbac'
        ? e.grants.map((g) => `${g.binding.kind}/${g.binding.namespace ? `${g.binding.namespace}/` : ''}${g.binding.name} → ${g.role.kind}/${g.role.name}`).join(', ')
        : (e.note ?? e.via);
    rows.push([e.subject.kind, e.subject.namespace ?? '', e.subject.name, via]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n');
}
