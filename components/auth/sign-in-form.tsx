'use client';

import { useState, type FormEvent } from 'react';

/** Only paths of this site: a `next` parameter must not send the browser elsewhere after sign-in. */
function safeNext(next: string | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || next.startsWith('/sign-in')) return '/';
  return next;
}

export function SignInForm({ next, ended }: { next?: string; ended: boolean }) {
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const res = await fetch('/api/v1/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
      if (res.ok) {
        window.location.assign(safeNext(next));
        return;
      }
      const body = (await res.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
      setError(body?.error?.message ?? `Sign-in failed (HTTP ${res.status}).`);
    } catch {
      setError('The dashboard did not answer; check that it is still running.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-describedby="sign-in-help">
      {ended && (
        <p role="status" className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Your session ended or your token is no longer accepted. Sign in again.
        </p>
      )}
      <div>
        <label htmlFor="token" className="block text-sm font-medium text-slate-800">
          Kubernetes bearer token
        </label>
        <textarea
          id="token"
          name="token"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          required
          rows={4}
          spellCheck={false}
          autoComplete="off"
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-xs shadow-sm focus:border-teal-600 focus:outline-none focus:ring-1 focus:ring-teal-600"
        />
      </div>
      <p id="sign-in-help" className="text-sm text-slate-600">
        For example <code className="rounded bg-slate-100 px-1">kubectl create token NAME -n NAMESPACE</code>, or the token your identity provider issues. The
        API server checks it (TokenReview) and decides what you may see and do (SubjectAccessReview on dra-posture.io); the token stays on this server and your
        browser keeps only a session cookie.
      </p>
      {error && (
        <p role="alert" className="rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={busy || token.trim() === ''}
        className="rounded-md bg-teal-700 px-4 py-2 text-sm font-semibold text-white hover:bg-teal-800 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {busy ? 'Checking the token…' : 'Sign in'}
      </button>
    </form>
  );
}
