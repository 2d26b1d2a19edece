import 'server-only';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { hasDefaultKubeconfig } from '@/server/kube/kubeconfig';
import { loadDemo } from '@/server/sources/demo-source';
import { LiveCluster, type LiveStatus } from '@/server/sources/live-cluster';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { getSourceSelection, type SourceSelection } from './source-selection';
import { getUploadedSnapshot } from './uploaded-source';

// One loaded source per choice, kept for the process (a switch back finds it ready). On globalThis:
// Next bundles route handlers and pages separately, and both must see the same live watches.
const KEY = Symbol.for('dra-posture.sources');
interface Loaded {
  states: Map<string, Promise<ClusterState>>;
  lives: Map<string, Promise<LiveCluster>>;
}
const loaded = ((globalThis as unknown as Record<symbol, Loaded | undefined>)[KEY] ??= { states: new Map(), lives: new Map() });

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
  if (!live) {
    live = (async () => {
      const cluster = new LiveCluster({ kubeconfig: choice.kubeconfig, context: choice.context });
      await cluster.start();
      return cluster;
    })();
    loaded.lives.set(key, live);
    live.catch(() => loaded.lives.delete(key));
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
  const key = choice.kind === 'snapshot' ? `snapshot:${choice.path}` : 'demo';
  let state = loaded.states.get(key);
  if (!state) {
    state = choice.kind === 'snapshot' ? loadSnapshot(choice.path) : loadDemo();
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
