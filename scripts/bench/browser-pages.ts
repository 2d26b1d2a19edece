// The pages the browser bench loads, and when each counts as showing its content: its heading plus
// the first row or card of real data (never a skeleton: a loading page has no h1 of its own and no
// data rows). Selectors are roles, labels and test ids, as in e2e/ui/*.spec.ts.
import type { Locator, Page } from '@playwright/test';

/** What the bench knows about the cluster it serves: names that exist in the generated snapshot. */
export interface BenchTargets {
  /** A finding id of the report (its first by severity). */
  findingId: string;
  /** Nodes of the cluster for the node picker, one per round. */
  nodes: string[];
  /** Graph search text, the match to pick, and text of the focused box. */
  graphQuery: string;
  graphMatch: RegExp;
  graphBox: string;
  /** A namespace of the cluster where the role builder makes a new service account. */
  roleNamespace: string;
  /** The who-can question asked before "simulate this write". */
  whoCan: { verb: string; resource: string };
}

export interface BenchPage {
  name: string;
  path(t: BenchTargets): string;
  /** Locators that are all visible once the page shows its content. */
  content(page: Page): Locator[];
}

const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

export const BENCH_PAGES: BenchPage[] = [
  {
    name: 'overview',
    path: () => '/',
    content: (p) => [h1(p, 'Posture overview'), p.getByRole('list', { name: 'Top risks' }).locator(':scope > li').first()],
  },
  {
    name: 'findings',
    path: () => '/findings',
    content: (p) => [h1(p, 'Findings'), p.getByRole('table', { name: 'Findings' }).locator('tbody tr').first()],
  },
  {
    name: 'finding detail',
    path: (t) => `/findings/${encodeURIComponent(t.findingId)}`,
    content: (p) => [p.getByRole('heading', { level: 1 }), p.getByRole('region', { name: 'Evidence' })],
  },
  {
    name: 'graph',
    path: () => '/graph',
    content: (p) => [
      h1(p, 'Identity graph'),
      p.locator('.react-flow__node:not([data-id^="header:"])').first(),
      p.getByLabel('Focus on an identity, binding, role or resource'),
    ],
  },
  {
    name: 'nodes',
    path: () => '/nodes',
    // Without ?node= the page shows the busiest node's panels above the grouped matrix.
    content: (p) => [h1(p, 'Nodes'), p.getByRole('region', { name: /^Blast radius if / }), p.getByTestId('group-count').first()],
  },
  {
    name: 'quotas',
    path: () => '/quotas',
    // The gaps lead the page (tenants without DRA quota); a cluster without gaps shows its quota table.
    content: (p) => [h1(p, 'Quotas'), p.getByTestId('quota-gap-group').or(p.locator('section[aria-labelledby="quota-table-heading"] tbody tr')).first()],
  },
  {
    name: 'devices',
    path: () => '/devices',
    content: (p) => [h1(p, 'Devices'), p.locator('main section[aria-labelledby^="dc-"]').first()],
  },
  {
    name: 'explorer',
    path: () => '/explorer',
    content: (p) => [
      h1(p, 'Who-can / can-i explorer'),
      p.getByRole('region', { name: 'Examples' }).getByRole('link').first(),
      p.getByRole('form', { name: 'Write to simulate' }),
    ],
  },
  {
    name: 'roles',
    path: () => '/roles',
    content: (p) => [h1(p, 'Least-privilege role builder'), p.getByRole('radio', { name: /Node-local driver/ })],
  },
  {
    name: 'snapshots',
    path: () => '/snapshots',
    content: (p) => [
      h1(p, 'Snapshots'),
      p.getByRole('region', { name: 'Export the current source' }).getByRole('link').first(),
      p
        .getByRole('region', { name: 'History' })
        .getByTestId('snapshot-row')
        .first()
        .or(p.getByRole('region', { name: 'History' }).getByText('No snapshots yet')),
    ],
  },
  {
    name: 'sources',
    path: () => '/sources',
    content: (p) => [h1(p, 'Sources'), p.getByRole('region', { name: 'Current source' }).getByText(/^snapshot · /)],
  },
];

/** Waits until every content locator of `bp` is visible. */
export async function waitForContent(page: Page, bp: BenchPage, timeout: number): Promise<void> {
  for (const l of bp.content(page)) await l.waitFor({ state: 'visible', timeout });
}

/**
 * Waits until React has hydrated the page's controls (every button, link, input and summary in main
 * carries React's props): a click before that is lost, as it would be for a user, but the bench
 * would wait for an answer that never comes. Tasks start after it; a page's time to content does not.
 */
export async function waitForHydration(page: Page, timeout: number): Promise<void> {
  await page.waitForFunction(
    () => {
      const controls = [...document.querySelectorAll('main button, main a, main input, main summary, main select, main textarea')];
      return controls.length > 0 && controls.every((el) => Object.keys(el).some((k) => k.startsWith('__reactProps')));
    },
    undefined,
    { timeout, polling: 100 },
  );
}

/**
 * Loads a page in `page` and returns the milliseconds from its navigation start to its content being
 * visible, read from the page's own clock (performance.now() counts from the navigation's start).
 */
export async function timePage(page: Page, url: string, bp: BenchPage, t: BenchTargets, timeout: number): Promise<number> {
  await page.goto(`${url}${bp.path(t)}`, { waitUntil: 'commit', timeout });
  await waitForContent(page, bp, timeout);
  return page.evaluate(() => performance.now());
}
