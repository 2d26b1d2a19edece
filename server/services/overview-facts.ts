import 'server-only';
import type { Report } from '@/lib/analysis/types';
import { overviewFacts, type OverviewFacts } from '@/lib/view/overview';

// The overview's facts once per analysis, not once per request: on the large cluster they cost ~0.7 s
// of CPU (every quota row parsed and sorted), which made the overview the slowest page (bench:browser).
// Keyed by the report object, which an analysis keeps for as long as it is current; on globalThis,
// as the analyses are (get-report.ts).
const KEY = Symbol.for('dra-posture.overview-facts');
const cache = ((globalThis as unknown as Record<symbol, WeakMap<Report, OverviewFacts> | undefined>)[KEY] ??= new WeakMap());

export function cachedOverviewFacts(report: Report): OverviewFacts {
  let facts = cache.get(report);
  if (!facts) {
    facts = overviewFacts(report);
    cache.set(report, facts);
  }
  return facts;
}
