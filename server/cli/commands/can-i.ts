import 'server-only';
import { parseArgs } from 'node:util';
import { createAuthzEngine, type AuthzEngine } from '@/lib/authz/authz-engine';
import { formatZodIssue, requestFromSubjectAccessReview, SubjectAccessReviewSchema, withSarStatus } from '@/lib/authz/subject-access-review';
import { loadClusterFromFlags, SOURCE_OPTIONS } from '../load-cluster';
import { IDENTITY_OPTIONS, impersonationFromFlags, userFromAsFlags } from '../build-user';
import { TARGET_OPTIONS, targetFromArgs } from '../request-target';
import { jsonItems, readBatchFile } from '../batch-items';
import { kindsForCanI } from '@/lib/authz/kinds-for-question';
import { authorizersFlag } from '../authorizers-flag';
import { UsageError } from '../usage-error';
import type { CommandIO } from '../command-io';

const OPTIONS = {
  ...SOURCE_OPTIONS,
  ...TARGET_OPTIONS,
  ...IDENTITY_OPTIONS,
  authorizers: { type: 'string' },
  batch: { type: 'string' },
  output: { type: 'string', short: 'o' },
  quiet: { type: 'boolean', short: 'q' },
} as const;

export async function runCanI(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'json') throw new UsageError(`-o must be json (got "${output}")`);
  const chain = authorizersFlag(values.authorizers);

  if (values.batch !== undefined) {
    if (positionals.length > 0 || values.as || values['impersonate-user'])
      throw new UsageError('--batch takes no VERB/TYPE, --as or --impersonate-* (each review names its user)');
    const sars = parseBatch(await readBatchFile(values.batch), values.batch);
    const engine = createAuthzEngine(await loadClusterFromFlags(values), { chain });
    io.out(JSON.stringify(answerBatch(engine, sars), null, 2));
    return 0;
  }

  const [verb, type, name, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
  const target = targetFromArgs(verb, type, name, values, io.err);
  const requester = userFromAsFlags(values.as, values['as-group'], values['as-user-extra']);
  const impersonated = values['impersonate-user'] === undefined ? undefined : { name: values['impersonate-user'], groups: values['impersonate-group'] ?? [] };
  const engine = createAuthzEngine(await loadClusterFromFlags(values, { kinds: kindsForCanI(chain, [requester, impersonated]) }), { chain });

  const headers = impersonationFromFlags(values);
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

/** A JSON array, a `kind: List` or JSON lines of SubjectAccessReviews. */
export function parseBatch(text: string, fileName: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed === '') throw new UsageError(`${fileName}: empty batch file`);
  const items = jsonItems(trimmed, fileName);
  return items.map((item, i) => {
    const parsed = SubjectAccessReviewSchema.safeParse(item);
    if (!parsed.success) throw new UsageError(`${fileName}: review ${i}: ${formatZodIssue(parsed.error)}`);
    return parsed.data;
  });
}

export function answerBatch(engine: AuthzEngine, sars: unknown[]): unknown[] {
  return sars.map((sar, i) => {
    const parsed = SubjectAccessReviewSchema.parse(sar);
    let request;
    try {
      request = requestFromSubjectAccessReview(parsed);
    } catch (e) {
      throw new UsageError(`review ${i}: ${(e as Error).message}`);
    }
    return withSarStatus(parsed, engine.authorize(request));
  });
}
