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
    <div aria-hidden="true" className="w-full" style={{ height }}>
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
  );
}
