import type { ActivityBucket } from '@/lib/audit/activity-types';

/** DRA writes per hour, allowed and denied, as horizontal bars (every category together). */
export function ActivityTimeline({ buckets }: { buckets: ActivityBucket[] }) {
  const hours = new Map<string, { allowed: number; denied: number }>();
  for (const b of buckets) {
    const h = hours.get(b.start) ?? { allowed: 0, denied: 0 };
    h.allowed += b.allowed;
    h.denied += b.denied;
    hours.set(b.start, h);
  }
  const rows = [...hours].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  if (rows.length === 0) return <p className="text-sm text-slate-500">No DRA writes in this window.</p>;
  const max = Math.max(1, ...rows.map(([, h]) => h.allowed + h.denied));
  return (
    <ol className="space-y-1.5" aria-label="DRA writes per hour">
      {rows.slice(-48).map(([start, h]) => (
        <li key={start} className="flex items-center gap-3 text-xs">
          <span className="w-36 shrink-0 font-mono text-slate-600">{start.slice(0, 13).replace('T', ' ')}:00Z</span>
          <span className="flex h-3 flex-1 overflow-hidden rounded bg-slate-100" aria-hidden="true">
            <span className="h-full bg-teal-600" style={{ width: `${(h.allowed / max) * 100}%` }} />
            <span className="h-full bg-sev-critical" style={{ width: `${(h.denied / max) * 100}%` }} />
          </span>
          <span className="w-32 shrink-0 tabular-nums text-slate-700">
            {h.allowed} allowed · <span className={h.denied > 0 ? 'font-semibold text-red-800' : ''}>{h.denied} denied</span>
          </span>
        </li>
      ))}
    </ol>
  );
}
