import type { Report } from '@/lib/analysis/types';

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
  // Version 1 findings also carry title, message and remediation: read, and not needed.
  if ((r!.schemaVersion as number) !== 1 && r!.schemaVersion !== 2) fail(`has schemaVersion ${JSON.stringify(r!.schemaVersion)}, expected 1 or 2`);
  for (const key of ['findings', 'nodes', 'quotas', 'deviceClasses', 'warnings'] as const) if (!Array.isArray(r![key])) fail(`has no ${key} list`);
  if (!r!.allNodes || !Array.isArray(r!.allNodes.statusWriters) || !Array.isArray(r!.allNodes.claimStatusWriters))
    fail('has no allNodes writer lists (made by an older dra-posture?)');
  // Bundles made before issues existed carry none: their findings are read as they were.
  if (r!.issues === undefined) return { ...(r as Report), issues: [], attackPaths: [] };
  if (r!.attackPaths === undefined) return { ...(r as Report), attackPaths: [] };
  if (!Array.isArray(r!.issues)) fail('has an issues field that is not a list');
  return r as Report;
}
