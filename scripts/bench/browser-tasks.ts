// The tasks the browser bench times (issue #26): what a reader does on a page once it is loaded. Each
// step is timed from the user's action (a click, or typing a name) to the answer being visible; typing
// into a form before an action is not timed. Selectors are roles, labels and test ids, as in
// e2e/ui/*.spec.ts. A task whose feature the pages do not have throws NotMeasured with the reason.
import { performance } from 'node:perf_hooks';
import type { Locator, Page } from '@playwright/test';
import type { BenchTargets } from './browser-pages';

export interface TaskStep {
  label: string;
  ms: number;
}

export interface TaskContext {
  targets: BenchTargets;
  /** 0 for the warm-up round; names made by a task (service accounts) differ per round. */
  round: number;
  /** Milliseconds any one wait may take before the run counts as failed. */
  timeout: number;
  /** Resolves once the page has had no request in flight for a moment (not timed). */
  settle(): Promise<void>;
}

export interface BenchTask {
  name: string;
  /** The page (of BENCH_PAGES) the task starts on, loaded before the first step. */
  startsOn: string;
  run(page: Page, ctx: TaskContext): Promise<TaskStep[]>;
}

/** A task the pages in the working tree cannot do yet: the row says why instead of failing. */
export class NotMeasured extends Error {}

/** Runs `f`; a failure names the step it happened in. */
async function inStep<T>(label: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof NotMeasured) throw e;
    throw new Error(`${label}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Times `act` (the user's action) until every locator of `until` is visible. */
async function step(steps: TaskStep[], label: string, act: () => Promise<unknown>, until: Locator[], timeout: number): Promise<void> {
  const t0 = performance.now();
  await inStep(label, async () => {
    await act();
    for (const l of until) await l.waitFor({ state: 'visible', timeout });
  });
  steps.push({ label, ms: performance.now() - t0 });
}

/** Throws NotMeasured when `l` is not on the page. */
async function needs(l: Locator, what: string): Promise<void> {
  if ((await l.count()) === 0) throw new NotMeasured(what);
}

/** Waits for `ok` or `failed`; throws with the failure's text when that shows first. */
async function okOrFail(ok: Locator, failed: Locator, timeout: number): Promise<void> {
  await ok.or(failed).first().waitFor({ state: 'visible', timeout });
  if (await failed.first().isVisible()) throw new Error((await failed.first().innerText()).replace(/\s+/g, ' ').slice(0, 200));
}

const topIssue: BenchTask = {
  name: 'top issue → fix → path',
  startsOn: 'overview',
  async run(page, { timeout }) {
    const steps: TaskStep[] = [];
    const risks = page.getByRole('list', { name: 'Top risks' }).locator(':scope > li');
    // The highest-ranked risk with an attack path (the analysis draws paths for the top issues, but a
    // top issue can have none: then the reader goes to the next one, and so does the bench).
    const rank = await risks.evaluateAll((lis) =>
      lis.findIndex((li) => [...li.querySelectorAll('summary')].some((s) => s.textContent?.startsWith('Attack path:'))),
    );
    if (rank < 0) throw new NotMeasured('no top risk has an attack path');
    const top = risks.nth(rank);
    await step(steps, `its fix (risk #${rank + 1})`, () => top.getByText('The fix', { exact: true }).click(), [top.locator('pre').first()], timeout);
    await step(steps, 'its attack path', () => top.getByText(/^Attack path:/).click(), [top.getByRole('list', { name: 'Attack path' })], timeout);
    await step(
      steps,
      'the path on the graph',
      () => top.getByRole('link', { name: 'Show the path on the graph →' }).click(),
      [page.getByRole('status').filter({ hasText: /steps highlighted/ }), page.locator('.react-flow__node.on-path').first()],
      timeout,
    );
    return steps;
  },
};

const nodeWriters: BenchTask = {
  name: "one node's writers and blast radius",
  startsOn: 'nodes',
  async run(page, { targets, round, timeout }) {
    const steps: TaskStep[] = [];
    const picker = page.getByRole('combobox', { name: /Find a node/ });
    await needs(picker, 'the Nodes page has no node picker');
    // Another node each round: a node already shown may be cached by the server or the browser.
    const node = targets.nodes[round % targets.nodes.length];
    const option = page.getByRole('listbox', { name: 'Matching nodes' }).getByRole('option', { name: node, exact: true });
    await step(steps, 'type its name → listed', () => picker.fill(node), [option], timeout);
    await step(
      steps,
      'pick it → writers and blast radius',
      () => option.click(),
      [page.getByRole('region', { name: `Blast radius if ${node} is compromised` }), page.getByRole('region', { name: `nodes/status writers of ${node}` })],
      timeout,
    );
    return steps;
  },
};

const whoCanSimulate: BenchTask = {
  name: 'who-can → simulate this write',
  startsOn: 'explorer',
  async run(page, { targets, timeout, settle }) {
    const steps: TaskStep[] = [];
    const { verb, resource } = targets.whoCan;
    const question = page.getByRole('form', { name: 'Access question' });
    await question.getByText('Who can…', { exact: true }).click();
    await question.getByLabel('Verb', { exact: true }).fill(verb);
    await question.getByLabel('Resource', { exact: true }).fill(resource);
    await question.getByLabel('Namespace', { exact: true }).fill('');
    const results = page.getByTestId('who-can-results');
    await step(
      steps,
      'ask → the answer',
      () => question.getByRole('button', { name: 'Ask' }).click(),
      [results.filter({ hasText: `${verb} ${resource}` }), results.locator('tbody tr').first()],
      timeout,
    );
    const simulate = results.getByTestId('simulate-this-write').first();
    await needs(simulate, 'who-can rows have no "simulate this write"');
    const form = page.getByRole('form', { name: 'Write to simulate' });
    await step(steps, 'simulate this write → form filled', () => simulate.click(), [form.getByTestId('simulate-note')], timeout);
    const sim = form.getByRole('button', { name: 'Simulate' });
    // The link's navigation can still be rendering after the form shows its note (on the large
    // cluster a late render remounted the form and dropped an answer already given, in 4 of 6 runs):
    // a reader reads the form first, so the bench waits for the page to settle, untimed.
    await settle();
    const t0 = performance.now();
    await inStep('Simulate → the answer', async () => {
      // Enter on the button submits the form wherever the button is drawn.
      await sim.press('Enter');
      await okOrFail(
        page.getByTestId('simulation-result').filter({ hasNotText: 'could not be simulated' }),
        page.getByRole('alert').filter({ hasText: 'The write could not be simulated' }),
        timeout,
      );
    });
    steps.push({ label: 'Simulate → the answer', ms: performance.now() - t0 });
    return steps;
  },
};

const roleBuilder: BenchTask = {
  name: 'role builder: build → review → approve',
  startsOn: 'roles',
  async run(page, { targets, round, timeout }) {
    const steps: TaskStep[] = [];
    const next = page.getByRole('button', { name: 'Next' });
    // The wizard's steps are typing, not waiting: only the two server round trips are timed.
    await page.getByRole('radio', { name: /^Tenant/ }).check();
    await next.click();
    await page.getByLabel('Namespace', { exact: true }).fill(targets.roleNamespace);
    await page.getByLabel('ServiceAccount name').fill(`bench-runner-${Date.now().toString(36)}-${round}`);
    await next.click();
    await next.click();
    await page.getByLabel('Namespace for namespaced rules').fill(targets.roleNamespace);
    await step(
      steps,
      'build and review',
      () => page.getByRole('button', { name: 'Build and review' }).click(),
      [page.getByRole('region', { name: 'YAML' }).locator('pre'), page.getByRole('region', { name: 'Validation by the engine' })],
      timeout,
    );
    await page.getByLabel('Your name').fill('Browser Bench');
    await step(
      steps,
      'approve',
      () => page.getByRole('button', { name: 'Approve' }).click(),
      [page.getByRole('status').filter({ hasText: 'Approved by' })],
      timeout,
    );
    return steps;
  },
};

const snapshotDrift: BenchTask = {
  name: 'take a snapshot, compare two',
  startsOn: 'snapshots',
  async run(page, { timeout }) {
    const steps: TaskStep[] = [];
    const history = page.getByRole('region', { name: 'History' });
    const take = history.getByRole('button', { name: 'Take snapshot' });
    await needs(take, 'no "Take snapshot" on the Snapshots page');
    const rows = history.getByTestId('snapshot-row');
    const before = await rows.count();
    let t0 = performance.now();
    await inStep('take snapshot', async () => {
      await take.click();
      await okOrFail(rows.nth(before), history.getByRole('alert').filter({ hasText: 'The snapshot was not taken' }), timeout);
    });
    steps.push({ label: 'take snapshot', ms: performance.now() - t0 });
    const tookAt = t0;
    // The snapshot's bundle is stored in the background: not part of the task (the user can compare
    // before), but printed, and waited for so the next round does not queue behind it.
    const stored = async () => {
      await inStep('bundle stored', () =>
        okOrFail(
          history.getByRole('status').filter({ hasText: 'Took snapshot' }),
          history.getByRole('alert').filter({ hasText: 'The snapshot was not taken' }),
          timeout,
        ),
      );
      console.log(`snapshot: bundle stored ${((performance.now() - tookAt) / 1000).toFixed(1)} s after the click (not timed in the task)`);
    };
    // The first round has one snapshot only: it takes the one the next round compares with.
    if (before === 0) {
      await stored();
      return steps;
    }
    const drift = page.getByRole('region', { name: 'Drift' });
    t0 = performance.now();
    await inStep('compare', async () => {
      await drift.getByRole('button', { name: 'Compare' }).click();
      await okOrFail(drift.getByTestId('drift-view'), drift.getByRole('alert').filter({ hasText: 'Drift could not be computed' }), timeout);
    });
    steps.push({ label: 'compare the two newest (drift)', ms: performance.now() - t0 });
    await stored();
    return steps;
  },
};

const graphFocus: BenchTask = {
  name: 'graph search and focus',
  startsOn: 'graph',
  async run(page, { targets, timeout }) {
    const steps: TaskStep[] = [];
    const match = page.getByRole('list', { name: 'Matches' }).getByRole('button', { name: targets.graphMatch });
    // Typing includes the search box's pause before it asks the server (a user waits for it too).
    await step(steps, 'type → matches', () => page.getByLabel('Focus on an identity, binding, role or resource').fill(targets.graphQuery), [match], timeout);
    await step(
      steps,
      'pick → focused view',
      () => match.click(),
      [page.locator('.react-flow__node:not([data-id^="header:"])').filter({ hasText: targets.graphBox }).first()],
      timeout,
    );
    return steps;
  },
};

/** In the order they run; the snapshot task last, as it is the slowest and the heaviest on the server. */
export const BENCH_TASKS: BenchTask[] = [topIssue, nodeWriters, whoCanSimulate, roleBuilder, graphFocus, snapshotDrift];
