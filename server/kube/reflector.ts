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
}

/**
 * Keeps one kind in memory: list (paginated), then watch with bookmarks from the list's
 * resourceVersion; relist exactly once per 410; reconnect with backoff (1 s doubling to 8 s, with
 * jitter) on network errors, honouring Retry-After on 429. Objects are normalised on arrival, so
 * env values, managedFields and last-applied annotations are never kept.
 */
export class Reflector {
  private readonly store = new Map<string, KubeObject>();
  private resourceVersion: string | undefined;
  private abort = new AbortController();
  private running = false;
  private failures = 0;
  readonly status: ReflectorStatus;
  /** Bumped on every change of the store, so readers know when to rebuild. */
  generation = 0;

  constructor(
    private readonly http: KubeHttp,
    private readonly kind: KindDescriptor,
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
        const query = new URLSearchParams({ watch: '1', allowWatchBookmarks: 'true', timeoutSeconds: '240' });
        if (this.resourceVersion) query.set('resourceVersion', this.resourceVersion);
        this.abort = new AbortController();
        let gone = false;
        const connected = this.http.watch(`${collectionPath(this.kind, this.version, this.namespace)}?${query}`, (event) => {
          this.status.healthy = true;
          this.status.lastSyncAt = Date.now();
          this.failures = 0;
          const obj = event.object as { metadata?: { resourceVersion?: string }; code?: number };
          if (event.type === 'ERROR') {
            if (obj?.code === 410) gone = true;
            throw new KubeError(obj?.code === 410 ? 'gone' : 'server_error', `watch ${this.kind.resource}: ERROR event ${obj?.code ?? ''}`, obj?.code);
          }
          if (obj?.metadata?.resourceVersion) this.resourceVersion = obj.metadata.resourceVersion;
          if (event.type === 'BOOKMARK') return;
          if (event.type === 'DELETED') this.remove(event.object);
          else this.put(event.object);
          this.generation++;
          this.onChange();
        }, this.abort.signal);
        this.status.healthy = true;
        await connected;
        if (gone) throw new KubeError('gone', 'watch expired');
      } catch (e) {
        if (!this.running) return;
        const err = e as KubeError;
        this.status.lastError = err.message;
        if (err.code === 'gone' || err.status === 410) {
          this.log(`${this.kind.resource}: resourceVersion expired, relisting`);
          this.status.relists++;
          this.resourceVersion = undefined;
          try {
            await this.relist();
            continue;
          } catch (relistError) {
            this.status.lastError = (relistError as Error).message;
          }
        }
        this.status.healthy = false;
        this.failures++;
        const wait = err.code === 'throttled' && err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : Math.min(8000, backoffMs(this.failures));
        await new Promise((r) => setTimeout(r, wait));
        // After an outage the watch may be too old: a relist keeps the store equal to the server.
        if (!this.running) return;
      }
    }
  }
}
