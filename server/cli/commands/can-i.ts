import 'server-only';
import { parseArgs } from 'node:util';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { loadClusterFromFlags, SOURCE_OPTIONS } from '../load-cluster';
import { IDENTITY_OPTIONS, impersonationFromFlags, userFromAsFlags } from '../build-user';
import { TARGET_OPTIONS, targetFromArgs } from '../request-target';
import { readBatchFile } from '../batch-items';
import { kindsForCanI, rbacNamespacesFor } from '@/lib/authz/kinds-for-question';
import { CLUSTER_CONFIG_OPTIONS, clusterConfigFlags } from '../cluster-config-flags';
import { UsageError } from '../usage-error';
import type { CommandIO } from '../command-io';

const OPTIONS = {
  ...SOURCE_OPTIONS,
  ...TARGET_OPTIONS,
  ...IDENTITY_OPTIONS,
  ...CLUSTER_CONFIG_OPTIONS,
  batch: { type: 'string' },
  output: { type: 'string', short: 'o' },
  quiet: { type: 'boolean', short: 'q' },
} as const;

export async function runCanI(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'json') throw new UsageError(`-o must be json (got "${output}")`);
  const { chain, overrides } = clusterConfigFlags(values);

  if (values.batch !== undefined) {
    if (positionals.length > 0 || values.as || values['impersonate-user'])
      throw new UsageError('--batch takes no VERB/TYPE, --as or --impersonate-* (each review names its user)');
    // The review schema (zod) is loaded for a batch only: a single question starts faster without it.
    const { answerBatch, parseBatch } = await import('../can-i-batch');
    const sars = parseBatch(await readBatchFile(values.batch), values.batch);
    const engine = createAuthzEngine(await loadClusterFromFlags(values), { overrides });
    io.out(JSON.stringify(answerBatch(engine, sars), null, 2));
    return 0;
  }

  const [verb, type, name, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
  const target = targetFromArgs(verb, type, name, values, io.err);
  const requester = userFromAsFlags(values.as, values['as-group'], values['as-user-extra']);
  const impersonated = values['impersonate-user'] === undefined ? undefined : { name: values['impersonate-user'], groups: values['impersonate-group'] ?? [] };
  const headers = impersonationFromFlags(values);
  // Impersonating a service account is granted in its namespace, so only a plain question is scoped.
  const rbacNamespaces = headers ? undefined : rbacNamespacesFor([target.resource]);
  const engine = createAuthzEngine(await loadClusterFromFlags(values, { kinds: kindsForCanI(chain, [requester, impersonated]), rbacNamespaces }), {
    overrides,
  });

  if (headers) {
    const d = engine.authorizeImpersonated(requester, headers, target);
    if (output === 'json') {
      io.out(
        JSON.stringify(
          {
            allowed: d.allowed,
            reason: d.reason,
            impersonationMode: d.impersonation.mode ?? null,
            impersonatedUser: d.impersonation.impersonated ?? null,
            impersonationChecks: d.impersonation.checks.map((c) => ({
              mode: c.mode,
              request: c.request.resource ?? c.request.nonResource,
              allowed: c.decision.allowed,
              reason: c.decision.reason,
            })),
            decision: d.decision ?? null,
          },
          null,
          2,
        ),
      );
    } else if (!values.quiet) io.out(d.allowed ? 'yes' : 'no');
    return d.allowed ? 0 : 1;
  }

  const d = engine.authorize({ user: requester, ...target });
  if (output === 'json')
    io.out(
      JSON.stringify(
        {
          allowed: d.allowed,
          reason: d.reason,
          decidedBy: d.decidedBy ?? null,
          grant: d.grant ?? null,
          user: requester,
          request: target.resource ?? target.nonResource,
        },
        null,
        2,
      ),
    );
  else if (!values.quiet) io.out(d.allowed ? 'yes' : 'no');
  return d.allowed ? 0 : 1;
}
