import 'server-only';
import { parseArgs } from 'node:util';
import { recommendedAuditPolicy, renderAuditPolicyYaml } from '@/lib/audit/recommended-policy';
import { UsageError } from '../usage-error';
import type { CommandIO } from '../command-io';

const OPTIONS = {
  'tenant-namespace': { type: 'string', multiple: true },
  output: { type: 'string', short: 'o' },
} as const;

/**
 * `dra-posture audit-policy [--tenant-namespace NS]... [-o yaml|json]`: the recommended audit policy for
 * resource.k8s.io (and nodes/status), each rule with why it is there.
 */
export async function runAuditPolicy(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length > 0) throw new UsageError(`unexpected arguments: ${positionals.join(' ')}`);
  const output = values.output ?? 'yaml';
  if (output !== 'yaml' && output !== 'json') throw new UsageError(`-o must be yaml or json (got "${output}")`);
  const tenants = values['tenant-namespace'] ?? [];
  for (const ns of tenants) if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(ns)) throw new UsageError(`--tenant-namespace "${ns}" is not a namespace name`);
  const { policy, reasons } = recommendedAuditPolicy({ tenantNamespaces: tenants });
  io.out(output === 'json' ? JSON.stringify(policy, null, 2) : renderAuditPolicyYaml(policy, reasons));
  return 0;
}
