'use client';

import { useState } from 'react';

/** Copies text to the clipboard; announces the result to screen readers. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2000);
  };
  return (
    <button
      type="button"
      onClick={copy}
      className="inline-flex items-center gap-1 rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-700 shadow-sm hover:bg-slate-50"
    >
      {label}
      <span role="status" aria-live="polite" className="text-slate-500">
        {state === 'copied' ? '· copied' : state === 'failed' ? '· copy failed' : ''}
      </span>
    </button>
  );
}
