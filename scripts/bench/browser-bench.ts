// `npm run bench:browser`: the dashboard on the large synthetic cluster in Debian's Chromium. Starts
// `next start` on the snapshot (building first when there is no build), warms the server's report
// once (timed separately), then prints medians of RUNS fresh page loads: overview first render,
// graph interactive, and the latency of focusing the graph on one identity.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/ui/chromium';
import { freePorts } from '../../e2e/kube/control-plane';
import { largeClusterFile } from './large-cluster-file';
import { median } from './stats';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUNS = 3;
const FOCUS_QUERY = 'sa-15101';
// A tenant app's service account of the bench cluster (sa-i lives in ns-i: generate-cluster.ts).
const FOCUS_MATCH = /ns-15101\/sa-15101/;

async function waitForHealth(url: string, server: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/api/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not come up');
}

/** Milliseconds from the page's navigation start to now, read in the page. */
const sinceNavigation = (page: Page) => page.evaluate(() => performance.now());

async function main() {
  const file = await largeClusterFile();
  if (!existsSync(join(root, '.next', 'BUILD_ID'))) {
    console.log('no production build: next build ...');
    const r = spawnSync(process.execPath, [join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('next build failed');
  }
  const [port] = await freePorts(1);
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(
    process.execPath,
    ['--max-old-space-size=4096', join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-H', '127.0.0.1', '-p', String(port)],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', DRA_POSTURE_SNAPSHOT: file, DRA_POSTURE_SOURCE: '' },
    },
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    await waitForHealth(url, server);
    const w0 = performance.now();
    const res = await fetch(`${url}/api/v1/report`);
    const reportBytes = (await res.arrayBuffer()).byteLength;
    const warmMs = performance.now() - w0;
    console.log(`server warm-up: first /api/v1/report ${warmMs.toFixed(0)} ms (load + analysis + ${(reportBytes / 1024 / 1024).toFixed(0)} MiB of JSON)`);

    const overview: number[] = [];
    const graph: number[] = [];
    const focus: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${url}/`, { waitUntil: 'commit' });
      await page.getByRole('heading', { level: 1, name: 'Posture overview' }).waitFor();
      await page.getByText('Critical', { exact: true }).first().waitFor();
      const o = await sinceNavigation(page);

      await page.goto(`${url}/graph`, { waitUntil: 'commit' });
      await page.locator('.react-flow__node').first().waitFor();
      const search = page.getByLabel('Focus on an identity, binding, role or resource');
      await search.waitFor();
      await page.waitForFunction(
        () => !document.querySelector('input[aria-label="Focus on an identity, binding, role or resource"]')?.hasAttribute('disabled'),
      );
      const g = await sinceNavigation(page);

      await search.fill(FOCUS_QUERY);
      const match = page.getByRole('list', { name: 'Matches' }).getByRole('button', { name: FOCUS_MATCH });
      await match.waitFor();
      const f0 = performance.now();
      await match.click();
      await page.waitForURL(/focus=/);
      await page.locator('.react-flow__node').filter({ hasText: 'sa-15101' }).first().waitFor();
      const f = performance.now() - f0;
      await context.close();
      // The first round warms Chromium's caches and the server's per-page work; it is not counted.
      if (i === 0) continue;
      overview.push(o);
      graph.push(g);
      focus.push(f);
    }
    const rows: [string, number, number][] = [
      ['overview: navigation → heading and severity counts', median(overview), 1500],
      ['graph: navigation → canvas with nodes and search ready', median(graph), 3000],
      ['graph focus: pick an identity → focused view rendered', median(focus), 200],
    ];
    console.log(`\nBrowser (Chromium, 1440×900), medians of ${RUNS} fresh contexts after one warm-up:`);
    for (const [label, ms, target] of rows)
      console.log(`${label.padEnd(58)} ${`${ms.toFixed(0)} ms`.padStart(9)}   target < ${target} ms   ${ms < target ? 'PASS' : 'FAIL'}`);
  } finally {
    await browser.close();
    server.kill('SIGTERM');
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
