'use client';

import type { ReactNode } from 'react';
import { describeAction, type DashboardAction } from '@/lib/api/dashboard-actions';
import { useCan } from './viewer-context';

/** Its children when the viewer may do the action; otherwise one line saying what is missing. */
export function WhenAllowed({ action, what, children }: { action: DashboardAction; what: string; children: ReactNode }) {
  if (useCan(action)) return <>{children}</>;
  return (
    <p className="text-sm text-slate-600" data-testid="not-allowed">
      Your account may not {what}: that needs <code className="rounded bg-slate-100 px-1 text-xs">{describeAction(action)}</code>.
    </p>
  );
}
