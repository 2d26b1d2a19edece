'use client';

import { cn } from '@/components/ui/cn';

export const STEPS = ['Persona', 'Identity', 'Drivers', 'Scope', 'Review'] as const;

/** The step list: where you are, and a way back to any earlier step. */
export function WizardSteps({ current, reachable, onSelect }: { current: number; reachable: number; onSelect: (i: number) => void }) {
  return (
    <nav aria-label="Role builder steps" className="mb-6">
      <ol className="flex flex-wrap gap-2">
        {STEPS.map((label, i) => (
          <li key={label}>
            <button
              type="button"
              onClick={() => onSelect(i)}
              disabled={i > reachable}
              aria-current={i === current ? 'step' : undefined}
              className={cn(
                'flex items-center gap-2 rounded-full border px-3 py-1.5 text-sm font-medium',
                i === current
                  ? 'border-teal-700 bg-teal-700 text-white'
                  : i <= reachable
                    ? 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50'
                    : 'border-slate-200 bg-slate-50 text-slate-400',
              )}
            >
              <span aria-hidden="true" className="tabular-nums">
                {i + 1}
              </span>
              {label}
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
