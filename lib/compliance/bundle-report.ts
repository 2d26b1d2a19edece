import type { Report } from '@/lib/report/types';

// report.json in a bundle is the report exactly as `report -o json` prints it (writers of every node
// are listed once in `allNodes`, so it stays small on large clusters). Reading checks its shape, so
// that a bundle from another tool version fails clearly instead of deep inside a view.

export class BundleReportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BundleReportError';
  }
}

export function parseBundleReport(value: unknown): Report {
  const r = value as Partial<Report> | null;
  const fail = (what: string) => {
    throw new BundleReportError(`report.json ${what}`);
  };
  if (!r || typeof r !== 'object' || Array.isArray(r)) fail('is not an object');
  if (r!.schemaVersion !== 1) fail(`has schemaVersion ${JSON.stringify(r!.schemaVersion)}, expected 1`);
  for (const key of ['findings', 'nodes', 'quotas', 'deviceClasses', 'warnings'] as const) if (!Array.isArray(r![key])) fail(`has no ${key} list`);
  if (!r!.allNodes || !Array.isArray(r!.allNodes.statusWriters) || !Array.isArray(r!.allNodes.claimStatusWriters))
    fail('has no allNodes writer lists (made by an older dra-posture?)');
  return r as Report;
}
