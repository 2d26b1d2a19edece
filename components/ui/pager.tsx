'use client';

const n = (x: number) => x.toLocaleString('en-US');

/**
 * Previous / next through the pages of a long server-side list, with where the page sits in it
 * ("101–200 of 27,240"). Renders nothing when everything fits on one page.
 */
export function Pager({
  label,
  page,
  pages,
  offset,
  shown,
  matched,
  onPage,
}: {
  /** Names the navigation for assistive technology ("Pages of findings"). */
  label: string;
  page: number;
  pages: number;
  /** The 0-based position of the page's first row, how many rows it shows, and how many match. */
  offset: number;
  shown: number;
  matched: number;
  onPage: (page: number) => void;
}) {
  if (pages <= 1) return null;
  const button =
    'rounded-md border border-slate-300 bg-white px-3 py-1 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50';
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm text-slate-600">
      <span>
        {n(offset + 1)}–{n(offset + shown)} of {n(matched)}
      </span>
      <span className="flex items-center gap-2">
        <button type="button" className={button} disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </button>
        <span aria-current="page">
          Page {n(page)} of {n(pages)}
        </span>
        <button type="button" className={button} disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </button>
      </span>
    </nav>
  );
}
