'use client';

import { Bar, BarChart, CartesianGrid, Cell, Tooltip, XAxis, YAxis } from 'recharts';
import { SEVERITIES, type Severity } from '@/lib/analysis/types';
import { formatCount } from '@/lib/analysis/issues/count-text';
import { SEVERITY_COLOR, SEVERITY_LABEL } from '@/components/ui/severity';

/** Findings per severity as bars. The numbers are also on the page as text (the chart is decorative for AT). */
export function SeverityBarChart({ summary }: { summary: Record<Severity, number> }) {
  const data = SEVERITIES.map((s) => ({ severity: SEVERITY_LABEL[s], key: s, count: summary[s] }));
  // Room for the longest tick label ("16,000" on a large cluster, "12" on the demo) and no more.
  const widest = formatCount(Math.max(...data.map((d) => d.count))).length + 1;
  return (
    <div aria-hidden="true" className="h-48 w-full">
      <BarChart responsive accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} style={{ width: '100%', height: '100%' }}>
        <CartesianGrid vertical={false} stroke="#e2e8f0" />
        <XAxis dataKey="severity" tickLine={false} axisLine={false} tick={{ fill: '#475569', fontSize: 12 }} />
        <YAxis
          allowDecimals={false}
          tickLine={false}
          axisLine={false}
          tick={{ fill: '#64748b', fontSize: 12 }}
          tickFormatter={(v: number) => formatCount(v)}
          width={7 * widest + 8}
        />
        <Tooltip
          cursor={{ fill: '#f1f5f9' }}
          contentStyle={{ borderRadius: 6, borderColor: '#e2e8f0', fontSize: 12 }}
          formatter={(v) => (typeof v === 'number' ? formatCount(v) : v)}
        />
        <Bar dataKey="count" name="Findings" radius={[4, 4, 0, 0]} maxBarSize={56} isAnimationActive={false}>
          {data.map((d) => (
            <Cell key={d.key} fill={SEVERITY_COLOR[d.key]} />
          ))}
        </Bar>
      </BarChart>
    </div>
  );
}
