'use client';

import { useEffect, useRef } from 'react';
import type { DrawConfirmation } from '@/lib/graph/types';

/**
 * Asked before a view with more boxes than the threshold is drawn: the server counted them without
 * laying them out. "Draw anyway" asks again for the view, agreeing to that many boxes.
 */
export function DrawConfirm({ confirm, onDraw, onCancel }: { confirm: DrawConfirmation; onDraw: () => void; onCancel: () => void }) {
  // Focus starts on Cancel: Enter on a reflex should not start a minute-long drawing.
  const cancelButton = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelButton.current?.focus(), []);
  const boxes = confirm.boxes.toLocaleString('en-US');
  return (
    <div
      role="alertdialog"
      aria-labelledby="draw-confirm-title"
      aria-describedby="draw-confirm-text"
      className="mx-auto mt-10 max-w-md rounded-lg border border-amber-300 bg-amber-50 px-5 py-4 shadow-sm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
    >
      <h3 id="draw-confirm-title" className="text-sm font-semibold text-amber-950">
        A large view
      </h3>
      <p id="draw-confirm-text" className="mt-1 text-sm text-amber-950">
        This draws {boxes} boxes and may take a minute. Draw anyway?
      </p>
      <p className="mt-1 text-xs text-amber-900">
        Views of more than {confirm.threshold.toLocaleString('en-US')} boxes ask first. Focusing on one identity, role or resource shows its paths without
        drawing the rest.
      </p>
      <div className="mt-3 flex gap-2">
        <button type="button" onClick={onDraw} className="rounded-md bg-amber-800 px-3 py-1.5 text-sm font-medium text-white hover:bg-amber-900">
          Draw {boxes} boxes
        </button>
        <button
          ref={cancelButton}
          type="button"
          onClick={onCancel}
          className="rounded-md border border-amber-400 bg-white px-3 py-1.5 text-sm font-medium text-amber-950 hover:bg-amber-100"
        >
          Cancel
        </button>
      </div>
    </div>
  );
}
