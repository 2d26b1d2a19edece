import type { Page } from '@playwright/test';
import { buildExamplePluginRole, expect, gotoAndSettle, PAGES, screenshot, test } from './fixtures';
import { expectNoSidewaysScroll } from './page-width';
import { AUDIT_URL } from './servers';

// Issue 26 item 4: the dashboard on a 390×844 phone. The sidebar collapses into a top bar with a menu
// button, no page scrolls sideways, content gets the screen's width, severity labels are never clipped,
// and the findings table keeps severity, check and title readable (rows stack into cards).

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

const NARROW_PAGES = [...PAGES, { path: '/roles/history', name: 'role approvals', heading: 'Role approvals' }] as const;

/** Labels that read exactly as a severity (badges, cards) in the page's main area. */
async function clippedSeverityLabels(page: Page): Promise<{ found: number; clipped: string[] }> {
  return page.evaluate(() => {
    const labels = new Set(['critical', 'high', 'medium', 'low', 'info']);
    const main = document.querySelector('main');
    const hits = [...(main?.querySelectorAll('span, div, p') ?? [])].filter(
      (el) => labels.has((el.textContent ?? '').trim().toLowerCase()) && el.getBoundingClientRect().width > 0,
    );
    const clipped = hits
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return el.scrollWidth > el.clientWidth || r.left < 0 || r.right > innerWidth;
      })
      .map((el) => `"${(el as HTMLElement).innerText}" scrollWidth=${el.scrollWidth} clientWidth=${el.clientWidth}`);
    return { found: hits.length, clipped };
  });
}

for (const p of NARROW_PAGES) {
  test(`${p.name} fits a 390 px screen`, async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, p.path, p.heading);
    const heading = page.getByRole('heading', { level: 1, name: p.heading });
    await expect(heading).toBeInViewport();

    await expectNoSidewaysScroll(page);

    // The content gets the screen, not what a desktop sidebar leaves of it.
    const main = await page.getByRole('main').boundingBox();
    expect(main!.x).toBeLessThanOrEqual(1);
    expect(main!.width).toBeGreaterThanOrEqual(PHONE.width - 2);

    await screenshot(page, `narrow-${p.name.replaceAll(' ', '-')}`);
    expect(consoleErrors).toEqual([]);
  });
}

test('a finding’s page fits a 390 px screen', async ({ page }) => {
  await gotoAndSettle(page, '/findings?check=DRA001', 'Findings');
  const link = page.getByRole('table', { name: 'Findings' }).locator('tbody tr a').first();
  const title = (await link.textContent())!.trim();
  // Opened by its address: the page under test is the finding's, not the list's.
  await page.goto((await link.getAttribute('href'))!);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeInViewport();
  await page.waitForLoadState('networkidle');
  await expectNoSidewaysScroll(page);
  expect(await clippedSeverityLabels(page)).toMatchObject({ clipped: [] });
  await screenshot(page, 'narrow-finding');
});

test('the activity page with an audit log fits a 390 px screen, its tables stacked into cards', async ({ page }) => {
  await gotoAndSettle(page, `${AUDIT_URL}/activity`, 'Activity');
  await expectNoSidewaysScroll(page);
  // An alert's text gets at least half the screen, not what is left of a three-column row.
  const alert = page.getByRole('region', { name: 'Audit alerts' }).getByRole('row').filter({ hasText: 'AUDIT005' }).first().getByRole('link');
  await alert.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 200));
  await expect(alert).toBeInViewport({ ratio: 1 });
  expect((await alert.boundingBox())!.width).toBeGreaterThanOrEqual(PHONE.width * 0.5);
  expect(await clippedSeverityLabels(page)).toMatchObject({ clipped: [] });
  await screenshot(page, 'narrow-activity-audit');
});

test('a role bundle’s review, with its rules table, fits a 390 px screen', async ({ page }) => {
  await gotoAndSettle(page, '/roles', 'Least-privilege role builder');
  await buildExamplePluginRole(page);
  const rules = page.getByRole('region', { name: 'Rules and why' });
  await expect(rules.getByRole('table').first()).toBeVisible({ timeout: 60_000 });
  await expectNoSidewaysScroll(page);
  // Each rule's reason is on screen, not in a column past the right edge.
  const why = rules.locator('tbody tr').first().locator('td').last();
  await why.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 200));
  await expect(why).toBeInViewport({ ratio: 1 });
  await screenshot(page, 'narrow-role-review');
});

test('the snapshot history and the drift form fit a 390 px screen', async ({ page }) => {
  await gotoAndSettle(page, '/snapshots', 'Snapshots');
  const history = page.getByRole('region', { name: 'History' });
  const rows = history.getByTestId('snapshot-row');
  for (let n = await rows.count(); n < 2; n++) {
    await history.getByRole('button', { name: 'Take snapshot' }).click();
    await expect(rows).toHaveCount(n + 1);
  }
  const drift = page.getByRole('region', { name: 'Drift' });
  await drift.getByRole('button', { name: 'Compare' }).click();
  await expect(drift.getByTestId('drift-view')).toBeVisible();
  await expectNoSidewaysScroll(page);
  // A snapshot's downloads are on screen, not in a fifth column past the edge.
  const download = rows.first().getByRole('link', { name: /^HTML report of snap-/ });
  await download.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 200));
  await expect(download).toBeInViewport({ ratio: 1 });
  await screenshot(page, 'narrow-snapshots');
});

test.describe('navigation on a phone', () => {
  test('the menu button opens and closes the navigation, and a link in it navigates and closes it', async ({ page }) => {
    await gotoAndSettle(page, '/', 'Posture overview');
    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(menu).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
    // aria-controls names the element the button shows.
    const controls = await menu.getAttribute('aria-controls');
    expect(controls).toBeTruthy();
    await expect(page.locator(`[id="${controls}"]`)).toBeAttached();

    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(nav).toBeVisible();
    await expect(page.locator(`[id="${controls}"]`)).toBeVisible();
    await screenshot(page, 'narrow-menu-open');
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();

    await menu.click();
    await nav.getByRole('link', { name: /^Quotas/ }).click();
    await expect(page).toHaveURL(/\/quotas$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Quotas' })).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
    await menu.click();
    await expect(nav.getByRole('link', { name: /^Quotas/ })).toHaveAttribute('aria-current', 'page');
  });

  test('the menu works from the keyboard and Escape closes it, returning focus to the button', async ({ page }) => {
    await gotoAndSettle(page, '/findings', 'Findings');
    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await menu.focus();
    await page.keyboard.press('Enter');
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    await expect(nav.getByRole('link', { name: 'Overview' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
    await expect(menu).toBeFocused();

    await page.keyboard.press('Space');
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    let reached = false;
    for (let i = 0; i < 6 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await nav.getByRole('link', { name: /^Nodes/ }).evaluate((el) => el === document.activeElement);
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/nodes$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Nodes' })).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
  });

  test('at desktop width the sidebar is shown and there is no menu button', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await gotoAndSettle(page, '/', 'Posture overview');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
    const main = await page.getByRole('main').boundingBox();
    // The 240 px sidebar sits left of the content.
    expect(main!.x).toBeGreaterThanOrEqual(240);
  });
});

test.describe('severity and findings on a phone', () => {
  // The table's badges are checked with its cells below; here, the overview's cards and lists.
  test('severity labels on the overview show their full text', async ({ page }) => {
    await gotoAndSettle(page, '/', 'Posture overview');
    const { found, clipped } = await clippedSeverityLabels(page);
    expect(found).toBeGreaterThanOrEqual(5);
    expect(clipped).toEqual([]);
  });

  test('the findings table shows each finding’s severity, check and title, readably', async ({ page }) => {
    await gotoAndSettle(page, '/findings?severity=critical', 'Findings');
    const rows = page.getByRole('table', { name: 'Findings' }).locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    const n = Math.min(await rows.count(), 5);
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) {
      const row = rows.nth(i);
      // Severity, check and title cells: each fully on screen, the title with room to be read.
      const cells = {
        severity: row.locator('td').nth(0),
        check: row.locator('td').nth(1),
        title: row.locator('td').nth(2).getByRole('link'),
      };
      await expect(cells.severity).toContainText('Critical');
      await expect(cells.check).toHaveText(/^[A-Z]+\d{3}$/);
      for (const [name, cell] of Object.entries(cells)) {
        // Scroll the page only (never the table's own box): the cell must be on screen as laid out.
        await cell.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 200));
        await expect(cell, `${name} of row ${i} is fully on screen`).toBeInViewport({ ratio: 1 });
        const box = (await cell.boundingBox())!;
        expect(box.x, `${name} of row ${i} starts on screen`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${name} of row ${i} ends on screen`).toBeLessThanOrEqual(PHONE.width);
      }
      const titleCell = (await row.locator('td').nth(2).boundingBox())!;
      expect(titleCell.width, 'the title gets most of the screen').toBeGreaterThanOrEqual(PHONE.width * 0.75);
    }
  });
});
