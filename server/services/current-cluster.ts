import 'server-only';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { credentialsStamp } from '@/server/kube/credentials-stamp';
import { hasDefaultKubeconfig } from '@/server/kube/kubeconfig';
import type { KubeError } from '@/server/kube/kube-errors';
import { loadDemo } from '@/server/sources/demo-source';
import { LiveCluster, type LiveStatus } from '@/server/sources/live-cluster';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { snapshotStamp } from '@/server/sources/snapshot-stamp';
import { basename } from 'node:path';
import { getSourceSelection, type SourceSelection } from './source-selection';
import { getUploadedSnapshot } from './uploaded-source';

// One loaded source per choice, kept for the process (a switch back finds it ready). On globalThis:
// Next bundles route handlers and pages separately, and both must see the same live watches.
const KEY = Symbol.for('dra-posture.sources');
interface Loaded {
  states: Map<string, Promise<ClusterState>>;
  lives: Map<string, Promise<LiveCluster>>;
  /** The last failed start of each live source, answered again instead of dialling on every request. */
  liveFailures?: Map<string, LiveFailure>;
  /** The `--snapshot` path's state, with what the path held when it was read. */
  snapshots?: Map<string, LoadedSnapshot>;
  /** The credentials each running live source started with, to restart it when they change after a 401. */
  liveCredentials?: Map<string, { stamp: string; cluster: LiveCluster }>;
}
const loaded: Loaded = ((globalThis as unknown as Record<symbol, Loaded | undefined>)[KEY] ??= { states: new Map(), lives: new Map() });
const liveFailures = (loaded.liveFailures ??= new Map<string, LiveFailure>());
const liveCredentials = (loaded.liveCredentials ??= new Map());
const snapshots = (loaded.snapshots ??= new Map<string, LoadedSnapshot>());

interface LoadedSnapshot {
  /** snapshotStamp() when it was read (undefined: the path was missing). */
  stamp: string | undefined;
  checkedAt: number;
  state: Promise<ClusterState>;
  /** The last state read successfully, served (with a warning) when the path later breaks or goes. */
  good?: { state: ClusterState; readAt: string };
}

/** How often the `--snapshot` path is looked at for changes (a stat per file, not a read). */
export const SNAPSHOT_RECHECK_MS = 1000;

/**
 * The `--snapshot` state, read again when the file or folder changes. When it changes into something
 * unreadable, or disappears, the last good copy stays on show with a warning saying so; a path that
 * never read is answered with its error (503) until it changes, without reading it on every request.
 */
function getSnapshot(path: string): Promise<ClusterState> {
  const now = Date.now();
  const entry = snapshots.get(path);
  if (entry && now - entry.checkedAt < SNAPSHOT_RECHECK_MS) return entry.state;
  const stamp = snapshotStamp(path);
  if (entry) {
    entry.checkedAt = now;
    if (entry.stamp === stamp) return entry.state;
  }
  const name = basename(path);
  const previous = entry?.good;
  const next = { stamp, checkedAt: now, good: previous } as LoadedSnapshot;
  next.state = (async () => {
    try {
      const state = await loadSnapshot(path);
      next.good = { state, readAt: new Date().toISOString() };
      return state;
    } catch (error) {
      if (!previous) throw error;
      const why = stamp === undefined ? 'was deleted' : `changed and could not be read again (${(error as Error).message})`;
      const warning = `snapshot ${name} ${why}: showing the copy read at ${previous.readAt}`;
      return { ...previous.state, warnings: [...previous.state.warnings, warning] };
    }
  })();
  // Settled either way: a rejection is answered from here until the path changes.
  next.state.catch(() => {});
  snapshots.set(path, next);
  return next.state;
}

interface LiveFailure {
  error: unknown;
  at: number;
  credentials: string;
}

/** How long a failed start (unreachable, server error) is answered from memory before the server is dialled again. */
export const LIVE_RETRY_AFTER_MS = 10_000;

/**
 * Whether a failed start may be tried again: always once the credentials change; never before that
 * after a 401 (the same credentials are rejected again, and retrying hammers the server); otherwise
 * after LIVE_RETRY_AFTER_MS.
 */
function mayRetry(failure: LiveFailure, kubeconfig: string | undefined): boolean {
  if (credentialsStamp(kubeconfig) !== failure.credentials) return true;
  if ((failure.error as KubeError | undefined)?.code === 'unauthorized') return false;
  return Date.now() - failure.at >= LIVE_RETRY_AFTER_MS;
}

type Choice = { kind: 'snapshot'; path: string } | { kind: 'live'; kubeconfig?: string; context?: string } | { kind: 'demo' };

/**
 * Which source the dashboard shows, from the server's own configuration only (never the browser):
 * DRA_POSTURE_SNAPSHOT=PATH; DRA_POSTURE_SOURCE=demo; DRA_POSTURE_KUBECONFIG / DRA_POSTURE_CONTEXT;
 * otherwise the current kubeconfig when one is configured, else the bundled demo.
 */
export function chooseSource(env: Record<string, string | undefined> = process.env, selection: SourceSelection | undefined = getSourceSelection()): Choice {
  if (selection?.kind === 'demo') return { kind: 'demo' };
  if (selection?.kind === 'context') return { kind: 'live', kubeconfig: env.DRA_POSTURE_KUBECONFIG || undefined, context: selection.name };
  if (env.DRA_POSTURE_SNAPSHOT) return { kind: 'snapshot', path: env.DRA_POSTURE_SNAPSHOT };
  if (env.DRA_POSTURE_SOURCE === 'demo') return { kind: 'demo' };
  if (env.DRA_POSTURE_KUBECONFIG || env.DRA_POSTURE_CONTEXT || (env.DRA_POSTURE_SOURCE !== 'no-live' && hasDefaultKubeconfig())) {
    return { kind: 'live', kubeconfig: env.DRA_POSTURE_KUBECONFIG || undefined, context: env.DRA_POSTURE_CONTEXT || undefined };
  }
  return { kind: 'demo' };
}

function getLive(choice: Extract<Choice, { kind: 'live' }>): Promise<LiveCluster> {
  const key = `${choice.kubeconfig ?? ''}\u0000${choice.context ?? ''}`;
  let live = loaded.lives.get(key);
  // Credentials rejected after the start (revoked token): a new start once they change.
  const started = liveCredentials.get(key);
  if (live && started && started.cluster.status().credentialsRejected && credentialsStamp(choice.kubeconfig) !== started.stamp) {
    started.cluster.stop();
    loaded.lives.delete(key);
    live = undefined;
  }
  if (!live) {
    const failure = liveFailures.get(key);
    if (failure && !mayRetry(failure, choice.kubeconfig)) return Promise.reject(failure.error);
    const credentials = credentialsStamp(choice.kubeconfig);
    live = (async () => {
      const cluster = new LiveCluster({ kubeconfig: choice.kubeconfig, context: choice.context });
      await cluster.start();
      liveCredentials.set(key, { stamp: credentials, cluster });
      return cluster;
    })();
    loaded.lives.set(key, live);
    live.then(
      () => liveFailures.delete(key),
      (error: unknown) => {
        loaded.lives.delete(key);
        liveFailures.set(key, { error, at: Date.now(), credentials });
      },
    );
  }
  return live;
}

/** Starts (or finds) the live source of a context; rejects when it cannot be read. */
export function connectContext(kubeconfig: string | undefined, context: string): Promise<LiveCluster> {
  return getLive({ kind: 'live', kubeconfig, context });
}

/** The cluster the dashboard shows; for a live source, the current state of its watches. */
export async function getCurrentCluster(): Promise<ClusterState> {
  const uploaded = getUploadedSnapshot();
  if (uploaded) return uploaded;
  const choice = chooseSource();
  if (choice.kind === 'live') return (await getLive(choice)).getState();
  if (choice.kind === 'snapshot') return getSnapshot(choice.path);
  const key = 'demo';
  let state = loaded.states.get(key);
  if (!state) {
    state = loadDemo();
    loaded.states.set(key, state);
    state.catch(() => loaded.states.delete(key));
  }
  return state;
}

/** The live cluster the dashboard shows, or undefined when it shows the demo, a snapshot or an upload. */
export async function getCurrentLiveCluster(): Promise<LiveCluster | undefined> {
  if (getUploadedSnapshot()) return undefined;
  const choice = chooseSource();
  return choice.kind === 'live' ? getLive(choice) : undefined;
}

/** Freshness of a live source (undefined for demo and snapshots). */
export async function getLiveStatus(): Promise<LiveStatus | undefined> {
  if (getUploadedSnapshot()) return undefined;
  const choice = chooseSource();
  if (choice.kind !== 'live') return undefined;
  return (await getLive(choice)).status();
}
