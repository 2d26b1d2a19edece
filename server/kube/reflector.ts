import 'server-only';
import type { KindDescriptor } from '@/lib/k8s/kinds';
import { normalizeObject } from '@/lib/k8s/normalize-object';
import type { KubeObject } from '@/lib/k8s/types';
import { backoffMs, type KubeHttp } from './kube-http';
import { KubeError } from './kube-errors';
import { collectionPath, listKind } from './list-kind';

export interface ReflectorStatus {
  kind: string;
  synced: boolean;
  /** Connected and watching (false while backing off or relisting). */
  healthy: boolean;
  lastSyncAt?: number;
  relists: number;
  lastError?: string;
  /** The API server rejected the credentials (401): the reflector stopped, since asking again is refused again. */
  credentialsRejected?: boolean;
}

/**
 * Keeps one kind in memory: list (paginated), then watch with bookmarks from the list's
 * resourceVersion; relist exactly once per 410 (retried with backoff if that relist fails);
 * reconnect with backoff (1 s doubling to 8 s, with jitter) on network errors, honouring
 * Retry-After on 429. Objects are normalised on arrival, so
 * env values, managedFields and last-applied annotations are never kept.
 */
export class Reflector {
  private readonly store = new Map<string, KubeObject>();
  private resourceVersion: string | undefined;
  private abort = new AbortController();
  private running = false;
  private failures = 0;
  private needsRelist = false;
  readonly status: ReflectorStatus;
  /** Bumped on every change of the store, so readers know when to rebuild. */
  generation = 0;

  constructor(
    private readonly http: KubeHttp,
    readonly kind: KindDescriptor,
    private readonly version: string,
    private readonly namespace: string | undefined,
    private readonly onChange: () => void,
    private readonly log: (message: string) => void = () => {},
  ) {
    this.status = { kind: kind.kind, synced: false, healthy: false, relists: 0 };
  }

  objects(): KubeObject[] {
    return [...this.store.values()];
  }

  /** Lists once (throws on failure, e.g. 403) and keeps watching in the background. */
  async start(): Promise<void> {
    this.running = true;
    await this.relist();
    void this.loop();
  }

  stop(): void {
    this.running = false;
    this.abort.abort();
  }

  private apiVersion(): string {
    return this.kind.group ? `${this.kind.group}/${this.version}` : this.version;
  }

  private key(o: KubeObject): string {
    return o.metadata.uid ?? `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
  }

  private async relist(): Promise<void> {
    const r = await listKind(this.http, this.kind, this.version, this.namespace);
    this.store.clear();
    for (const page of r.pages) for (const raw of page.items ?? []) this.put(raw);
    this.resourceVersion = r.resourceVersion;
    this.status.synced = true;
    this.status.healthy = true;
    this.status.lastSyncAt = Date.now();
    this.generation++;
    this.onChange();
  }

  private put(raw: unknown): void {
    try {
      const o = normalizeObject(raw, this.kind.kind, this.apiVersion());
      this.store.set(this.key(o), o);
    } catch (e) {
      this.log(`ignored an unreadable ${this.kind.kind}: ${(e as Error).message}`);
    }
  }

  private remove(raw: unknown): void {
    const meta = (raw as { metadata?: { uid?: string; namespace?: string; name?: string } })?.metadata;
    if (!meta) return;
    this.store.delete(meta.uid ?? `${meta.namespace ?? ''}/${meta.name}`);
  }

  private async loop(): Promise<void> {
    while (this.running) {
      try {
        // After a 410 whose relist failed there is no resourceVersion to resume from: a watch without
        // one would replay "ADDED" for what exists but never remove what was deleted meanwhile.
        if (this.needsRelist) {
          this.status.relists++;
          await this.relist();
          this.needsRelist = false;
        }
        const query = new URLSearchParams({ watch: '1', allowWatchBookmarks: 'true', timeoutSeconds: '240' });
        if (this.resourceVersion) query.set('resourceVersion', this.resourceVersion);
        this.abort = new AbortController();
        await this.http.watch(
          `${collectionPath(this.kind, this.version, this.namespace)}?${query}`,
          (event) => {
            const obj = event.object as { metadata?: { resourceVersion?: string }; code?: number };
            if (event.type === 'ERROR') {
              throw new KubeError(obj?.code === 410 ? 'gone' : 'server_error', `watch ${this.kind.resource}: ERROR event ${obj?.code ?? ''}`, obj?.code);
            }
            this.status.healthy = true;
            this.status.lastSyncAt = Date.now();
            this.failures = 0;
            if (obj?.metadata?.resourceVersion) this.resourceVersion = obj.metadata.resourceVersion;
            if (event.type === 'BOOKMARK') return;
            if (event.type === 'DELETED') this.remove(event.object);
            else this.put(event.object);
            this.generation++;
            this.onChange();
          },
          this.abort.signal,
          () => {
            // Healthy only once the server has accepted the watch, not when we merely tried.
            this.status.healthy = true;
            this.status.lastSyncAt = Date.now();
          },
        );
      } catch (e) {
        if (!this.running) return;
        const err = e as KubeError;
        this.status.lastError = err.message;
        // A 410 (at watch start or as an in-stream ERROR event) means exactly one relist, at once.
        // If that relist fails, back off like any other failure and retry it on the next turn.
        if (!this.needsRelist && (err.code === 'gone' || err.status === 410)) {
          this.log(`${this.kind.resource}: resourceVersion expired, relisting`);
          this.resourceVersion = undefined;
          this.needsRelist = true;
          continue;
        }
        this.status.healthy = false;
        // A 401 is not retried (Headlamp and the Dashboard do the same): the data stays, labelled stale,
        // and the live source is started again with new credentials (current-cluster.ts).
        if (err.code === 'unauthorized') {
          this.status.credentialsRejected = true;
          this.log(`${this.kind.resource}: credentials rejected (401); not retrying`);
          this.running = false;
          return;
        }
        this.failures++;
        const wait = err.code === 'throttled' && err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : Math.min(8000, backoffMs(this.failures));
        await new Promise((r) => setTimeout(r, wait));
        if (!this.running) return;
      }
    }
  }
}
