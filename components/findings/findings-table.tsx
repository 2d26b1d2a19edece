import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import type { FindingRow } from '@/lib/view/findings-page';
import { findingNamespaces } from '@/lib/view/findings-view';
import { describeRef, describeSubject } from '@/lib/k8s/refs';
import { ResponsiveTable, type TableColumn } from '@/components/ui/responsive-table';
import { SeverityBadge } from '@/components/ui/severity';

function AboutCell({ f }: { f: FindingRow }) {
  const about = f.subjects.length ? f.subjects.map(describeSubject) : f.objects.slice(0, 2).map(describeRef);
  const more = (f.subjects.length ? f.subjects.length : Math.min(f.objects.length, 2)) - 1;
  return (
    <>
      <span className="block truncate font-mono" title={about[0]}>
        {about[0]}
      </span>
      {more > 0 && <span className="text-slate-500">+{more} more</span>}
    </>
  );
}

const COLUMNS: TableColumn<FindingRow>[] = [
  {
    header: 'Severity',
    cell: (f) => <SeverityBadge severity={f.severity} />,
    width: 'w-28',
    className: 'px-4',
    headerClassName: 'py-2.5',
    cellClassName: 'py-3',
    inlineInCard: true,
  },
  {
    header: 'Check',
    cell: (f) => f.check,
    width: 'w-24',
    className: 'px-2',
    headerClassName: 'py-2.5',
    cellClassName: 'py-3 font-mono text-xs text-slate-700',
    inlineInCard: true,
  },
  {
    header: 'Finding',
    cell: (f) => (
      <>
        <Link href={pages.finding(f.id)} className="font-medium text-slate-900 hover:text-teal-800 hover:underline">
          {f.title}
        </Link>
        <p className="mt-0.5 line-clamp-2 text-xs text-slate-500">{f.message}</p>
      </>
    ),
    className: 'px-2',
    headerClassName: 'py-2.5',
    cellClassName: 'py-3',
  },
  {
    header: 'About',
    cell: (f) => <AboutCell f={f} />,
    width: 'w-72',
    className: 'px-2',
    headerClassName: 'py-2.5',
    cellClassName: 'py-3 text-xs text-slate-700',
  },
  {
    header: 'Namespace',
    cell: (f) => findingNamespaces(f).join(', ') || '—',
    width: 'w-36',
    className: 'px-2',
    headerClassName: 'py-2.5',
    cellClassName: 'truncate py-3 text-xs text-slate-600',
    labelInCard: true,
    hiddenInCard: (f) => findingNamespaces(f).length === 0,
  },
];

/** One row per finding; below md (768 px) each row stacks into a card: severity and check, then title, subject, namespace. */
export function FindingsTable({ findings }: { findings: FindingRow[] }) {
  return <ResponsiveTable caption="Findings" columns={COLUMNS} rows={findings} rowKey={(f) => f.id} stackBelow="md" rowClassName="hover:bg-slate-50" />;
}
