import 'server-only';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parse as parseYaml, stringify } from 'yaml';
import { z } from 'zod';
import { createAuthzEngine, type AuthzEngine } from '@/lib/authz/authz-engine';
import { simulateWrite, type SimulationResult, type WriteSimulation } from '@/lib/authz/simulate-write';
import { formatZodIssue } from '@/lib/authz/subject-access-review';
import { WRITE_VERBS, WriteRequestError, writeFromManifest } from '@/lib/authz/write-request';
import type { UserInfo } from '@/lib/authz/types';
import { loadClusterFromFlags, SOURCE_OPTIONS } from '../load-cluster';
import { IDENTITY_OPTIONS, impersonationFromFlags, userFromAsFlags } from '../build-user';
import { jsonItems, readBatchFile } from '../batch-items';
import { CLUSTER_CONFIG_OPTIONS, clusterConfigFlags } from '../cluster-config-flags';
import { UsageError } from '../usage-error';
import type { CommandIO } from '../command-io';

const OPTIONS = {
  ...SOURCE_OPTIONS,
  filename: { type: 'string', short: 'f' },
  old: { type: 'string' },
  verb: { type: 'string' },
  subresource: { type: 'string' },
  ...IDENTITY_OPTIONS,
  ...CLUSTER_CONFIG_OPTIONS,
  batch: { type: 'string' },
  output: { type: 'string', short: 'o' },
} as const;

const Extra = z.record(z.string(), z.array(z.string()));

/** A request document: who sends what, with the object before and after (issue 16). */
export const SimulationDocumentSchema = z.strictObject({
  user: z.string().min(1),
  groups: z.array(z.string()).optional(),
  extra: Extra.optional(),
  verb: z.enum(WRITE_VERBS),
  group: z.string().default(''),
  resource: z.string().min(1),
  subresource: z.string().default(''),
  namespace: z.string().default(''),
  name: z.string().default(''),
  new: z.unknown().optional(),
  old: z.unknown().optional(),
  impersonate: z
    .strictObject({ user: z.string().min(1), groups: z.array(z.string()).optional(), uid: z.string().optional(), extra: Extra.optional() })
    .optional(),
});
type SimulationDocument = z.infer<typeof SimulationDocumentSchema>;

/** The authenticated identity of a request document: groups as given, else those the authenticator adds. */
function documentUser(doc: SimulationDocument): UserInfo {
  if (doc.groups !== undefined) return { name: doc.user, groups: doc.groups, ...(doc.extra ? { extra: doc.extra } : {}) };
  const user = userFromAsFlags(doc.user, undefined, undefined);
  return doc.extra ? { ...user, extra: doc.extra } : user;
}

export function simulationFromDocument(doc: SimulationDocument): WriteSimulation {
  return {
    user: documentUser(doc),
    ...(doc.impersonate ? { impersonate: doc.impersonate } : {}),
    attributes: { verb: doc.verb, group: doc.group, resource: doc.resource, subresource: doc.subresource, namespace: doc.namespace, name: doc.name },
    object: doc.new,
    oldObject: doc.old,
  };
}

async function readDocument(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = path === '-' ? await readBatchFile('-') : await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`${what} ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  try {
    return parseYaml(text, { maxAliasCount: 100 }) as unknown;
  } catch (e) {
    throw new UsageError(`${what} ${path}: not YAML or JSON (${(e as Error).message.split('\n')[0]})`);
  }
}

function isRequestDocument(value: unknown): boolean {
  return !!value && typeof value === 'object' && 'verb' in value && 'resource' in value && !('kind' in value);
}

function parseDocument(value: unknown, where: string): SimulationDocument {
  const parsed = SimulationDocumentSchema.safeParse(value);
  if (!parsed.success) throw new UsageError(`${where}: ${formatZodIssue(parsed.error)}`);
  return parsed.data;
}

export async function runSimulate(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length > 0) throw new UsageError(`unexpected arguments: ${positionals.join(' ')}`);
  const output = values.output ?? 'text';
  if (!['text', 'json', 'yaml'].includes(output)) throw new UsageError(`-o must be json or yaml (got "${output}")`);
  const { overrides } = clusterConfigFlags(values);

  let sims: { request: unknown; sim: WriteSimulation }[];
  if (values.batch !== undefined) {
    if (values.filename !== undefined || values.as !== undefined) throw new UsageError('--batch takes no -f or --as (each request document names its user)');
    const text = (await readBatchFile(values.batch)).trim();
    if (text === '') throw new UsageError(`${values.batch}: empty batch file`);
    sims = jsonItems(text, values.batch).map((item, i) => {
      const doc = parseDocument(item, `${values.batch}: request ${i}`);
      return { request: item, sim: simulationFromDocument(doc) };
    });
  } else {
    if (values.filename === undefined)
      throw new UsageError('-f FILE is required: a manifest to create (or update, with --verb update --old FILE), or a request document');
    const doc = await readDocument(values.filename, '-f');
    if (isRequestDocument(doc)) {
      sims = [{ request: doc, sim: simulationFromDocument(parseDocument(doc, values.filename)) }];
    } else {
      if (!doc || typeof doc !== 'object' || Array.isArray(doc))
        throw new UsageError(`-f ${values.filename}: expected one Kubernetes object or a request document`);
      const old = values.old === undefined ? undefined : await readDocument(values.old, '--old');
      const user = userFromAsFlags(values.as, values['as-group'], values['as-user-extra']);
      let sim: WriteSimulation;
      try {
        sim = writeFromManifest(doc, { user, verb: values.verb, subresource: values.subresource, old, where: `-f ${values.filename}` });
      } catch (e) {
        if (e instanceof WriteRequestError)
          throw new UsageError(e.message.replace(/^(update|patch) needs the stored object.*$/, `--verb $1 needs --old FILE (the stored object)`));
        throw e;
      }
      const impersonate = impersonationFromFlags(values);
      if (impersonate) sim.impersonate = impersonate;
      sims = [{ request: sim.attributes, sim }];
    }
  }

  const engine: AuthzEngine = createAuthzEngine(await loadClusterFromFlags(values), { overrides });
  const results = sims.map(({ request, sim }) => ({ request, ...simulateWrite(engine, sim) }));
  const one = values.batch === undefined;
  if (output === 'json') io.out(JSON.stringify(one ? results[0] : results, null, 2));
  else if (output === 'yaml') io.out(stringify(one ? results[0] : results, { aliasDuplicateObjects: false }));
  else io.out(results.map((r, i) => `${one ? '' : `# request ${i}\n`}${describeResult(r)}`).join('\n\n'));
  return one ? (results[0].allowed ? 0 : 1) : 0;
}

function describeResult(r: SimulationResult): string {
  const head = r.allowed
    ? `allowed (as ${r.decidedAs.name})`
    : r.refusedBy
      ? `denied by ${r.refusedBy} (as ${r.decidedAs.name})`
      : `unknown: ${r.undecidedBy} could not be decided (as ${r.decidedAs.name})`;
  const lines = r.steps.map((s) => `  ${s.unknown ? '??  ' : s.allowed ? 'ok  ' : 'NO  '}${s.step}: ${s.reason}`);
  for (const s of r.steps) for (const rule of s.uncovered ?? []) lines.push(`        not held: ${JSON.stringify(rule)}`);
  return [head, ...lines].join('\n');
}
