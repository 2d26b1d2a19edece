import { SEVERITIES, type Severity } from '@/lib/analysis/types';

// The severity summary as a self-contained SVG (horizontal bars), for printable reports.

export const SEVERITY_COLOURS: Record<Severity, string> = {
  critical: '#b91c1c',
  high: '#c2410c',
  medium: '#a16207',
  low: '#1d4ed8',
  info: '#475569',
};

export function summaryChartSvg(summary: Record<Severity, number>): string {
  const rowHeight = 28;
  const labelWidth = 80;
  const barWidth = 360;
  const width = labelWidth + barWidth + 70;
  const height = SEVERITIES.length * rowHeight + 8;
  const max = SEVERITIES.reduce((m, s) => Math.max(m, summary[s] ?? 0), 1);
  const rows = SEVERITIES.map((s, i) => {
    const n = summary[s] ?? 0;
    const y = 4 + i * rowHeight;
    const w = n === 0 ? 0 : Math.max(2, Math.round((n / max) * barWidth));
    return (
      `<text x="0" y="${y + 18}" font-size="13" fill="#0f172a">${s}</text>` +
      `<rect x="${labelWidth}" y="${y + 4}" width="${barWidth}" height="18" fill="#f1f5f9"/>` +
      `<rect x="${labelWidth}" y="${y + 4}" width="${w}" height="18" fill="${SEVERITY_COLOURS[s]}"/>` +
      `<text x="${labelWidth + barWidth + 8}" y="${y + 18}" font-size="13" fill="#0f172a">${n}</text>`
    );
  }).join('');
  const total = SEVERITIES.reduce((n, s) => n + (summary[s] ?? 0), 0);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" ` +
    `aria-label="Findings by severity: ${SEVERITIES.map((s) => `${summary[s] ?? 0} ${s}`).join(', ')} (${total} in all)" font-family="sans-serif">${rows}</svg>`
  );
}
