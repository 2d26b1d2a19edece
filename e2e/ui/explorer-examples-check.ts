import { expect, type Page } from '@playwright/test';
import type { SourceObjects } from './source-objects';

// The explorer's examples and the simulator's opening write must name objects the loaded source has
// (a fixed list named the demo's, which a real cluster lacks): checked on the demo and on the large
// cluster against the source's own objects (source-objects.ts), not names written in a test.

/** Checks every name the examples and the simulator's write use; returns the examples' URLs by what they name. */
export async function expectExamplesNameSourceObjects(page: Page, objects: SourceObjects): Promise<{ node: string[]; claim: string[]; identity: string[] }> {
  const links = page.getByRole('region', { name: 'Examples' }).getByRole('link');
  const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  const named = { node: [] as string[], claim: [] as string[], identity: [] as string[] };
  for (const href of hrefs) {
    const p = new URL(href, 'http://x').searchParams;
    const resource = p.get('resource');
    if (resource === 'nodes/status' && p.get('name')) {
      expect(objects.nodes, href).toContain(p.get('name'));
      named.node.push(href);
    }
    if (resource === 'resourceclaims/status' && p.get('name')) {
      expect(objects.claims, href).toContain(`${p.get('namespace')}/${p.get('name')}`);
      named.claim.push(href);
    }
    if (p.get('namespace')) expect(objects.namespaces, href).toContain(p.get('namespace'));
    const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(p.get('user') ?? '');
    if (sa) {
      expect(objects.serviceAccounts, href).toContain(`${sa[1]}/${sa[2]}`);
      named.identity.push(href);
    }
    if (p.get('node')) expect(objects.nodes, href).toContain(p.get('node'));
  }
  expect(named.node.length).toBeGreaterThan(0);
  expect(named.claim.length).toBeGreaterThan(0);
  expect(named.identity.length).toBeGreaterThan(0);

  // The simulator opens with a write between two nodes of this source.
  const form = page.getByRole('form', { name: 'Write to simulate' });
  const sender = /^system:node:(.+)$/.exec(await form.getByLabel('Sent by (username)').inputValue());
  expect(sender).not.toBeNull();
  expect(objects.nodes).toContain(sender![1]);
  const target = /nodeName: (\S+)/.exec(await form.getByLabel('Object (YAML or JSON)').inputValue());
  expect(target).not.toBeNull();
  expect(objects.nodes).toContain(target![1]);
  return named;
}
