import type { ClaimStatusWriter, NodeReport, NodeStatusWriter, Report } from '@/lib/report/types';

// report.json in a bundle: the report, with node writers that appear on several nodes (a writer of
// all nodes appears on every one of thousands) written once in shared lists and referenced from
// each node by index. Lossless: expandReport gives back the report, equal to `report -o json`, while
// a large cluster's report.json shrinks from gigabytes to megabytes.

export interface BundleNodeReport {
  name: string;
  /** A writer, or the index of one in sharedStatusWriters. */
  statusWriters: (NodeStatusWriter | number)[];
  /** A writer, or the index of one in sharedClaimStatusWriters. */
  claimStatusWriters: (ClaimStatusWriter | number)[];
}

export interface BundleReport extends Omit<Report, 'nodes'> {
  sharedStatusWriters: NodeStatusWriter[];
  sharedClaimStatusWriters: ClaimStatusWriter[];
  nodes: BundleNodeReport[];
}

/** Indexes of writers found on two or more nodes. Writers are compared by identity: the analysis hands every node the same object for a writer of all nodes, and an unshared copy is merely written in full. */
function sharing<W extends object>(lists: readonly (readonly W[])[]): { shared: W[]; index: Map<W, number> } {
  const seen = new Map<W, number>();
  for (const list of lists) for (const w of list) seen.set(w, (seen.get(w) ?? 0) + 1);
  const shared: W[] = [];
  const index = new Map<W, number>();
  for (const [w, n] of seen) {
    if (n < 2) continue;
    index.set(w, shared.length);
    shared.push(w);
  }
  return { shared, index };
}

export function compactReport(report: Report): BundleReport {
  const status = sharing(report.nodes.map((n) => n.statusWriters));
  const claims = sharing(report.nodes.map((n) => n.claimStatusWriters));
  const nodes = report.nodes.map((n) => ({
    name: n.name,
    statusWriters: n.statusWriters.map((w) => status.index.get(w) ?? w),
    claimStatusWriters: n.claimStatusWriters.map((w) => claims.index.get(w) ?? w),
  }));
  const { schemaVersion, source, summary, findings, quotas, deviceClasses, warnings } = report;
  return { schemaVersion, source, summary, findings, sharedStatusWriters: status.shared, sharedClaimStatusWriters: claims.shared, nodes, quotas, deviceClasses, warnings };
}

export class BundleReportError extends Error {
  override name = 'BundleReportError';
}

export function expandReport(bundled: BundleReport): Report {
  const pick = <W>(shared: readonly W[], ref: W | number, where: string): W => {
    if (typeof ref !== 'number') return ref;
    const w = shared[ref];
    if (w === undefined) throw new BundleReportError(`report.json: ${where} refers to shared writer ${ref}, which does not exist`);
    return w;
  };
  const nodes: NodeReport[] = (bundled.nodes ?? []).map((n) => ({
    name: n.name,
    statusWriters: n.statusWriters.map((w) => pick(bundled.sharedStatusWriters ?? [], w, `node ${n.name}`)),
    claimStatusWriters: n.claimStatusWriters.map((w) => pick(bundled.sharedClaimStatusWriters ?? [], w, `node ${n.name}`)),
  }));
  const { schemaVersion, source, summary, findings, quotas, deviceClasses, warnings } = bundled;
  return { schemaVersion, source, summary, findings, nodes, quotas, deviceClasses, warnings };
}
