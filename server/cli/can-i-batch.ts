import 'server-only';
import type { AuthzEngine } from '@/lib/authz/authz-engine';
import { formatZodIssue, requestFromSubjectAccessReview, SubjectAccessReviewSchema, withSarStatus } from '@/lib/authz/subject-access-review';
import { jsonItems } from './batch-items';
import { UsageError } from './usage-error';

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
