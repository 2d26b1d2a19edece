import 'server-only';
import { compareStrings } from '@/lib/k8s/refs';
import type { ClusterState, UnreadKind } from '@/lib/k8s/cluster-state';
import { StateAssembler } from '@/lib/k8s/state-assembler';
import { forbiddenWarning, readableKinds } from '@/server/kube/collect-cluster';
import { discoverApi, type ApiDiscovery } from '@/server/kube/discover-api';
import { KubeHttp, type KubeHttpOptions } from '@/server/kube/kube-http';
import { KubeError } from '@/server/kube/kube-errors';
import { loadKubeconfig, type KubeconfigOptions } from '@/server/kube/kubeconfig';
import { Reflector, type ReflectorStatus } from '@/server/kube/reflector';

/** A probe that takes longer than this counts as a failure (the stale badge must show within seconds). */
const PROBE_TIMEOUT_MS = 5000;

export interface LiveStatus {
  context: string;
  /** Time of the last successful list or watch event of every kind (the oldest of them). */
  lastSyncAt?: string;
  stale: boolean;
  staleReason?: string;
  /** The API server rejected the credentials (401); nothing is asked again until they change. */
  credentialsRejected?: boolean;
  kinds: ReflectorStatus[];
}

export interface LiveClusterOptions extends KubeconfigOptions {
  http?: KubeHttpOptions;
  /** How often the server's health is probed; a failed probe marks the data stale. */
  probeIntervalMs?: number;
  log?: (message: string) => void;
}

/**
 * A live cluster kept current by one reflector per kind, for the dashboard. Data stays available
 * while the API server is unreachable, labelled stale with the time of the last sync.
 */
export class LiveCluster {
  private readonly reflectors: Reflector[] = [];
  private readonly warnings: string[] = [];
  /** Kinds RBAC forbids listing: the report is partial and the checks that need them unknown. */
  private readonly unreadKinds: UnreadKind[] = [];
  private discovery: ApiDiscovery | undefined;
  private cache: { generation: number; state: ClusterState } | undefined;
  private readonly assembler = new StateAssembler();
  private readonly listeners = new Set<() => void>();
  private probeTimer: NodeJS.Timeout | undefined;
  private probeFailure: string | undefined;
  /** Set on the first 401 (probe or watch): no more requests with these credentials. */
  private credentialsRejected = false;
  private probing = false;
  // Set by start(), which reads the kubeconfig.
  private http!: KubeHttp;
  /** The health probe has its own client: no retries, a short timeout, and no queueing behind stuck lists. */
  private probeHttp!: KubeHttp;
  context = '';

  constructor(private readonly options: LiveClusterOptions = {}) {}

  async start(): Promise<void> {
    const access = await loadKubeconfig(this.options);
    this.context = access.contextName;
    this.http = new KubeHttp(access, { maxRetries: 2, ...this.options.http });
    this.probeHttp = new KubeHttp(access, { maxInFlight: 1, maxRetries: 0, timeoutMs: PROBE_TIMEOUT_MS });
    this.discovery = await discoverApi(this.http);
    this.warnings.push(...this.discovery.warnings);
    const kinds = readableKinds(this.discovery);
    const started: Reflector[] = [];
    try {
      await Promise.all(
        kinds.map(async ({ kind, version }) => {
          const reflector = new Reflector(this.http, kind, version, undefined, () => this.changed(), this.options.log);
          started.push(reflector);
          try {
            await reflector.start();
            this.reflectors.push(reflector);
          } catch (e) {
            reflector.stop();
            if ((e as KubeError).code !== 'forbidden') throw e;
            this.warnings.push(forbiddenWarning(kind));
            this.unreadKinds.push({ kind: kind.kind, reason: forbiddenWarning(kind) });
          }
        }),
      );
    } catch (e) {
      // Nothing may keep watching after a failed start.
      for (const r of started) r.stop();
      this.reflectors.length = 0;
      throw e;
    }
    this.warnings.sort();
    this.unreadKinds.sort((a, b) => compareStrings(a.kind, b.kind));
    const every = this.options.probeIntervalMs ?? 3000;
    this.probeTimer = setInterval(() => void this.probe(), every);
    this.probeTimer.unref();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  stop(): void {
    if (this.probeTimer) clearInterval(this.probeTimer);
    for (const r of this.reflectors) r.stop();
  }

  /** Whether the probe or any watch met a 401. */
  private rejected(): boolean {
    return this.credentialsRejected || this.reflectors.some((r) => r.status.credentialsRejected);
  }

  private async probe(): Promise<void> {
    if (this.probing) return;
    if (this.rejected()) {
      // The same token is refused again: stop probing (and asking) until the credentials change.
      if (this.probeTimer) clearInterval(this.probeTimer);
      return;
    }
    this.probing = true;
    try {
      await this.probeHttp.get('/version');
      this.probeFailure = undefined;
    } catch (e) {
      this.probeFailure = (e as Error).message;
      if ((e as KubeError).code === 'unauthorized') {
        this.credentialsRejected = true;
        if (this.probeTimer) clearInterval(this.probeTimer);
      }
    } finally {
      this.probing = false;
    }
  }

  status(): LiveStatus {
    const kinds = this.reflectors.map((r) => ({ ...r.status })).sort((a, b) => compareStrings(a.kind, b.kind));
    const unhealthy = kinds.filter((k) => !k.healthy);
    const syncTimes = kinds.map((k) => k.lastSyncAt ?? 0);
    const oldest = syncTimes.length ? Math.min(...syncTimes) : undefined;
    const rejected = this.rejected();
    const stale = rejected || !!this.probeFailure || unhealthy.length > 0;
    return {
      context: this.context,
      lastSyncAt: oldest ? new Date(oldest).toISOString() : undefined,
      stale,
      credentialsRejected: rejected || undefined,
      staleReason: rejected
        ? 'credentials rejected (401): the data shown is from before; not retried until the credentials change'
        : this.probeFailure
          ? `API server unreachable: ${this.probeFailure}`
          : unhealthy.length
            ? `watches down for ${unhealthy.map((k) => k.kind).join(', ')}`
            : undefined,
      kinds,
    };
  }

  /**
   * The current objects as a ClusterState, rebuilt only when something changed; the list of a kind
   * that did not change is the previous version's array (StateAssembler).
   */
  getState(): ClusterState {
    const generation = this.generation();
    if (this.cache && this.cache.generation === generation) return this.cache.state;
    const state = this.assembler.assemble(
      {
        kind: 'live',
        name: this.context,
        collectedAt: this.status().lastSyncAt,
        kubernetesVersion: this.discovery?.kubernetesVersion,
        ...(this.unreadKinds.length > 0 ? { unreadKinds: this.unreadKinds } : {}),
      },
      this.reflectors,
      this.warnings,
    );
    this.cache = { generation, state };
    return state;
  }

  /** Changes whenever any watched object does. */
  generation(): number {
    return this.reflectors.reduce((sum, r) => sum + r.generation, 0);
  }

  /** Calls `listener` after each change of the objects (watch events, relists); returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
