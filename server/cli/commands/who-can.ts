import 'server-only';
import { parseArgs } from 'node:util';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { WhoCanEntry, WhoCanQuery } from '@/lib/authz/who-can';
import { kindsForWhoCan, RBAC_KINDS, rbacNamespacesFor } from '@/lib/authz/kinds-for-question';
import { loadClusterFromFlags, SOURCE_OPTIONS } from '../load-cluster';
import { TARGET_OPTIONS, targetFromArgs } from '../request-target';
import { CLUSTER_CONFIG_OPTIONS, clusterConfigFlags } from '../cluster-config-flags';
import { readBatchFile } from '../batch-items';
import { UsageError } from '../usage-error';
import type { CommandIO } from '../command-io';

const OPTIONS = {
  ...SOURCE_OPTIONS,
  ...TARGET_OPTIONS,
  ...CLUSTER_CONFIG_OPTIONS,
  output: { type: 'string', short: 'o' },
  batch: { type: 'string' },
} as const;

const FORMATS = ['text', 'wide', 'json', 'yaml'] as const;
type Format = (typeof FORMATS)[number];

/**
 * `dra-posture who-can VERB TYPE[/NAME]` or `who-can --batch FILE`: every subject allowed, with the
 * bindings that allow it. Exit 0 when answered (also when nobody can), 2 on usage or input errors.
 */
export async function runWhoCan(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const output = (values.output ?? 'text') as Format;
  if (!FORMATS.includes(output)) throw new UsageError(`-o must be one of ${FORMATS.filter((f) => f !== 'text').join(', ')} (got "${values.output}")`);
  const { chain, overrides } = clusterConfigFlags(values);

  let questions: WhoCanQuery[];
  if (values.batch !== undefined) {
    if (positionals.length > 0 || values.namespace !== undefined || values.subresource !== undefined || values['all-namespaces']) {
      throw new UsageError('--batch takes no VERB/TYPE, -n, -A or --subresource (each question names its own)');
    }
    // Only a batch needs the review schema (zod), only -o yaml the YAML writer: a single question loads neither.
    const { parseWhoCanBatch } = await import('../who-can-batch');
    questions = parseWhoCanBatch(await readBatchFile(values.batch), values.batch, io.err);
  } else {
    const [verb, type, name, ...rest] = positionals;
    if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
    questions = [targetFromArgs(verb, type, name, values, io.err)];
  }

  // One read for all questions: the union of what each needs.
  const needs = questions.map((q) => kindsForWhoCan(chain, q.resource));
  const kinds = needs.find((k) => k !== RBAC_KINDS) ?? RBAC_KINDS;
  const rbacNamespaces = rbacNamespacesFor(questions.map((q) => q.resource));
  const engine = createAuthzEngine(await loadClusterFromFlags(values, { kinds, rbacNamespaces }), { overrides });
  const answers = questions.map((q) => ({ request: q.resource ?? q.nonResource, subjects: engine.whoCan(q) }));

  if (output === 'json') io.out(JSON.stringify(values.batch !== undefined ? answers : answers[0], null, 2));
  else if (output === 'yaml') io.out((await import('../yaml-output')).toYaml(values.batch !== undefined ? answers : answers[0]));
  else if (values.batch === undefined) io.out(formatTable(answers[0].subjects, output === 'wide'));
  else io.out(answers.map((a) => `# ${describeQuestion(a.request)}\n${formatTable(a.subjects, output === 'wide')}`).join('\n\n'));
  return 0;
}

function describeQuestion(r: WhoCanQuery['resource'] | WhoCanQuery['nonResource']): string {
  if (!r) return '';
  if ('path' in r) return `${r.verb} ${r.path}`;
  const type = `${r.resource}${r.group ? `.${r.group}` : ''}${r.subresource ? `/${r.subresource}` : ''}`;
  return `${r.verb} ${type}${r.name ? ` ${r.name}` : ''}${r.namespace ? ` -n ${r.namespace}` : ''}`;
}

function formatTable(entries: WhoCanEntry[], wide: boolean): string {
  const rows = [wide ? ['KIND', 'NAMESPACE', 'NAME', 'BINDING', 'ROLE', 'RULE', 'VIA'] : ['KIND', 'NAMESPACE', 'NAME', 'VIA']];
  for (const e of entries) {
    const subject = [e.subject.kind, e.subject.namespace ?? '', e.subject.name];
    if (wide) {
      // One row per grant: which binding, which role, which rule of it (and the role it was aggregated from).
      if (e.via !== 'rbac') rows.push([...subject, '', '', '', e.note ?? e.via]);
      for (const g of e.grants) {
        const binding = `${g.binding.kind}/${g.binding.namespace ? `${g.binding.namespace}/` : ''}${g.binding.name}`;
        const role = `${g.role.kind}/${g.role.namespace ? `${g.role.namespace}/` : ''}${g.role.name}`;
        rows.push([...subject, binding, role, `#${g.ruleIndex}${g.aggregatedFrom ? ` (from ${g.aggregatedFrom})` : ''}`, 'rbac']);
      }
      continue;
    }
    const via =
      e.via === 'rbac'
        ? e.grants
            .map((g) => `${g.binding.kind}/${g.binding.namespace ? `${g.binding.namespace}/` : ''}${g.binding.name} → ${g.role.kind}/${g.role.name}`)
            .join(', ')
        : (e.note ?? e.via);
    rows.push([...subject, via]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n');
}
