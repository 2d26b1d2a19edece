import Link from 'next/link';

export interface ViewLink {
  href: string;
  title: string;
  metric: string;
  detail: string;
  attention?: boolean;
}

/** Cards leading into every view, each with the number that matters most there. */
export function ViewLinks({ links }: { links: ViewLink[] }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {links.map((l) => (
        <li key={l.href}>
          <Link
            href={l.href}
            className="flex h-full flex-col rounded-lg border border-slate-200 bg-white px-4 py-3.5 shadow-sm transition hover:border-teal-600/40 hover:shadow"
          >
            <span className="flex items-center justify-between text-sm font-semibold text-slate-900">
              {l.title}
              <span aria-hidden="true" className="text-slate-400">
                →
              </span>
            </span>
            <span className={`mt-1 text-sm ${l.attention ? 'font-medium text-orange-800' : 'text-slate-700'}`}>{l.metric}</span>
            <span className="mt-0.5 text-xs text-slate-500">{l.detail}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
