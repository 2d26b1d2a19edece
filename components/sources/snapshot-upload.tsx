'use client';

import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';

type Outcome = { kind: 'ok'; name: string; objects: number; warnings: string[] } | { kind: 'error'; message: string } | undefined;

/** Uploads a snapshot file (kubectl -o json, a List, or multi-document YAML) to become the source. */
export function SnapshotUpload({ maxBytes }: { maxBytes: number }) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();

  async function upload() {
    const file = input.current?.files?.[0];
    if (!file) {
      setOutcome({ kind: 'error', message: 'Choose a file first.' });
      return;
    }
    if (file.size > maxBytes) {
      setOutcome({ kind: 'error', message: `${file.name} is ${file.size.toLocaleString('en-US')} bytes; the limit is ${maxBytes.toLocaleString('en-US')}.` });
      return;
    }
    setBusy(true);
    setOutcome(undefined);
    try {
      const res = await fetch(`/api/v1/sources/upload?name=${encodeURIComponent(file.name)}`, { method: 'POST', body: file });
      const body = (await res.json()) as { source?: { name: string }; objects?: number; warnings?: string[]; error?: { message: string } };
      if (!res.ok) setOutcome({ kind: 'error', message: body.error?.message ?? `upload failed (HTTP ${res.status})` });
      else {
        setOutcome({ kind: 'ok', name: body.source?.name ?? file.name, objects: body.objects ?? 0, warnings: body.warnings ?? [] });
        router.refresh();
      }
    } catch {
      setOutcome({ kind: 'error', message: 'The server did not answer.' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium text-slate-700">Snapshot file (JSON, YAML or a .tar bundle)</span>
          <input
            ref={input}
            type="file"
            accept=".json,.yaml,.yml,.tar,application/json,text/yaml,application/x-tar"
            className="text-sm file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-1.5"
          />
        </label>
        <button
          type="button"
          onClick={upload}
          disabled={busy}
          className="rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
        >
          {busy ? 'Loading…' : 'Use this snapshot'}
        </button>
      </div>
      {outcome?.kind === 'error' && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          Not loaded: {outcome.message}
        </p>
      )}
      {outcome?.kind === 'ok' && (
        <div role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          Now showing snapshot {outcome.name} ({outcome.objects.toLocaleString('en-US')} nodes, pods, RBAC objects and claims).
          {outcome.warnings.length > 0 && ` ${outcome.warnings.length} warning(s): see the banner.`}
        </div>
      )}
    </div>
  );
}
