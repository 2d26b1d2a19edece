import { describe, expect, it } from 'vitest';
import { emptyClusterState, type ClusterState } from '@/lib/k8s/cluster-state';
import type { ReportBuild } from '@/lib/report/build-report';
import { LiveAnalysis, MIN_GAP_MS } from './live-analysis';

// The scheduling of LiveAnalysis: bursts analysed together, a pause as long as the last analysis,
// readers served the latest complete version, a failure leaving the previous one served.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A source whose version is a counter; each change makes a new state object. */
function source() {
  const listeners = new Set<() => void>();
  let version = 0;
  let state = emptyClusterState({ kind: 'live', name: 'v0' });
  return {
    getState: () => state,
    onChange(l: () => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    change() {
      version++;
      state = emptyClusterState({ kind: 'live', name: `v${version}` });
      for (const l of listeners) l();
    },
  };
}

/** An analysis that takes `ms` of busy time and records the version it saw. */
function analyser(ms: number, seen: string[], fail?: (name: string) => boolean) {
  return (state: ClusterState): ReportBuild => {
    const end = Date.now() + ms;
    while (Date.now() < end);
    if (fail?.(state.source.name)) throw new Error(`cannot analyse ${state.source.name}`);
    seen.push(state.source.name);
    return { report: { source: { name: state.source.name } } } as unknown as ReportBuild;
  };
}

describe('LiveAnalysis', () => {
  it('the first reader waits for the first analysis; a burst of 100 changes is analysed once, after a pause', async () => {
    const src = source();
    const seen: string[] = [];
    const analysis = new LiveAnalysis(src, analyser(5, seen));
    expect((await analysis.current()).state.source.name).toBe('v0');
    for (let i = 0; i < 100; i++) src.change();
    // Until the pause has passed, readers get the complete previous version.
    expect((await analysis.current()).state.source.name).toBe('v0');
    await sleep(MIN_GAP_MS + 100);
    expect((await analysis.current()).state.source.name).toBe('v100');
    expect(seen).toEqual(['v0', 'v100']);
    analysis.stop();
  });

  it('never analyses more than half the time under constant change (the pause is as long as the last analysis)', async () => {
    const src = source();
    const seen: string[] = [];
    const analysis = new LiveAnalysis(src, analyser(300, seen));
    await analysis.current();
    const started = Date.now();
    const timer = setInterval(() => src.change(), 10);
    await sleep(2000);
    clearInterval(timer);
    const elapsed = Date.now() - started;
    // Each 300 ms analysis is followed by at least 300 ms of rest: at most ~elapsed / 600 more runs.
    expect(analysis.runs - 1).toBeLessThanOrEqual(Math.ceil(elapsed / 600) + 1);
    expect(analysis.runs - 1).toBeGreaterThanOrEqual(2);
    analysis.stop();
  });

  it('a failed analysis leaves the previous version served; the next change is analysed again', async () => {
    const src = source();
    const seen: string[] = [];
    const analysis = new LiveAnalysis(
      src,
      analyser(1, seen, (name) => name === 'v1'),
    );
    await analysis.current();
    src.change();
    await sleep(MIN_GAP_MS + 100);
    expect((await analysis.current()).state.source.name).toBe('v0');
    src.change();
    await sleep(MIN_GAP_MS + 100);
    expect((await analysis.current()).state.source.name).toBe('v2');
    analysis.stop();
  });

  it('with no version yet, a failure reaches the waiting reader', async () => {
    const src = source();
    const analysis = new LiveAnalysis(
      src,
      analyser(1, [], () => true),
    );
    await expect(analysis.current()).rejects.toThrow('cannot analyse v0');
    analysis.stop();
  });
});
