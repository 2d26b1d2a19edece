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
  type SnapshotTake,
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

async function take(): Promise<SnapshotTake> {
  const res = await fetch(snapshotApi.take(), { method: 'POST' });
  const body = (await res.json().catch(() => null)) as (SnapshotTake & { error?: { message: string } }) | null;
  if (!res.ok) throw new ApiClientError(body?.error?.message ?? `Request failed (HTTP ${res.status}).`, res.status, 'http');
  return body as SnapshotTake;
}

/** While a take's bundle is stored the history is asked again this often (its progress, then its downloads). */
const TAKE_POLL_MS = 1000;

/**
 * A row of the history: a stored snapshot, or a take not stored (being stored, or failed). A take
 * being stored can be compared (its digest is made first) but has nothing to download yet.
 */
type HistoryRow = SnapshotRecord & { take?: SnapshotTake };

const takeRow = (t: SnapshotTake): HistoryRow => ({ ...t, fingerprint: '', size: t.bytesStored, take: t });

const linkClass =
  'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-teal-600';
const selectClass = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm';

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.max(1, Math.round(bytes / 1024))} KiB`;
}

function snapshotLabel(s: HistoryRow): string {
  return `${formatTime(s.takenAt)} · ${s.sourceName} · ${s.findings} findings${s.take ? ' · bundle being stored' : ''}`;
}

function SnapshotSelect({ label, snapshots, value, onChange }: { label: string; snapshots: HistoryRow[]; value: string; onChange: (id: string) => void }) {
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

function TakeState({ take }: { take: SnapshotTake }) {
  if (take.status === 'failed')
    return (
      <p className="text-sm text-red-800">
        <span className="font-medium">Not taken:</span> {take.error}. Nothing of it was kept.
      </p>
    );
  return (
    <p className="text-sm text-slate-700">
      <span className="font-medium">Being taken:</span> {formatSize(take.bytesStored)} of its bundle stored. It can be compared now; its downloads follow when
      the bundle is stored whole.
    </p>
  );
}

const SNAPSHOT_COLUMNS: TableColumn<HistoryRow>[] = [
  {
    header: 'Taken',
    cell: (s) => (
      <>
        <div className="font-medium text-slate-900">{formatTime(s.takenAt)}</div>
        <div className="font-mono text-xs text-slate-500">{s.id}</div>
        {s.take && (
          <div className={cn('text-xs font-medium', s.take.status === 'failed' ? 'text-red-800' : 'text-amber-800')}>
            {s.take.status === 'failed' ? 'Failed' : 'Being taken'}
          </div>
        )}
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
    cell: (s) => (s.take ? '–' : <span title={s.fingerprint}>{s.fingerprint.slice(0, 16)}…</span>),
    className: 'py-2 pr-4',
    cellClassName: 'font-mono text-xs text-slate-600',
  },
  {
    header: 'Download',
    cell: (s) =>
      s.take ? (
        <TakeState take={s.take} />
      ) : (
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

/** What the status line says of the take the user started. */
function TakeStatus({ take }: { take: SnapshotTake }) {
  if (take.status === 'failed') return <ErrorPanel title="The snapshot was not taken" message={take.error ?? 'unknown error'} />;
  return (
    <p role="status" className="mb-3 text-sm text-emerald-800">
      {take.status === 'stored'
        ? `Took snapshot ${take.storedId}.`
        : `Taking snapshot ${take.id}: it can be compared now; its bundle is being stored (${formatSize(take.bytesStored)} so far).`}
    </p>
  );
}

export function SnapshotsWorkspace({ initial, storeError }: { initial?: SnapshotListResponse; storeError?: string }) {
  const client = useQueryClient();
  const list = useQuery({
    queryKey: LIST_KEY,
    queryFn: ({ signal }) => fetchJson<SnapshotListResponse>(snapshotApi.list(), signal),
    initialData: initial,
    enabled: !storeError,
    refetchInterval: (q) => (q.state.data?.takes?.some((t) => t.status === 'taking') ? TAKE_POLL_MS : false),
  });
  const taking = useMutation({
    mutationFn: take,
    onSuccess: (started) => {
      // The row shows at once; the list is asked again for the take's progress.
      client.setQueryData<SnapshotListResponse>(
        LIST_KEY,
        (old) => old && { ...old, takes: [started, ...(old.takes ?? []).filter((t) => t.id !== started.id)] },
      );
      return client.invalidateQueries({ queryKey: LIST_KEY });
    },
  });
  const canTake = useCan('create snapshots');
  const takes = list.data?.takes ?? [];
  const snapshots: HistoryRow[] = [...takes.filter((t) => t.status !== 'stored').map(takeRow), ...(list.data?.snapshots ?? [])];
  // A take being stored can be compared; a failed one cannot.
  const comparable = snapshots.filter((s) => s.take?.status !== 'failed');
  const started = taking.data && (takes.find((t) => t.id === taking.data.id) ?? taking.data);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [compared, setCompared] = useState<{ from: string; to: string }>();
  // A chosen take that has since been stored is its snapshot; one no longer listed falls back to the default.
  const chosen = (id: string) => {
    const storedId = takes.find((t) => t.id === id)?.storedId;
    const resolved = storedId ?? id;
    return comparable.some((s) => s.id === resolved) ? resolved : '';
  };
  // Defaults: the two newest snapshots, older first.
  const fromId = chosen(from) || comparable[1]?.id || '';
  const toId = chosen(to) || comparable[0]?.id || '';
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
        {started && <TakeStatus take={started} />}
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
        {comparable.length < 2 ? (
          <p className="text-sm text-slate-600">Take two snapshots to compare them.</p>
        ) : (
          <form
            className="mb-4 flex flex-wrap items-end gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              setCompared({ from: fromId, to: toId });
            }}
          >
            <SnapshotSelect label="From" snapshots={comparable} value={fromId} onChange={setFrom} />
            <SnapshotSelect label="To" snapshots={comparable} value={toId} onChange={setTo} />
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
