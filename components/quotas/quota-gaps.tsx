'use client';

import Link from 'next/link';
import { useState } from 'react';
import { pages } from '@/lib/api/routes';
import type { QuotaGapGroup, QuotaGapView } from '@/lib/view/quota-gaps';
import { EmptyState } from '@/components/ui/panel';

/** Namespaces a group lists at first, and adds per "show more". */
const FIRST = 12;

const count = (n: number) => n.toLocaleString('en-US');

function groupTitle(g: QuotaGapGroup): string {
  return g.check === 'QUOTA001' ? 'No claim-count quota' : `No devices quota for DeviceClass ${g.deviceClass}`;
}

function groupDetail(g: QuotaGapGroup): string {
  return g.check === 'QUOTA001'
    ? 'count/resourceclaims.resource.k8s.io is unlimited: the tenant can create claims (and pin devices) without bound'
    : `${g.deviceClass}.deviceclass.resource.k8s.io/devices is unlimited: nothing caps how many of these devices the tenant holds`;
}

function GapGroup({ group, namespace }: { group: QuotaGapGroup; namespace: string }) {
  const [shown, setShown] = useState(FIRST);
  const list = group.namespaces.slice(0, shown);
  const carried = group.namespaces.length;
  const findings = pages.findings({ check: group.check, ...(namespace ? { namespace } : {}), ...(group.deviceClass ? { q: group.deviceClass } : {}) });
  return (
    <li className="py-3" data-testid="quota-gap-group">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h3 className="text-sm font-semibold text-slate-900">
          <span className="font-mono text-xs text-slate-500">{group.check}</span> {groupTitle(group)}
        </h3>
        <span className="text-sm tabular-nums text-slate-700">
          <span className="font-semibold">{count(group.total)}</span> namespace{group.total === 1 ? '' : 's'}
        </span>
      </div>
      <p className="mt-0.5 text-xs text-slate-600">{groupDetail(group)}</p>
      <ul className="mt-2 flex flex-wrap gap-1.5" aria-label={`Namespaces: ${groupTitle(group)}`}>
        {list.map((n) => (
          <li key={n.namespace}>
            <Link
              href={pages.finding(n.findingId)}
              className="inline-flex items-baseline gap-1.5 rounded-full border border-slate-200 bg-white px-2.5 py-0.5 text-xs hover:border-teal-600/50"
            >
              <span className="break-all font-mono text-slate-800">{n.namespace}</span>
              <span className="text-slate-500">
                {n.claims} claim{n.claims === 1 ? '' : 's'}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
        {group.total > list.length && (
          <span>
            Showing {count(list.length)} of {count(group.total)}, most claims first
          </span>
        )}
        {carried > list.length && (
          <button type="button" onClick={() => setShown((s) => s + FIRST * 2)} className="font-medium text-teal-800 hover:underline">
            Show more
          </button>
        )}
        {group.total > carried && list.length === carried && (
          <Link href={findings} className="font-medium text-teal-800 hover:underline">
            All {count(group.total)} in the findings list
          </Link>
        )}
      </p>
    </li>
  );
}

/** QUOTA001/QUOTA002 gaps, grouped: the claim count, then each DeviceClass; counts and the first namespaces of each. */
export function QuotaGaps({ view, namespace }: { view: QuotaGapView; namespace: string }) {
  if (view.groups.length === 0)
    return (
      <EmptyState title={namespace ? `Namespace ${namespace} has DRA quota` : 'Every tenant has DRA quota'}>
        No QUOTA001 or QUOTA002 finding{namespace ? ' in this namespace' : ''}.
      </EmptyState>
    );
  return (
    <ul className="divide-y divide-slate-100" data-testid="quota-gaps">
      {view.groups.map((g) => (
        <GapGroup key={g.key} group={g} namespace={namespace} />
      ))}
    </ul>
  );
}
