import { CHECK_IDS, CATALOG, type CatalogEntry, type CheckId } from '@/lib/analysis/catalog';
import type { Report } from '@/lib/analysis/types';

// The checks with findings in a report, in catalogue order, with what each means and how it is fixed:
// the Markdown and HTML reports explain each check once instead of with every finding.

export interface CheckFired {
  id: CheckId;
  entry: CatalogEntry;
  findings: number;
}

export function checksFired(report: Pick<Report, 'findings'>): CheckFired[] {
  const counts = new Map<string, number>();
  for (const f of report.findings) counts.set(f.check, (counts.get(f.check) ?? 0) + 1);
  return CHECK_IDS.filter((id) => counts.has(id)).map((id) => ({ id, entry: CATALOG[id], findings: counts.get(id)! }));
}
