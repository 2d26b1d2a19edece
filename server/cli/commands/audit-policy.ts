import 'server-only';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { z } from 'zod';
import { describeShortfall, judgeAuditPolicy } from '@/lib/audit/judge-policy';
import { recommendedAuditPolicy, renderAuditPolicyYaml } from '@/lib/audit/recommended-policy';
import { UsageError } from '../usage-error';
import type { CommandIO } from '../command-io';

const OPTIONS = {
  'tenant-namespace': { type: 'string', multiple: true },
  output: { type: 'string', short: 'o' },
  check: { type: 'string' },
} as const;

const strings = z.array(z.string()).optional();
const PolicySchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.literal('Policy'),
  omitStages: strings,
  rules: z.array(
    z.object({
      level: z.enum(['None', 'Metadata', 'Request', 'RequestResponse']),
      users: strings,
      userGroups: strings,
      verbs: strings,
      namespaces: strings,
      nonResourceURLs: strings,
      resources: z.array(z.object({ group: z.string().optional().default(''), resources: strings, resourceNames: strings })).optional(),
      omitStages: strings,
    }),
  ),
});

/**
 * `--check FILE`: the requests the analysis reads that the policy does not log at the level they need
 * (first match wins), then warnings; exit 1 when any request falls short, warnings alone do not fail.
 */
async function checkPolicy(path: string, tenants: readonly string[], io: CommandIO): Promise<number> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new UsageError(`--check ${path}: cannot read the file`);
  }
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new UsageError(`--check ${path}: not YAML or JSON (${(e as Error).message.split('\n')[0]})`);
  }
  const parsed = PolicySchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`--check ${path}: not an audit Policy: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  const { shortfalls, warnings } = judgeAuditPolicy(parsed.data, { tenantNamespaces: tenants });
  if (shortfalls.length === 0) {
    io.out(
      `${path}: every request the analysis reads is logged at the level it needs (claim, template and DeviceClass writes with bodies; claim status, ResourceSlice and nodes/status writes)`,
    );
  } else {
    io.out(`${path}: these requests the analysis reads are not logged at the level it needs:`);
    for (const s of shortfalls) io.out(`  ${describeShortfall(s)}`);
  }
  if (warnings.length > 0) {
    io.out(`${path}: warnings:`);
    for (const w of warnings) io.out(`  ${w}`);
  }
  return shortfalls.length === 0 ? 0 : 1;
}

/**
 * `dra-posture audit-policy [--tenant-namespace NS]... [-o yaml|json]`: the recommended audit policy for
 * resource.k8s.io (and nodes/status), each rule with why it is there.
 */
export async function runAuditPolicy(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length > 0) throw new UsageError(`unexpected arguments: ${positionals.join(' ')}`);
  const tenants = values['tenant-namespace'] ?? [];
  for (const ns of tenants) if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(ns)) throw new UsageError(`--tenant-namespace "${ns}" is not a namespace name`);
  if (values.check !== undefined) return checkPolicy(values.check, tenants, io);
  const output = values.output ?? 'yaml';
  if (output !== 'yaml' && output !== 'json') throw new UsageError(`-o must be yaml or json (got "${output}")`);
  const { policy, reasons } = recommendedAuditPolicy({ tenantNamespaces: tenants });
  io.out(output === 'json' ? JSON.stringify(policy, null, 2) : renderAuditPolicyYaml(policy, reasons));
  return 0;
}
