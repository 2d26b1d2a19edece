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

/** Equal as JSON, key order included (so the expanded report prints the same bytes). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return false;
    if (!sameJson((a as Record<string, unknown>)[ka[i]], (b as Record<string, unknown>)[kb[i]])) return false;
  }
  return true;
}

type Writer = NodeStatusWriter | ClaimStatusWriter;

/**
 * Writers found on two or more nodes, and each writer's index among them. Equal writers are found by
 * identity first (the analysis hands every node the same object for a writer of all nodes), then by
 * content among writers with the same subject, mode, scope or driver and evidence count.
 */
function sharing<W extends Writer>(lists: readonly (readonly W[])[]): { shared: W[]; index: Map<W, number> } {
  const representative = new Map<W, W>();
  const candidates = new Map<string, W[]>();
  const count = new Map<W, number>();
  for (const list of lists) {
    for (const w of list) {
      let rep = representative.get(w);
      if (rep === undefined) {
        const key = JSON.stringify([w.subject, w.mode, 'scope' in w ? w.scope : w.driver, w.via.length]);
        let reps = candidates.get(key);
        if (!reps) candidates.set(key, (reps = []));
        rep = reps.find((r) => sameJson(r, w));
        if (rep === undefined) {
          reps.push(w);
          rep = w;
        }
        representative.set(w, rep);
      }
      count.set(rep, (count.get(rep) ?? 0) + 1);
    }
  }
  const shared: W[] = [];
  const repIndex = new Map<W, number>();
  for (const [rep, n] of count) {
    if (n < 2) continue;
    repIndex.set(rep, shared.length);
    shared.push(rep);
  }
  const index = new Map<W, number>();
  for (const [w, rep] of representative) {
    const i = repIndex.get(rep);
    if (i !== undefined) index.set(w, i);
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
