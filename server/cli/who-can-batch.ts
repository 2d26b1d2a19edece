import 'server-only';
import { parseArgs } from 'node:util';
import { formatZodIssue, requestFromSubjectAccessReview, SubjectAccessReviewSchema } from '@/lib/authz/subject-access-review';
import type { WhoCanQuery } from '@/lib/authz/who-can';
import { jsonItems } from './batch-items';
import { TARGET_OPTIONS, targetFromArgs } from './request-target';
import { UsageError } from './usage-error';

/**
 * The questions of `who-can --batch FILE`, in either form:
 *  - JSON (array, `kind: List` or JSON lines) of objects with `resourceAttributes` or
 *    `nonResourceAttributes`, as in a SubjectAccessReview's spec (without a user);
 *  - text, one question a line as on the command line: `VERB TYPE[.GROUP][/NAME] [-n NS | -A] [--subresource S]`
 *    (blank lines and lines starting with # are skipped).
 */
export function parseWhoCanBatch(text: string, fileName: string, warn: (message: string) => void): WhoCanQuery[] {
  const trimmed = text.trim();
  if (trimmed === '') throw new UsageError(`${fileName}: empty batch file`);
  if (trimmed.startsWith('{') || trimmed.startsWith('['))
    return jsonItems(trimmed, fileName).map((item, i) => fromAttributes(item, `${fileName}: question ${i}`));
  const out: WhoCanQuery[] = [];
  trimmed.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    try {
      const { values, positionals } = parseArgs({ args: line.split(/\s+/), options: TARGET_OPTIONS, allowPositionals: true, strict: true });
      const [verb, type, name, ...rest] = positionals;
      if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
      out.push(targetFromArgs(verb, type, name, values, warn));
    } catch (e) {
      throw new UsageError(`${fileName}: line ${i + 1}: ${(e as Error).message.split('\n')[0]}`);
    }
  });
  return out;
}

// The SubjectAccessReview schema and conversion validate the attributes; the user is a placeholder
// the question never reads.
function fromAttributes(item: unknown, where: string): WhoCanQuery {
  if (!item || typeof item !== 'object' || Array.isArray(item))
    throw new UsageError(`${where}: expected an object with resourceAttributes or nonResourceAttributes`);
  const parsed = SubjectAccessReviewSchema.safeParse({ spec: { ...item, user: 'who-can' } });
  if (!parsed.success) throw new UsageError(`${where}: ${formatZodIssue(parsed.error).replace(/^spec(\.|: )/, '')}`);
  try {
    const { resource, nonResource } = requestFromSubjectAccessReview(parsed.data);
    return resource ? { resource } : { nonResource };
  } catch (e) {
    throw new UsageError(`${where}: ${(e as Error).message}`);
  }
}
