import { expect, gotoAndSettle, screenshot, test } from './fixtures';

// Issue 16: the explorer's "simulate a write" form on the demo.
const slice = (nodeName: string) => `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: fake-gpus
spec:
  nodeName: ${nodeName}
  driver: gpu.example.com
  pool: {name: ${nodeName}, generation: 1, resourceSliceCount: 1}
`;

// The demo's API server runs without NodeRestriction (NODE005), so the simulation follows it: a node's
// slice for another node is accepted, and the admission step says why.
test('simulate a write: without NodeRestriction (the demo) a node publishing devices for another node is accepted, and says so', async ({
  page,
  consoleErrors,
}) => {
  await gotoAndSettle(page, '/explorer', 'Who-can / can-i explorer');
  const form = page.getByRole('form', { name: 'Write to simulate' });
  await form.getByLabel('Sent by (username)').fill('system:node:gpu-dev-01');
  await form.getByLabel('Object (YAML or JSON)').fill(slice('gpu-h100-01'));
  await form.getByRole('button', { name: 'Simulate' }).click();
  const answer = page.getByTestId('simulation-result');
  await expect(answer).toContainText('Accepted');
  await expect(answer).toContainText('NodeRestriction admission is off on this cluster (flags of kube-system/kube-apiserver-cp-01): not checked');
  await expect(answer.getByRole('list', { name: 'Steps' }).locator('li')).toHaveCount(2);
  await screenshot(page, 'explorer-simulate-no-noderestriction');

  await form.getByLabel('Object (YAML or JSON)').fill(slice('gpu-dev-01'));
  await form.getByRole('button', { name: 'Simulate' }).click();
  await expect(answer).toContainText('Accepted');
  await expect(answer).toContainText('decided as system:node:gpu-dev-01');
  expect(consoleErrors).toEqual([]);
});

test('simulate a write: a user without RBAC writes is refused at authorization; bad YAML is a clear error', async ({ page }) => {
  await gotoAndSettle(page, '/explorer', 'Who-can / can-i explorer');
  const form = page.getByRole('form', { name: 'Write to simulate' });
  await form.getByLabel('Sent by (username)').fill('alice');
  await form.getByLabel('Object (YAML or JSON)').fill(`apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: x, namespace: tenant-a}
rules:
- {apiGroups: [resource.k8s.io], resources: [resourceclaims/status], verbs: [update]}
`);
  await form.getByRole('button', { name: 'Simulate' }).click();
  const answer = page.getByTestId('simulation-result');
  await expect(answer).toContainText('Refused by authorization');
  await form.getByLabel('Object (YAML or JSON)').fill('kind: [unclosed');
  await form.getByRole('button', { name: 'Simulate' }).click();
  await expect(answer).toContainText('The write could not be simulated');
  await expect(answer).toContainText('the object is not YAML or JSON');
});
