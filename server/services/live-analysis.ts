import 'server-only';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { buildReportWithContext, type ReportBuild } from '@/lib/report/build-report';
import type { LiveCluster } from '@/server/sources/live-cluster';
import { statedReportOptions } from './stated-cluster-config';

/** One analysed version of a source: the state, its report build and when it was computed. */
export interface AnalysedVersion {
  state: ClusterState;
  build: ReportBuild;
  computedAt: string;
}

/** Shortest pause between two analyses: bursts of watch events are analysed together. */
export const MIN_GAP_MS = 200;

/**
 * The analysis of a live cluster, kept current in the background. A watch event marks it dirty; the
 * next analysis starts after a pause at least as long as the last one took (so analysing never
 * takes more than half of one core, however fast pods churn) and reuses what the changed objects
 * do not touch (the RBAC index after a pod event, the node graph after an RBAC one). Readers get
 * the latest complete version at once, never a half-updated one, and wait only for the first.
 */
export class LiveAnalysis {
  private latest: AnalysedVersion | undefined;
  private failure: Error | undefined;
  private waiters: { resolve: (v: AnalysedVersion) => void; reject: (e: Error) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private dirty = false;
  private lastDurationMs = 0;
  private lastEndedAt = 0;
  private readonly unsubscribe: () => void;
  /** Analyses run so far (for the benchmark and tests). */
  runs = 0;

  constructor(
    private readonly live: Pick<LiveCluster, 'getState' | 'onChange'>,
    private readonly analyse: (state: ClusterState, previous: ReportBuild | undefined) => ReportBuild = (state, previous) =>
      buildReportWithContext(state, { previous, ...statedReportOptions() }),
  ) {
    this.unsubscribe = live.onChange(() => this.schedule());
    this.schedule();
  }

  /** The latest analysed version; the first call waits for the first analysis. */
  current(): Promise<AnalysedVersion> {
    if (this.latest) return Promise.resolve(this.latest);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  stop(): void {
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(): void {
    this.dirty = true;
    if (this.running || this.timer) return;
    const wait = this.latest ? Math.max(MIN_GAP_MS, this.lastDurationMs) - (Date.now() - this.lastEndedAt) : 0;
    this.timer = setTimeout(() => this.run(), Math.max(0, wait));
    this.timer.unref?.();
  }

  private run(): void {
    this.timer = undefined;
    this.running = true;
    this.dirty = false;
    const started = Date.now();
    try {
      const state = this.live.getState();
      const build = this.analyse(state, this.latest?.build);
      this.latest = { state, build, computedAt: new Date().toISOString() };
      this.failure = undefined;
      this.runs++;
      for (const w of this.waiters.splice(0)) w.resolve(this.latest);
    } catch (e) {
      // The previous version stays served; with none yet, the waiting readers get the error.
      this.failure = e instanceof Error ? e : new Error(String(e));
      if (!this.latest) for (const w of this.waiters.splice(0)) w.reject(this.failure);
    } finally {
      this.running = false;
      this.lastEndedAt = Date.now();
      this.lastDurationMs = this.lastEndedAt - started;
      if (this.dirty) this.schedule();
    }
  }
}
