import 'server-only';
import type { BlastRadius } from '@/lib/analysis/node-writers/blast-radius';
import { computeBlastRadius } from '@/lib/analysis/node-writers/blast-radius';
import { RecentValues } from './recent-values';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { annotateFindings, buildIdentityGraph } from '@/lib/graph/build-graph';
import type { GraphModel } from '@/lib/graph/types';
import { buildReportWithContext, type ReportBuild } from '@/lib/report/build-report';
import type { DetailedFinding, Finding, Report } from '@/lib/analysis/types';
import { detailFinding } from '@/lib/analysis/finding-texts';
import { ApiError } from '@/server/http/api-errors';
import { withActivity } from '@/lib/audit/attach-activity';
import { reportWithAudit } from '@/server/audit/audit-flag';
import { getUploadedAudit } from './uploaded-audit';
import type { LiveCluster } from '@/server/sources/live-cluster';
import { getCurrentCluster, getCurrentLiveCluster } from './current-cluster';
import { LiveAnalysis, type AnalysedVersion } from './live-analysis';
import { statedReportOptions } from './stated-cluster-config';

interface CachedAnalysis extends ReportBuild {
  state: ClusterState;
  /** When this report was computed (ISO time), shown as freshness for sources without collectedAt. */
  computedAt: string;
  findingsById: Map<string, Finding>;
  graph?: GraphModel;
  /** Full blast radii of the last nodes asked (each lists up to 100,000 claims on the bench cluster). */
  blastRadius: RecentValues<BlastRadius>;
  /** Which audit log the report includes ('' none, the --audit path, or an upload's sequence number). */
  auditKey: string;
}

// One analysis per ClusterState object: a source that reloads hands out a new state, which gets a new
// report; the demo and a snapshot keep theirs for the life of the process. A live cluster is
// analysed in the background as it changes (LiveAnalysis), one per LiveCluster. On globalThis: Next
// bundles route handlers and pages separately, and a module-level cache made each compute (and hold)
// its own analysis: on the bench cluster the overview waited 30 s after /api/v1/report had computed one.
const CACHE_KEY = Symbol.for('dra-posture.analyses');
interface Caches {
  versions: WeakMap<ClusterState, AnalysedVersion>;
  lives: WeakMap<LiveCluster, LiveAnalysis>;
  /** The served analysis (with the audit log's findings joined) per analysed version. */
  served: WeakMap<AnalysedVersion, CachedAnalysis>;
}
const caches = ((globalThis as unknown as Record<symbol, Caches | undefined>)[CACHE_KEY] ??= {
  versions: new WeakMap(),
  lives: new WeakMap(),
  served: new WeakMap(),
});

async function currentVersion(): Promise<AnalysedVersion> {
  const live = await getCurrentLiveCluster();
  if (live) {
    let analysis = caches.lives.get(live);
    if (!analysis) caches.lives.set(live, (analysis = new LiveAnalysis(live)));
    return analysis.current();
  }
  const state = await getCurrentCluster();
  let version = caches.versions.get(state);
  if (!version)
    caches.versions.set(state, (version = { state, build: buildReportWithContext(state, statedReportOptions()), computedAt: new Date().toISOString() }));
  return version;
}

export async function getAnalysis(): Promise<CachedAnalysis> {
  const version = await currentVersion();
  // An uploaded audit log, else `serve --audit PATH`: its findings and activity section join the report.
  const uploaded = getUploadedAudit();
  const auditKey = uploaded ? `upload:${uploaded.seq}` : (process.env.DRA_POSTURE_AUDIT ?? '');
  let entry = caches.served.get(version);
  if (!entry || entry.auditKey !== auditKey) {
    const build = uploaded ? withActivity(version.build, uploaded.aggregate) : await reportWithAudit(version.build, process.env.DRA_POSTURE_AUDIT);
    entry = {
      ...build,
      auditKey,
      state: version.state,
      computedAt: version.computedAt,
      findingsById: new Map(build.report.findings.map((f) => [f.id, f])),
      blastRadius: new RecentValues(BLAST_RADII_KEPT),
    };
    caches.served.set(version, entry);
  }
  return entry;
}

/** The posture report of the current source: the same JSON as `dra-posture report -o json`. */
export async function getReport(): Promise<Report> {
  return (await getAnalysis()).report;
}

/** One finding with its words (the check's message and its own fix), or undefined. */
export async function findDetailedFinding(id: string): Promise<DetailedFinding | undefined> {
  const a = await getAnalysis();
  const finding = a.findingsById.get(id);
  return (
    finding &&
    detailFinding(
      finding,
      a.texts,
      a.report.issues.find((i) => i.id === finding.issueId),
    )
  );
}

export async function getFinding(id: string): Promise<DetailedFinding> {
  const finding = await findDetailedFinding(id);
  if (!finding) throw new ApiError('not_found', `no finding with id "${id}"`);
  return finding;
}

/** Findings with their words, for pages that list a few of them. */
export async function detailedFindings(findings: readonly Finding[]): Promise<DetailedFinding[]> {
  const a = await getAnalysis();
  return findings.map((f) => detailFinding(f, a.texts));
}

/** Full blast radii kept per analysis (the Nodes page keeps its own bounded summaries). */
export const BLAST_RADII_KEPT = 16;

/** What an attacker holding this node's kubelet and pod credentials could write. */
export async function getBlastRadius(node: string): Promise<BlastRadius> {
  const a = await getAnalysis();
  if (!a.report.nodes.some((n) => n.name === node)) throw new ApiError('not_found', `no node named "${node}"`);
  // The report's node writers and the context's claim-writer analysis are reused, not recomputed.
  return a.blastRadius.get(node, () => computeBlastRadius(a.context, node, a.report));
}

export async function getIdentityGraph(): Promise<GraphModel> {
  const a = await getAnalysis();
  if (!a.graph) a.graph = annotateFindings(buildIdentityGraph(a.context.engine.rbac), a.report.findings);
  return a.graph;
}
