'use client';

import { useState } from 'react';
import { useViewer } from './viewer-context';

/** "Signed in as …" with the groups on hover and a sign-out button (sessions only; a proxy's token cannot sign out here). */
export function ViewerMenu() {
  const viewer = useViewer();
  const [error, setError] = useState<string>();
  if (viewer.auth === 'none') return null;
  async function signOut() {
    const res = await fetch('/api/v1/session', { method: 'DELETE' }).catch(() => undefined);
    if (!res?.ok) {
      setError('Sign-out failed; try again.');
      return;
    }
    window.location.assign('/sign-in');
  }
  return (
    <div className="text-xs text-slate-300" data-testid="viewer-menu">
      <p className="truncate" title={viewer.groups.length > 0 ? `groups: ${viewer.groups.join(', ')}` : undefined}>
        Signed in as <span className="font-medium text-white">{viewer.username}</span>
      </p>
      {viewer.via === 'session' ? (
        <button type="button" onClick={signOut} className="mt-1 rounded text-teal-300 underline hover:text-teal-200">
          Sign out
        </button>
      ) : (
        <p className="mt-1 text-slate-400">through the sign-in proxy</p>
      )}
      {error && (
        <p role="alert" className="mt-1 text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
