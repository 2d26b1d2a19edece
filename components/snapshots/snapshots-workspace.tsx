'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  SNAPSHOT_PART_LABELS,
  SNAPSHOT_PARTS,
  snapshotApi,
  type SnapshotDriftResponse,
  type SnapshotListResponse,
  type SnapshotRecord,
} from '@/lib/compliance/snapshot-api';
import { formatTime } from '@/components/shell/format-time';
import { ErrorPanel } from '@/components/ui/error-panel';
import { cn } from '@/components/ui/cn';
import { EmptyState, Panel } from '@/components/ui/panel';
import { ResponsiveTable, type TableColumn } from '@/components/ui/responsive-table';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiClientError, fetchJson } from '@/components/query/fetch-json';
import { DriftView } from './drift-view';
import { useCan } from '@/components/auth/viewer-context';

const LIST_KEY = ['snapshots'] as const;

async function take(): Promise<SnapshotRecord> {
  const res = await fetch(snapshotApi.take(), { method: 'POST' });
  const body = (await res.json().catch(() => null)) as (SnapshotRecord & { error?: { message: string } }) | null;
  if (!res.ok) throw new ApiClientError(body?.error?.message ?? `Request failed (HTTP ${res.status}).`, res.status, 'http');
  return body as SnapshotRecord;
}

const linkClass =
  'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-teal-600';
const selectClass = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm';

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.max(1, Math.round(bytes / 1024))} KiB`;
}

function snapshotLabel(s: SnapshotRecord): string {
  return `${formatTime(s.takenAt)} · ${s.sourceName} · ${s.findings} findings`;
}

function SnapshotSelect({ label, snapshots, value, onChange }: { label: string; snapshots: SnapshotRecord[]; value: string; onChange: (id: string) => void }) {
  return (
    <label className="flex max-w-full flex-col gap-1 text-sm">
      <span className="font-medium text-slate-700">{label}</span>
      <select className={cn(selectClass, 'max-w-full')} value={value} onChange={(e) => onChange(e.target.value)}>
        {snapshots.map((s) => (
          <option key={s.id} value={s.id}>
            {snapshotLabel(s)}
          </option>
        ))}
      </select>
    </label>
  );
}

const SNAPSHOT_COLUMNS: TableColumn<SnapshotRecord>[] = [
  {
    header: 'Taken',
    cell: (s) => (
      <>
        <div className="font-medium text-slate-900">{formatTime(s.takenAt)}</div>
        <div className="font-mono text-xs text-slate-500">{s.id}</div>
      </>
    ),
    className: 'py-2 pr-4',
    cellClassName: 'whitespace-nowrap',
  },
  { header: 'Source', cell: (s) => `${s.sourceKind} · ${s.sourceName}`, className: 'py-2 pr-4', cellClassName: 'break-words' },
  {
    header: 'Findings',
    cell: (s) => (
      <>
        {s.findings}
        <span className="text-xs text-slate-500">
          {' '}
          ({s.summary.critical} critical, {s.summary.high} high)
        </span>
      </>
    ),
    className: 'py-2 pr-4',
    cellClassName: 'whitespace-nowrap tabular-nums',
  },
  {
    header: 'Fingerprint',
    cell: (s) => <span title={s.fingerprint}>{s.fingerprint.slice(0, 16)}…</span>,
    className: 'py-2 pr-4',
    cellClassName: 'font-mono text-xs text-slate-600',
  },
  {
    header: 'Download',
    cell: (s) => (
      <div className="flex flex-wrap gap-x-3 gap-y-1">
        {SNAPSHOT_PARTS.map((part) => (
          <a key={part} href={snapshotApi.storedPart(s.id, part)} download className="text-teal-800 underline hover:text-teal-900">
            {part === 'bundle' ? `Bundle (${formatSize(s.size)})` : SNAPSHOT_PART_LABELS[part]}
            <span className="sr-only"> of {s.id}</span>
          </a>
        ))}
      </div>
    ),
    className: 'py-2',
  },
];

export function SnapshotsWorkspace({ initial, storeError }: { initial?: SnapshotListResponse; storeError?: string }) {
  const client = useQueryClient();
  const list = useQuery({
    queryKey: LIST_KEY,
    queryFn: ({ signal }) => fetchJson<SnapshotListResponse>(snapshotApi.list(), signal),
    initialData: initial,
    enabled: !storeError,
  });
  const taking = useMutation({ mutationFn: take, onSuccess: () => client.invalidateQueries({ queryKey: LIST_KEY }) });
  const canTake = useCan('create snapshots');
  const snapshots = list.data?.snapshots ?? [];
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [compared, setCompared] = useState<{ from: string; to: string }>();
  // Defaults: the two newest snapshots, older first.
  const fromId = from || snapshots[1]?.id || '';
  const toId = to || snapshots[0]?.id || '';
  const drift = useQuery({
    queryKey: ['snapshot-drift', compared?.from, compared?.to],
    queryFn: ({ signal }) => fetchJson<SnapshotDriftResponse>(snapshotApi.drift(compared!.from, compared!.to), signal),
    enabled: !!compared,
  });

  return (
    <div className="space-y-6">
      <Panel
        id="export"
        title="Export the current source"
        description="A bundle auditors can verify offline (dra-posture verify FILE), or one of the reports in it. Nothing is stored."
      >
        <div className="flex flex-wrap gap-2">
          {SNAPSHOT_PARTS.map((part) => (
            <a key={part} href={snapshotApi.currentPart(part)} download className={linkClass}>
              {SNAPSHOT_PART_LABELS[part]}
            </a>
          ))}
        </div>
      </Panel>

      <Panel
        id="history"
        title="History"
        description="Snapshots kept in the local store; each is the bundle as taken, so its downloads verify byte for byte."
        actions={
          canTake && (
            <button
              type="button"
              onClick={() => taking.mutate()}
              disabled={taking.isPending || !!storeError}
              className="rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
            >
              {taking.isPending ? 'Taking snapshot…' : 'Take snapshot'}
            </button>
          )
        }
      >
        {storeError && <ErrorPanel title="The snapshot store is unavailable" message={storeError} />}
        {taking.isError && <ErrorPanel title="The snapshot was not taken" message={taking.error.message} />}
        {taking.isSuccess && (
          <p role="status" className="mb-3 text-sm text-emerald-800">
            Took snapshot {taking.data.id}.
          </p>
        )}
        {!storeError && list.isPending && <Skeleton className="h-24" />}
        {list.isError && <ErrorPanel title="History could not be loaded" message={list.error.message} onRetry={() => list.refetch()} />}
        {!storeError && list.isSuccess && snapshots.length === 0 && (
          <EmptyState title="No snapshots yet">Take one to start a history; take another later to see what drifted.</EmptyState>
        )}
        {snapshots.length > 0 && (
          // Below md (768 px) each snapshot stacks into a card: when, source and findings, then its downloads.
          <ResponsiveTable
            caption="Stored snapshots, newest first"
            columns={SNAPSHOT_COLUMNS}
            rows={snapshots}
            rowKey={(s) => s.id}
            stackBelow="md"
            rowClassName="border-b border-slate-100"
            rowTestId="snapshot-row"
          />
        )}
      </Panel>

      <Panel
        id="drift"
        title="Drift"
        description="New and resolved findings, DRA permissions gained or lost per identity, node writers, quotas and zeroing between two snapshots."
      >
        {snapshots.length < 2 ? (
          <p className="text-sm text-slate-600">Take two snapshots to compare them.</p>
        ) : (
          <form
            className="mb-4 flex flex-wrap items-end gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              setCompared({ from: fromId, to: toId });
            }}
          >
            <SnapshotSelect label="From" snapshots={snapshots} value={fromId} onChange={setFrom} />
            <SnapshotSelect label="To" snapshots={snapshots} value={toId} onChange={setTo} />
            <button type="submit" className="rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800">
              Compare
            </button>
          </form>
        )}
        {compared && drift.isPending && <Skeleton className="h-24" />}
        {compared && drift.isError && <ErrorPanel title="Drift could not be computed" message={drift.error.message} onRetry={() => drift.refetch()} />}
        {compared && drift.isSuccess && <DriftView drift={drift.data} />}
      </Panel>
    </div>
  );
}
