'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { fileProblem, sendRequest } from './send-file';

type Outcome =
  { kind: 'ok'; name: string; events: number; malformed: number; alerts: number } | { kind: 'cleared' } | { kind: 'error'; message: string } | undefined;

/** Uploads an audit log (JSON lines, EventList, or gzip) whose activity joins the current source's report. */
export function AuditUpload({ maxBytes, current, uploaded }: { maxBytes: number; current?: string; uploaded: boolean }) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();

  async function send(method: 'POST' | 'DELETE') {
    const file = input.current?.files?.[0];
    const problem = method === 'POST' ? fileProblem(file, maxBytes) : undefined;
    if (problem) {
      setOutcome({ kind: 'error', message: problem });
      return;
    }
    setBusy(true);
    setOutcome(undefined);
    const url = method === 'POST' && file ? `/api/v1/sources/audit?name=${encodeURIComponent(file.name)}` : '/api/v1/sources/audit';
    const r = await sendRequest<{ name?: string; events?: number; malformed?: number; alerts?: number }>(url, {
      method,
      body: method === 'POST' ? file : undefined,
    });
    if (!r.ok) setOutcome({ kind: 'error', message: r.message });
    else {
      setOutcome(
        method === 'POST'
          ? { kind: 'ok', name: r.body.name ?? file?.name ?? '', events: r.body.events ?? 0, malformed: r.body.malformed ?? 0, alerts: r.body.alerts ?? 0 }
          : { kind: 'cleared' },
      );
      router.refresh();
    }
    setBusy(false);
  }

  return (
    <div className="space-y-4">
      {current && <p className="text-sm text-slate-700">Now included: audit log {current}.</p>}
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium text-slate-700">Audit log (JSON lines, EventList, or .gz)</span>
          <input
            ref={input}
            type="file"
            accept=".log,.json,.jsonl,.gz,application/json,application/gzip,text/plain"
            className="text-sm file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-1.5"
          />
        </label>
        <button
          type="button"
          onClick={() => send('POST')}
          disabled={busy}
          className="rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
        >
          {busy ? 'Reading…' : 'Read this audit log'}
        </button>
        {uploaded && (
          <button
            type="button"
            onClick={() => send('DELETE')}
            disabled={busy}
            className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50"
          >
            Forget it
          </button>
        )}
      </div>
      {outcome?.kind === 'error' && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          Not read: {outcome.message}
        </p>
      )}
      {outcome?.kind === 'ok' && (
        <div role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          Read {outcome.name}: {outcome.events.toLocaleString('en-US')} events, {outcome.malformed} malformed line(s), {outcome.alerts} alert(s). See{' '}
          <Link href="/activity" className="font-medium underline">
            Activity
          </Link>
          .
        </div>
      )}
      {outcome?.kind === 'cleared' && (
        <p role="status" className="text-sm text-slate-700">
          The uploaded audit log is no longer included.
        </p>
      )}
    </div>
  );
}
