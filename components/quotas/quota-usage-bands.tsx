import type { QuotaUsageBands } from '@/lib/view/quota-view';
import { cn } from '@/components/ui/cn';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * How many quotas sit in each usage band: at 15,000 quotas the distribution says what 25 bars cannot.
 * Only a band with quotas in it at 90% or more is drawn as needing attention.
 */
export function QuotaUsageBandsRow({ bands }: { bands: QuotaUsageBands }) {
  const items = [
    { label: 'Full (100% or more)', value: bands.full, alarm: bands.full > 0 },
    { label: '90–99%', value: bands.near, alarm: bands.near > 0 },
    { label: '75–89%', value: bands.high, alarm: false },
    { label: 'Below 75%', value: bands.below, alarm: false },
    ...(bands.unknown ? [{ label: 'No ratio (hard 0)', value: bands.unknown, alarm: false }] : []),
  ];
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-5" data-testid="quota-usage-bands">
      {items.map((i) => (
        <div key={i.label} className="rounded-md border border-slate-200 px-3 py-2">
          <dt className="text-xs text-slate-500">{i.label}</dt>
          <dd className={cn('text-lg font-semibold tabular-nums', i.alarm ? 'text-orange-800' : 'text-slate-900')}>{count(i.value)}</dd>
        </div>
      ))}
    </dl>
  );
}
