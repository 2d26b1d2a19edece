import { readFileSync } from 'node:fs';
import { buildClusterState } from '@/lib/k8s/build-cluster-state';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { DEFAULT_SETTINGS } from '@/lib/analysis/settings';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { listNodeStatusWriters } from '@/lib/analysis/node-writers/node-status-writers';
import { listClaimStatusWriters, ClaimWriterAnalysis } from '@/lib/analysis/node-writers/claim-status-writers';
import { computeBlastRadius } from '@/lib/analysis/node-writers/blast-radius';
import { analyseQuotas } from '@/lib/analysis/quota/quota-usage';
import { analyseDeviceClasses } from '@/lib/analysis/zeroing/device-classes';
const items = JSON.parse(readFileSync(process.argv[2], 'utf8')).items;
let t = performance.now();
const lap = (l: string) => { const n = performance.now(); console.log(l, (n - t).toFixed(0), 'ms'); t = n; };
const state = buildClusterState([{ value: { kind: 'List', apiVersion: 'v1', items }, origin: {} }], { kind: 'snapshot', name: 'large' });
lap('state');
const engine = createAuthzEngine(state); lap('engine');
const saNodes = new Map<string, Set<string>>();
for (const p of state.pods) { if (!p.spec?.nodeName) continue; const k = `${p.metadata.namespace}/${p.spec.serviceAccountName || 'default'}`; let s = saNodes.get(k); if (!s) saNodes.set(k, (s = new Set())); s.add(p.spec.nodeName); }
const ctx = { state, engine, settings: DEFAULT_SETTINGS, namespaces: [], isTenantNamespace: () => true, isPlatformNamespace: () => false, isAdminEquivalent: () => false,
  nodesOfServiceAccount: (ns: string, n: string) => [...(saNodes.get(`${ns}/${n}`) ?? [])].sort() } as unknown as AnalysisContext;
const sw = listNodeStatusWriters(ctx); lap(`statusWriters ${sw.size} ${[...sw.values()].reduce((a, b) => a + b.length, 0)}`);
const cw = listClaimStatusWriters(ctx); lap(`claimWriters ${cw.size} ${[...cw.values()].reduce((a, b) => a + b.length, 0)}`);
const q = analyseQuotas(state); lap(`quotas ${q.quotas.length}`);
analyseDeviceClasses(ctx); lap('classes');
const ca = new ClaimWriterAnalysis(ctx); lap('analysis');
const br = computeBlastRadius(ctx, 'node-1', { statusWriters: sw, claimAnalysis: ca }); lap(`blast ${br.identities.length} ${br.claims.length} ${br.otherNodes.length}`);
const br2 = computeBlastRadius(ctx, 'node-2', { statusWriters: sw, claimAnalysis: ca }); lap(`blast2 ${br2.identities.length} ${br2.claims.length}`);
console.log(process.memoryUsage().rss / 1e6 | 0, 'MB');
