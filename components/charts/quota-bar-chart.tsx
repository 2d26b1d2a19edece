'use client';

import { Bar, BarChart, CartesianGrid, Cell, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';

export interface QuotaChartRow {
  key: string;
  label: string;
  percent: number;
}

const colour = (p: number) => (p >= 100 ? '#b91c1c' : p >= 90 ? '#ea580c' : p >= 75 ? '#ca8a04' : '#0f766e');

/** Usage of each DRA quota as a percentage of its hard limit (the table beside it has the numbers). */
export function QuotaBarChart({ rows }: { rows: QuotaChartRow[] }) {
  const height = Math.max(160, rows.length * 30 + 40);
  return (
    <>
      <NarrowQuotaBars rows={rows} />
      <div aria-hidden="true" className="w-full max-md:hidden" style={{ height }}>
        <BarChart
          responsive
          accessibilityLayer={false}
          layout="vertical"
          data={rows}
          margin={{ top: 4, right: 24, bottom: 4, left: 8 }}
          style={{ width: '100%', height: '100%' }}
        >
          <CartesianGrid horizontal={false} stroke="#e2e8f0" />
          <XAxis
            type="number"
            domain={[0, (max: number) => Math.max(100, Math.ceil(max / 10) * 10)]}
            unit="%"
            tickLine={false}
            axisLine={false}
            tick={{ fill: '#64748b', fontSize: 12 }}
          />
          <YAxis type="category" dataKey="label" width={300} tickLine={false} axisLine={false} tick={{ fill: '#334155', fontSize: 12 }} />
          <Tooltip
            cursor={{ fill: '#f1f5f9' }}
            formatter={(v) => [`${v}%`, 'of hard limit']}
            contentStyle={{ borderRadius: 6, borderColor: '#e2e8f0', fontSize: 12 }}
          />
          <ReferenceLine x={90} stroke="#ea580c" strokeDasharray="4 4" label={{ value: '90%', position: 'top', fill: '#9a3412', fontSize: 11 }} />
          <Bar dataKey="percent" radius={[0, 4, 4, 0]} maxBarSize={18} isAnimationActive={false}>
            {rows.map((r) => (
              <Cell key={r.key} fill={colour(r.percent)} />
            ))}
          </Bar>
        </BarChart>
      </div>
    </>
  );
}

/**
 * Below md (768 px) the chart's 300 px label column leaves no room for bars, and a narrower one would
 * fold a long class name into a row 30 px high; each label goes on its own line above its bar instead.
 */
function NarrowQuotaBars({ rows }: { rows: QuotaChartRow[] }) {
  const max = Math.max(100, ...rows.map((r) => r.percent));
  return (
    <ul aria-hidden="true" className="space-y-2 md:hidden">
      {rows.map((r) => (
        <li key={r.key}>
          <span className="flex items-baseline justify-between gap-3 text-xs text-slate-700">
            <span className="min-w-0 break-words">{r.label}</span>
            <span className="shrink-0 tabular-nums text-slate-600">{r.percent}%</span>
          </span>
          <span className="relative mt-1 block h-2 rounded-full bg-slate-100">
            <span className="block h-full rounded-full" style={{ width: `${(Math.min(r.percent, max) / max) * 100}%`, background: colour(r.percent) }} />
            {/* The 90% line of the chart. */}
            <span className="absolute inset-y-[-2px] border-l border-dashed border-orange-600" style={{ left: `${(90 / max) * 100}%` }} />
          </span>
        </li>
      ))}
    </ul>
  );
}
