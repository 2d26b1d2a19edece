// Where the report's analysis spends its time on a large bench cluster: one line per stage
// (analysis-stages.ts). `profile-report.ts [FILE | --diverse]`; with `node --expose-gc` each line
// also shows the heap the stage leaves kept.
import { performance } from 'node:perf_hooks';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { analysisStages } from './analysis-stages';
import { largeClusterFile } from './large-cluster-file';

async function main() {
  const arg = process.argv[2];
  const file = arg && arg !== '--diverse' ? arg : await largeClusterFile(arg === '--diverse' ? 'diverse' : 'stamped');
  const t = performance.now();
  const state = await loadSnapshot(file, { maxBytes: 4 * 1024 ** 3 });
  console.log(`${'load'.padEnd(40)} ${(performance.now() - t).toFixed(0).padStart(7)} ms`);
  for (const s of analysisStages(state)) {
    const name = s.findings === undefined ? s.name : `${s.name} (${s.findings})`;
    console.log(`${name.padEnd(40)} ${s.ms.toFixed(0).padStart(7)} ms${s.heapMiB === undefined ? '' : ` ${s.heapMiB.toFixed(0).padStart(6)} MiB heap`}`);
  }
}
void main();
