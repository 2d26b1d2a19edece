import type { Severity } from '@/lib/analysis/types';
import { cn } from './cn';

export const SEVERITY_LABEL: Record<Severity, string> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low', info: 'Info' };

const BADGE: Record<Severity, string> = {
  critical: 'bg-sev-critical-soft text-sev-critical-text ring-sev-critical/30',
  high: 'bg-sev-high-soft text-sev-high-text ring-sev-high/30',
  medium: 'bg-sev-medium-soft text-sev-medium-text ring-sev-medium/30',
  low: 'bg-sev-low-soft text-sev-low-text ring-sev-low/30',
  info: 'bg-sev-info-soft text-sev-info-text ring-sev-info/30',
};

const DOT: Record<Severity, string> = {
  critical: 'bg-sev-critical',
  high: 'bg-sev-high',
  medium: 'bg-sev-medium',
  low: 'bg-sev-low',
  info: 'bg-sev-info',
};

/** Hex colours of the severity tokens, for charts (SVG fills). */
export const SEVERITY_COLOR: Record<Severity, string> = {
  critical: '#b91c1c',
  high: '#ea580c',
  medium: '#ca8a04',
  low: '#2563eb',
  info: '#64748b',
};

export function SeverityBadge({ severity, className }: { severity: Severity; className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', BADGE[severity], className)}>
      <span aria-hidden="true" className={cn('size-1.5 rounded-full', DOT[severity])} />
      {SEVERITY_LABEL[severity]}
    </span>
  );
}

export function SeverityDot({ severity }: { severity: Severity }) {
  return <span aria-hidden="true" className={cn('inline-block size-2 rounded-full', DOT[severity])} />;
}
