import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { buildExamplePluginRole, expect, screenshot, seriousA11yViolations, test } from './fixtures';
import { AUTH_TOKENS_FILE, AUTH_URL } from './servers';

// Issue 25 item 1 in Chromium: the demo behind `--auth kubernetes` with a real kube-apiserver
// reviewing tokens (e2e/ui/auth-server.ts). Sign-in page, who is signed in, what is hidden, a refused
// action, and an approval recorded as the signed-in user.

test.describe.configure({ mode: 'serial' });

const tokens = (): Record<string, string> => JSON.parse(readFileSync(AUTH_TOKENS_FILE, 'utf8'));

async function signIn(page: Page, who: string, path = '/findings'): Promise<void> {
  await page.goto(`${AUTH_URL}${path}`);
  await expect(page).toHaveURL(new RegExp(`/sign-in\\?next=${encodeURIComponent(path).replace(/[?]/g, '\\?')}`));
  await page.getByLabel('Kubernetes bearer token').fill(tokens()[who]!);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('a page without a session goes to sign-in; a wrong token is refused there; the right one opens the page it asked for', async ({ page }) => {
  await page.goto(`${AUTH_URL}/nodes?node=gpu-node-1`);
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fnodes%3Fnode%3Dgpu-node-1$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to dra-posture' })).toBeVisible();
  // No cluster data and no navigation before sign-in.
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshot(page, 'sign-in');

  await page.getByLabel('Kubernetes bearer token').fill('not-a-real-token');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'did not accept that token' })).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in/);

  await page.getByLabel('Kubernetes bearer token').fill(tokens().viewer!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/nodes\?node=gpu-node-1$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Nodes' })).toBeVisible();
  await expect(page.getByTestId('viewer-menu').first()).toContainText('Signed in as viewer');
  const cookies = await page.context().cookies(AUTH_URL);
  const session = cookies.find((c) => c.name === '__Host-dra-posture-session');
  expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
  expect(session?.value).not.toContain(tokens().viewer!);
});

test('a viewer does not see what it may not do, and the server refuses it anyway', async ({ page }) => {
  await signIn(page, 'viewer');
  await expect(page.getByRole('heading', { level: 1, name: 'Findings' })).toBeVisible();
  // Snapshots need get snapshots, switching sources needs create sources: hidden or explained.
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Snapshots' })).toHaveCount(0);
  await page.goto(`${AUTH_URL}/sources`);
  await expect(page.getByTestId('not-allowed').first()).toContainText('create sources.dra-posture.io');
  await expect(page.getByRole('button', { name: /bundled demo/i })).toHaveCount(0);

  // The refused action: an approval, sent as this viewer's browser would send it.
  const refused = await page.request.post(`${AUTH_URL}/api/v1/role-builder/approvals`, {
    headers: { origin: AUTH_URL, 'content-type': 'application/json' },
    data: { build: {}, yamlSha256: 'x', decision: 'approve', comment: '' },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.message).toContain('needs create approvals.dra-posture.io');

  const snapshots = await page.goto(`${AUTH_URL}/snapshots`);
  expect(snapshots?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
  await expect(page.getByText('viewer may not do this')).toBeVisible();
  await screenshot(page, 'sign-in-refused');

  // Sign out ends the session: the next page asks to sign in again.
  await page.goto(`${AUTH_URL}/findings`);
  await page.getByRole('button', { name: 'Sign out' }).first().click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto(`${AUTH_URL}/findings`);
  await expect(page).toHaveURL(/\/sign-in\?next=%2Ffindings/);
});

test('a user without grants is refused every page, with who they are and what is missing', async ({ page }) => {
  await signIn(page, 'nobody');
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
  await expect(page.getByText('carol-nobody may not do this: it needs get reports.dra-posture.io')).toBeVisible();
  for (const path of ['/', '/graph', '/roles']) {
    const res = await page.goto(`${AUTH_URL}${path}`);
    expect(res?.status(), path).toBe(403);
  }
});

test('an approver builds a role and approves it; the decision records the signed-in user', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'approver', '/roles');
  await expect(page.getByRole('heading', { level: 1, name: 'Least-privilege role builder' })).toBeVisible();
  await buildExamplePluginRole(page);
  await expect(page.getByText('Deciding as alice-approver')).toBeVisible();
  // Signed in, nobody types a name: the server takes it from the token.
  await expect(page.getByLabel('Your name')).toHaveCount(0);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText(/Approved by alice-approver at/)).toBeVisible();
  await expect(page.getByTestId('approver-check')).toContainText('As Kubernetes user alice-approver');
});
