import { test as base, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';

// Shared helpers for the dashboard specs: console/page errors are collected for every test and must
// be empty; CSP violations are recorded in the page.

export const PAGES = [
  { path: '/', name: 'overview', heading: 'Posture overview' },
  { path: '/findings', name: 'findings', heading: 'Findings' },
  { path: '/graph', name: 'graph', heading: 'Identity graph' },
  { path: '/nodes', name: 'nodes', heading: 'Nodes' },
  { path: '/quotas', name: 'quotas', heading: 'Quotas' },
  { path: '/devices', name: 'devices', heading: 'Devices' },
  { path: '/activity', name: 'activity', heading: 'Activity' },
  { path: '/explorer', name: 'explorer', heading: 'Who-can / can-i explorer' },
  { path: '/roles', name: 'roles', heading: 'Least-privilege role builder' },
  { path: '/snapshots', name: 'snapshots', heading: 'Snapshots' },
  { path: '/sources', name: 'sources', heading: 'Sources' },
] as const;

export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.addInitScript(() => {
      const w = window as unknown as { __cspViolations: string[] };
      w.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await use(errors);
  },
});

export { expect };

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

export async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
}

/** Serious and critical axe violations, as readable lines. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

/** Waits until the page's main heading is shown and client data has settled. */
export async function gotoAndSettle(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await page.waitForLoadState('networkidle');
}

/**
 * Walks the role builder from its first step to "Build and review" for the example driver's kubelet
 * plugin (node-local driver persona), on a /roles page that is already open.
 */
export async function buildExamplePluginRole(page: Page): Promise<void> {
  await page.getByRole('radio', { name: /Node-local driver/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Namespace').fill('dra-example-driver');
  await page.getByLabel('ServiceAccount name').fill('example-kubelet-plugin');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Driver names').fill('gpu.example.com');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Build and review' }).click();
}
