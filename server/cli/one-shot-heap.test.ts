import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The flag's effect, in a fresh process (it is process-wide): one allocation site first makes
// objects that survive, which gets it pretenured, then ten times as many that die at once. With
// pretenuring those go straight to the old generation; after tuneHeapForOneShotAnalysis they do not.
const PROBE = `
import v8 from 'node:v8';
if (process.argv[1] === 'tuned') (await import(${JSON.stringify(fileURLToPath(new URL('./one-shot-heap.ts', import.meta.url)))})).tuneHeapForOneShotAnalysis();
const old = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size;
function make(i) { return { a: i, b: i + 1, c: null }; }
const keep = [];
for (let i = 0; i < 2e6; i++) keep.push(make(i));
const before = old();
let sink;
for (let i = 0; i < 2e7; i++) sink = make(i);
console.log(JSON.stringify({ grownMiB: (old() - before) / 2 ** 20, kept: keep.length, last: sink.a }));
`;

function oldGenerationGrowth(mode: 'tuned' | 'default'): number {
  const out = execFileSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', '--input-type=module', '-e', PROBE, mode], {
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()!).grownMiB;
}

describe('tuneHeapForOneShotAnalysis', () => {
  it('keeps short-lived objects of a pretenured allocation site out of the old generation', () => {
    // The control: without the flag this V8 does pretenure the site (else the test shows nothing).
    // Whether it decides before the second loop runs optimized depends on timing: on a busy machine
    // about one run in six grew ~15 MiB instead of ~230 (a CI run failed on it), so up to three tries.
    let untuned = 0;
    for (let attempt = 0; attempt < 3 && untuned <= 60; attempt++) untuned = Math.max(untuned, oldGenerationGrowth('default'));
    const tuned = oldGenerationGrowth('tuned');
    expect(untuned).toBeGreaterThan(60);
    expect(tuned).toBeLessThan(40);
  }, 60_000);
});
