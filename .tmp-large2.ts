import { performance } from 'node:perf_hooks';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { whoCanAnywhere, roleBindingNamespaces } from '@/lib/analysis/context/access';
import { Q } from '@/lib/analysis/context/questions';
import { templatePods, mountsPluginDir } from '@/lib/analysis/context/pod-facts';

const st: any = await loadSnapshot(process.argv[2]);
let t = performance.now();
const lap = (l: string) => { console.log(l, (performance.now() - t).toFixed(0)); t = performance.now(); };
const engine = createAuthzEngine(st);
lap('engine');
const tp = templatePods(st); lap('templatePods ' + tp.length);
const pd = st.pods.filter(mountsPluginDir); lap('pluginDir ' + pd.length);
for (const [k, q] of Object.entries(Q)) {
  if (q.scope === 'namespaced') { console.log(k, 'rbns', roleBindingNamespaces(engine, q as any).length); lap('  rbns'); }
  const r = whoCanAnywhere(engine, [], q as any); lap(k + ' ' + r.length);
}
