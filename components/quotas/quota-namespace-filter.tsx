'use client';

import { useRouter } from 'next/navigation';
import { pages } from '@/lib/api/routes';
import { NamespaceFilter } from '@/components/findings/namespace-filter';

const field = 'w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-900 shadow-sm focus:border-teal-600';

/**
 * The quota page's one namespace filter (the findings page's searchable field): it sets ?namespace=,
 * which the page applies to the gaps, the usage chart, the table and the counts alike.
 */
export function QuotaNamespaceFilter({ value, namespaces }: { value: string; namespaces: readonly { namespace: string; count: number }[] }) {
  const router = useRouter();
  return (
    <form role="search" aria-label="Filter quotas" className="flex flex-wrap items-end gap-x-3 gap-y-1" onSubmit={(e) => e.preventDefault()}>
      <div className="w-full max-w-xs">
        <label htmlFor="filter-namespace" className="mb-1 block text-xs font-medium text-slate-600">
          Namespace
        </label>
        <NamespaceFilter
          value={value}
          namespaces={namespaces}
          className={field}
          unit={{ one: 'quota or gap', many: 'quotas and gaps' }}
          onChange={(namespace) => router.push(pages.quotas(namespace || undefined), { scroll: false })}
        />
      </div>
      {value && (
        <a href={pages.quotas()} className="py-1.5 text-sm font-medium text-teal-800 hover:underline">
          All namespaces
        </a>
      )}
    </form>
  );
}
