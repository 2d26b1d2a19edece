import 'server-only';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { simulateWrite } from '@/lib/authz/simulate-write';
import type { SimulateResponse } from '@/lib/api/dto';
import { WRITE_VERBS, WriteRequestError, writeFromManifest } from '@/lib/authz/write-request';
import { describeMissingReference, missingReferences } from '@/lib/authz/write-references';
import { ApiError } from '@/server/http/api-errors';
import { getAnalysis } from './get-report';
import { userFor } from './access';

const MANIFEST_CHARS = 48 * 1024;

/** The explorer's "simulate a write" form: the identity, the verb and the object (before and after) as YAML or JSON. */
export const SimulateBodySchema = z.strictObject({
  user: z.string().trim().min(1, 'user is required').max(512),
  groups: z.array(z.string().trim().min(1).max(256)).max(50).default([]),
  node: z.string().trim().max(253).default(''),
  verb: z.enum(WRITE_VERBS).optional(),
  subresource: z.string().trim().max(64).default(''),
  object: z.string().min(1, 'paste the object to write').max(MANIFEST_CHARS),
  old: z.string().max(MANIFEST_CHARS).default(''),
});

function parseManifest(text: string, what: string): unknown {
  try {
    return parseYaml(text, { maxAliasCount: 100 }) as unknown;
  } catch (e) {
    throw new ApiError('bad_request', `${what} is not YAML or JSON: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** Would this write be accepted on the current source? Every step with its reason. */
export async function simulate(input: unknown): Promise<SimulateResponse> {
  const parsed = SimulateBodySchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError('bad_request', `${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  const b = parsed.data;
  const object = parseManifest(b.object, 'the object');
  const old = b.old.trim() ? parseManifest(b.old, 'the stored object') : undefined;
  let sim;
  try {
    sim = writeFromManifest(object, { user: userFor(b.user, b.groups, b.node), verb: b.verb, subresource: b.subresource, old, where: 'the object' });
  } catch (e) {
    if (e instanceof WriteRequestError) throw new ApiError('bad_request', e.message);
    throw e;
  }
  const { engine } = (await getAnalysis()).context;
  return { ...simulateWrite(engine, sim), request: sim.attributes, missing: missingReferences(engine.state, sim).map(describeMissingReference) };
}
