import type { ReactNode } from 'react';
import { cn } from './cn';

/** One column of a {@link ResponsiveTable}: its header and how a row fills its cell. */
export interface TableColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** The cell names its row (`<th scope="row">`): screen readers announce it with the row's other cells. */
  rowHeader?: boolean;
  /** A card hides the column headers: prefix the cell with "Header: " where its content alone does not say what it is. */
  labelInCard?: boolean;
  /** In a card, sits beside the next such cell instead of on a line of its own (a badge and a short code). */
  inlineInCard?: boolean;
  /** Left out of this row's card (an empty value the table shows as a dash). */
  hiddenInCard?: (row: Row) => boolean;
  /** The column's width (a Tailwind `w-*` class); giving any column one lays the table out fixed. */
  width?: string;
  /** Classes of the header cell and of the row cells (padding, type); `headerClassName`, `cellClassName` add to them. */
  className?: string;
  headerClassName?: string;
  cellClassName?: string;
}

/** Below which Tailwind breakpoint the rows stack into cards; none: a table at every width, scrolling in its box. */
export type StackBelow = 'sm' | 'md';

// Whole class strings per breakpoint: Tailwind only generates the classes it finds written out.
const STACKED: Record<
  StackBelow,
  { table: string; cols: string; head: string; body: string; row: string; cell: string; line: string; label: string; hidden: string }
> = {
  sm: {
    table: 'max-sm:block',
    cols: 'max-sm:hidden',
    head: 'max-sm:sr-only',
    body: 'max-sm:block',
    row: 'max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-3 max-sm:gap-y-1 max-sm:py-3',
    cell: 'max-sm:block max-sm:min-w-0 max-sm:p-0',
    line: 'max-sm:w-full',
    label: 'sm:hidden',
    hidden: 'max-sm:hidden',
  },
  md: {
    table: 'max-md:block',
    cols: 'max-md:hidden',
    head: 'max-md:sr-only',
    body: 'max-md:block',
    row: 'max-md:flex max-md:flex-wrap max-md:items-center max-md:gap-x-3 max-md:gap-y-1 max-md:py-3',
    cell: 'max-md:block max-md:min-w-0 max-md:p-0',
    line: 'max-md:w-full',
    label: 'md:hidden',
    hidden: 'max-md:hidden',
  },
};

const TABLE_HEAD = 'border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500';

/**
 * A real table (caption, `<th scope>` headers) that, below `stackBelow`, turns each row into a card: one
 * cell a line, the headers visually hidden, and a label before the cells that need one. Wide tables
 * scroll in their own box, never the page.
 */
export function ResponsiveTable<Row>({
  columns,
  rows,
  rowKey,
  caption,
  stackBelow,
  rowClassName,
  rowTestId,
  headClassName = TABLE_HEAD,
  className,
  empty,
}: {
  columns: TableColumn<Row>[];
  rows: readonly Row[];
  /** A key unique among the rows (the row's index where the rows have no identity of their own). */
  rowKey: (row: Row, index: number) => string;
  /** The table's accessible name, read by screen readers only. */
  caption?: string;
  stackBelow?: StackBelow;
  /** Every row's classes, or each row's own (a selected or highlighted row). */
  rowClassName?: string | ((row: Row) => string | undefined);
  rowTestId?: string;
  headClassName?: string;
  className?: string;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
}) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  const s = stackBelow ? STACKED[stackBelow] : undefined;
  const fixed = columns.some((c) => c.width);
  return (
    <div className="overflow-x-auto">
      <table className={cn('w-full text-left text-sm', fixed && 'table-fixed', s?.table, className)}>
        {caption && <caption className="sr-only">{caption}</caption>}
        {fixed && (
          <colgroup className={s?.cols}>
            {columns.map((c) => (
              <col key={c.header} className={c.width} />
            ))}
          </colgroup>
        )}
        <thead className={cn(headClassName, s?.head)}>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={cn('font-medium', c.className, c.headerClassName)}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={cn('divide-y divide-slate-100', s?.body)}>
          {rows.map((row, i) => (
            <tr
              key={rowKey(row, i)}
              className={cn('align-top', s?.row, typeof rowClassName === 'function' ? rowClassName(row) : rowClassName)}
              data-testid={rowTestId}
            >
              {columns.map((c) => {
                const Cell = c.rowHeader ? 'th' : 'td';
                return (
                  <Cell
                    key={c.header}
                    scope={c.rowHeader ? 'row' : undefined}
                    className={cn(
                      c.rowHeader && 'text-left font-normal',
                      c.className,
                      c.cellClassName,
                      s?.cell,
                      s && !c.inlineInCard && s.line,
                      s && c.hiddenInCard?.(row) && s.hidden,
                    )}
                  >
                    {s && c.labelInCard && <span className={cn('text-slate-500', s.label)}>{c.header}: </span>}
                    {c.cell(row)}
                  </Cell>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
