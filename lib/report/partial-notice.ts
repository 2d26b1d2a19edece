import type { Report } from '@/lib/analysis/types';

/**
 * What a partial report must say before anything else: which kinds could not be read and which
 * checks are therefore unknown (their silence is not a pass). Undefined for a complete report.
 * One wording for the Markdown and HTML reports, the CLI and the dashboard's banner.
 */
export function partialNotice(report: Pick<Report, 'partial' | 'checksUnknown'>): { headline: string; checks: string[] } | undefined {
  if (!report.partial) return undefined;
  const unknown = report.checksUnknown ?? [];
  const kinds = [...new Set(unknown.flatMap((c) => c.kinds))].sort();
  const headline =
    `Partial data: the source could not read ${kinds.length > 0 ? kinds.join(', ') : 'every kind'} in full, ` +
    `so ${unknown.length} check${unknown.length === 1 ? ' is' : 's are'} unknown, not passed.`;
  return { headline, checks: unknown.map((c) => c.id) };
}
