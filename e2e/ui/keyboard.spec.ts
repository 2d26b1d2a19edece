import { expect, gotoAndSettle, test } from './fixtures';

test.describe('keyboard', () => {
  test('Tab reaches the skip link and the navigation; Enter follows a link', async ({ page }) => {
    await gotoAndSettle(page, '/', 'Posture overview');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();

    const nav = page.getByRole('navigation', { name: 'Main' });
    let reached = false;
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await nav.getByRole('link', { name: /^Findings/ }).evaluate((el) => el === document.activeElement);
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/findings$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Findings' })).toBeVisible();
    await expect(nav.getByRole('link', { name: /^Findings/ })).toHaveAttribute('aria-current', 'page');
  });

  test('the skip link moves focus to the content', async ({ page }) => {
    await gotoAndSettle(page, '/nodes', 'Nodes');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#main$/);
    await page.keyboard.press('Tab');
    const inMain = await page.evaluate(() => !!document.activeElement?.closest('main'));
    expect(inMain).toBe(true);
  });

  test('findings filters work from the keyboard', async ({ page }) => {
    await gotoAndSettle(page, '/findings', 'Findings');
    await page.getByRole('button', { name: /^High/ }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/severity=high/);
    await page.keyboard.press('Space');
    await expect(page).not.toHaveURL(/severity=/);
  });

  test('graph nodes can be selected from the keyboard', async ({ page }) => {
    await gotoAndSettle(page, '/graph?focus=ServiceAccount%3Atenant-b%3Abatch-scheduler', 'Identity graph');
    const node = page.locator('.react-flow__node').filter({ hasText: 'custom-allocator' });
    await node.focus();
    await page.keyboard.press('Enter');
    const details = page.getByRole('complementary', { name: 'Details' });
    await expect(details.getByRole('heading', { name: 'custom-allocator' })).toBeVisible();
    await details.getByRole('button', { name: /^Why: this to resourceclaims\/binding/ }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('edge-why')).toContainText('rule #');
  });
});
