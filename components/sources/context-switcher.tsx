'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ApiClientError, postJson } from '@/components/query/fetch-json';

export interface ContextRow {
  name: string;
  server: string;
  current: boolean;
}

type Outcome = { kind: 'ok'; text: string } | { kind: 'error'; message: string } | undefined;

/** Switches the dashboard to the demo or to a context of the server's kubeconfig (by name only). */
export function ContextSwitcher({ contexts, selected, overridden }: { contexts: ContextRow[]; selected?: string; overridden: boolean }) {
  const router = useRouter();
  const [busy, setBusy] = useState<string>();
  const [outcome, setOutcome] = useState<Outcome>();

  async function post(url: string, body: unknown, label: string, done: string) {
    setBusy(label);
    setOutcome(undefined);
    try {
      await postJson(url, body);
      setOutcome({ kind: 'ok', text: done });
      router.refresh();
    } catch (e) {
      setOutcome({ kind: 'error', message: e instanceof ApiClientError ? e.message : 'The dashboard server could not be reached.' });
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <div className="space-y-4">
      {contexts.length === 0 ? (
        <p className="text-sm text-slate-600">
          The server has no kubeconfig (DRA_POSTURE_KUBECONFIG, $KUBECONFIG or ~/.kube/config), so there are no live contexts to choose.
        </p>
      ) : (
        <table className="min-w-full text-sm">
          <caption className="sr-only">Contexts of the server&apos;s kubeconfig</caption>
          <thead>
            <tr className="text-left text-xs uppercase tracking-wide text-slate-500">
              <th scope="col" className="py-2 pr-4 font-medium">
                Context
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                API server
              </th>
              <th scope="col" className="py-2 font-medium">
                <span className="sr-only">Action</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {contexts.map((c) => (
              <tr key={c.name}>
                <td className="py-2 pr-4 font-mono text-slate-900">
                  {c.name}
                  {c.current && <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 font-sans text-xs text-slate-600">kubeconfig default</span>}
                </td>
                <td className="py-2 pr-4 font-mono text-slate-600">{c.server || '–'}</td>
                <td className="py-2 text-right">
                  {selected === c.name ? (
                    <span className="text-xs font-medium text-emerald-800">showing</span>
                  ) : (
                    <button
                      type="button"
                      disabled={!!busy}
                      onClick={() => post('/api/v1/sources/select', { kind: 'context', name: c.name }, c.name, `Now showing context ${c.name}, read live.`)}
                      className="rounded-md border border-slate-300 px-3 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50"
                      aria-label={`Use context ${c.name}`}
                    >
                      {busy === c.name ? 'Connecting…' : 'Use'}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          disabled={!!busy}
          onClick={() => post('/api/v1/sources/select', { kind: 'demo' }, 'demo', 'Now showing the bundled demo cluster.')}
          className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50"
        >
          Use the demo cluster
        </button>
        {overridden && (
          <button
            type="button"
            disabled={!!busy}
            onClick={() => post('/api/v1/sources/reset', {}, 'reset', 'Back to the source the server was started with.')}
            className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50"
          >
            Back to the configured source
          </button>
        )}
      </div>
      {outcome?.kind === 'error' && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          Not switched: {outcome.message}
        </p>
      )}
      {outcome?.kind === 'ok' && (
        <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {outcome.text}
        </p>
      )}
    </div>
  );
}
