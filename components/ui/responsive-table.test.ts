import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ResponsiveTable, type StackBelow, type TableColumn } from './responsive-table';

// The markup the table renders (no DOM here): its semantics are checked on the HTML itself.

interface Pod {
  name: string;
  namespace: string;
  phase: string;
}

const PODS: Pod[] = [
  { name: 'web-1', namespace: 'shop', phase: 'Running' },
  { name: 'batch-7', namespace: '', phase: 'Pending' },
];

const COLUMNS: TableColumn<Pod>[] = [
  { header: 'Pod', cell: (p) => p.name, rowHeader: true },
  { header: 'Phase', cell: (p) => p.phase, inlineInCard: true },
  { header: 'Namespace', cell: (p) => p.namespace || '—', labelInCard: true, hiddenInCard: (p) => !p.namespace },
];

function render(props: Partial<Parameters<typeof ResponsiveTable<Pod>>[0]> & { stackBelow?: StackBelow } = {}): string {
  return renderToStaticMarkup(createElement(ResponsiveTable<Pod>, { columns: COLUMNS, rows: PODS, rowKey: (p) => p.name, caption: 'Pods', ...props }));
}

/** The opening tags and text of each body row's cells, in order. */
function bodyCells(html: string): { tag: string; attrs: string; text: string }[][] {
  const body = html.slice(html.indexOf('<tbody'), html.indexOf('</tbody>'));
  return [...body.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map(([, row]) =>
    [...row.matchAll(/<(td|th)([^>]*)>(.*?)<\/\1>/g)].map(([, tag, attrs, inner]) => ({ tag, attrs, text: inner.replace(/<[^>]+>/g, '') })),
  );
}

describe('ResponsiveTable', () => {
  it('is a table named by its caption, with a column header per column', () => {
    const html = render();
    expect(html).toMatch(/^<div class="overflow-x-auto"><table[^>]*><caption class="sr-only">Pods<\/caption>/);
    const head = html.slice(html.indexOf('<thead'), html.indexOf('</thead>'));
    expect([...head.matchAll(/<th scope="col"[^>]*>([^<]*)<\/th>/g)].map((m) => m[1])).toEqual(['Pod', 'Phase', 'Namespace']);
  });

  it('renders one row per item, in order, its row-header column as <th scope="row">', () => {
    const rows = bodyCells(render());
    expect(rows.map((r) => r.map((c) => c.tag))).toEqual([
      ['th', 'td', 'td'],
      ['th', 'td', 'td'],
    ]);
    expect(rows[0][0].attrs).toContain('scope="row"');
    expect(rows[1][1].attrs).not.toContain('scope=');
    expect(rows.map((r) => r.map((c) => c.text))).toEqual([
      ['web-1', 'Running', 'shop'],
      ['batch-7', 'Pending', '—'],
    ]);
  });

  it('a table that never stacks has no card labels and no card classes', () => {
    const html = render();
    expect(html).not.toContain('Namespace: ');
    expect(html).not.toMatch(/max-(sm|md):/);
  });

  for (const bp of ['sm', 'md'] as const) {
    it(`stacking below ${bp}: headers visually hidden there, labels shown only there, one line per cell unless inline`, () => {
      const html = render({ stackBelow: bp });
      expect(html).toMatch(new RegExp(`<table class="[^"]*max-${bp}:block`));
      expect(html).toMatch(new RegExp(`<thead class="[^"]*max-${bp}:sr-only`));
      const [first, second] = bodyCells(html);
      // The label is part of the cell, hidden from the breakpoint up (where the header says it).
      expect(first[2].text).toBe('Namespace: shop');
      expect(html).toContain(`<span class="text-slate-500 ${bp}:hidden">Namespace: </span>`);
      expect(first[0].text).toBe('web-1');
      expect(first[0].attrs).toContain(`max-${bp}:w-full`);
      expect(first[1].attrs).not.toContain(`max-${bp}:w-full`);
      // An empty value is left out of that row's card only.
      expect(second[2].attrs).toContain(`max-${bp}:hidden`);
      expect(first[2].attrs).not.toContain(`max-${bp}:hidden`);
    });
  }

  it('lays the table out fixed, with a <col> per column, only when a width is given', () => {
    expect(render()).not.toContain('<colgroup');
    const html = render({ columns: COLUMNS.map((c, i) => (i === 0 ? { ...c, width: 'w-40' } : c)) });
    expect(html).toMatch(/<table class="[^"]*table-fixed/);
    expect(html).toMatch(/<colgroup[^>]*><col class="w-40"\/><col\/><col\/><\/colgroup>/);
  });

  it('gives each row its own classes and test id', () => {
    const html = render({ rowClassName: (p) => (p.phase === 'Pending' ? 'bg-amber-50' : undefined), rowTestId: 'pod-row' });
    const trs = [...html.matchAll(/<tr class="([^"]*)" data-testid="pod-row">/g)].map((m) => m[1]);
    expect(trs).toHaveLength(2);
    expect(trs[0]).not.toContain('bg-amber-50');
    expect(trs[1]).toContain('bg-amber-50');
  });

  it('shows the empty state instead of a table when there are no rows', () => {
    const html = render({ rows: [], empty: createElement('p', null, 'No pods') });
    expect(html).toBe('<p>No pods</p>');
    // Without an empty state, an empty table keeps its headers.
    expect(render({ rows: [] })).toContain('<th scope="col"');
  });
});
