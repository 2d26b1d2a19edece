'use client';

import { useEffect, useState } from 'react';

/** How long work may run before the page says what it is doing (shorter feels instant; longer looks stuck). */
export const SHOW_STATUS_AFTER_MS = 300;

/** Seconds since `busy` became true, once it has run for SHOW_STATUS_AFTER_MS (undefined before and when idle). */
function useSlowSeconds(busy: boolean): number | undefined {
  const [elapsed, setElapsed] = useState<number>();
  useEffect(() => {
    if (!busy) return;
    const started = Date.now();
    const show = () => setElapsed(Math.floor((Date.now() - started) / 1000));
    const first = setTimeout(show, SHOW_STATUS_AFTER_MS);
    const tick = setInterval(show, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(tick);
      setElapsed(undefined);
    };
  }, [busy]);
  return elapsed;
}

/**
 * A status line for work the server is doing: what it is, and for how long, shown after
 * SHOW_STATUS_AFTER_MS. The buttons it disables point at it (aria-describedby), so the reason they
 * are disabled is read out, not only shown dimmed.
 */
export function WorkStatus({ id, busy, text }: { id: string; busy: boolean; text: string }) {
  const seconds = useSlowSeconds(busy);
  const shown = busy && seconds !== undefined;
  return (
    <p
      id={id}
      role="status"
      aria-live="polite"
      className={shown ? 'flex items-center gap-2 text-sm text-slate-700' : 'sr-only'}
      data-testid={shown ? 'work-status' : undefined}
    >
      {shown && (
        <>
          <span aria-hidden="true" className="inline-block h-3 w-3 animate-spin rounded-full border-2 border-teal-700 border-t-transparent" />
          <span>
            {text}
            {seconds > 0 ? ` (${seconds} s)` : ''}
          </span>
        </>
      )}
    </p>
  );
}

/** "49,312 RBAC objects", for status lines. */
export function rbacObjectsText(count: number): string {
  return `${count.toLocaleString('en-US')} RBAC object${count === 1 ? '' : 's'}`;
}
