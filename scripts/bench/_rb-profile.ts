import { performance } from 'node:perf_hooks';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { buildReportWithContext } from '@/lib/report/build-report';
import { reviewRole } from '@/lib/role-builder/review-role';
import { buildBundle } from '@/lib/role-builder/build-bundle';
import { validateBundleWithPath } from '@/lib/role-builder/validate-bundle';
import { GOLDEN_INPUTS } from '@/lib/role-builder/golden-inputs';
import { largeClusterFile } from './large-cluster-file';

const t = async <T>(label: string, f: () => T | Promise<T>): Promise<T> => { const t0 = performance.now(); const r = await f(); console.log(label, (performance.now() - t0).toFixed(0), 'ms'); return r; };
const shape = (process.argv[2] ?? 'stamped') as 'stamped' | 'diverse';
const state = await t('load', async () => loadSnapshot(await largeClusterFile(shape)));
const base = await t('report', () => buildReportWithContext(state));
for (const [persona, g] of Object.entries(GOLDEN_INPUTS)) {
  const input = { ...g, identity: g.identity.kind === 'ServiceAccount' ? { ...g.identity, namespace: 'ns-1', name: `new-${persona}` } : g.identity, ...(g.namespace ? { namespace: 'ns-1' } : {}) };
  const bundle = buildBundle(input);
  const r = await t(`validate ${persona}`, () => validateBundleWithPath(state, bundle, { analysis: base }));
  console.log('  ', JSON.stringify(r.path), r.validation.findings.map((f) => f.check).join(','), r.validation.ok);
  await t(`review ${persona}`, () => reviewRole(state, input, { analysis: base }));
}
