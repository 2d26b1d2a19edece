'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { queryKeys } from '@/lib/api/query-keys';
import { checkApprovedYaml } from '@/lib/role-builder/approval';
import type { ApprovalsResponse } from '@/lib/role-builder/dto';
import { fetchJson } from '@/components/query/fetch-json';
import { ErrorPanel } from '@/components/ui/error-panel';
import { EmptyState, Panel, Tag } from '@/components/ui/panel';
import { ResponsiveTable, type TableColumn } from '@/components/ui/responsive-table';
import { INPUT, SECONDARY } from './field';
import { downloadText } from './download-text';

type Approval = ApprovalsResponse['approvals'][number];

/** Decision, who for, who decided and when, the YAML's hash, and the approved export; `currentFingerprint` flags decisions on an older cluster. */
function decisionColumns(currentFingerprint: string): TableColumn<Approval>[] {
  return [
    {
      header: 'Decision',
      cell: (a) => <Tag tone={a.decision === 'approve' ? 'green' : 'red'}>{a.decision === 'approve' ? 'approved' : 'rejected'}</Tag>,
      headerClassName: 'py-1 pr-3',
      cellClassName: 'py-2 pr-3',
    },
    {
      header: 'Persona and identity',
      cell: (a) => (
        <>
          <span className="font-mono text-xs">{a.persona}</span>
          <span className="block">{a.identity}</span>
        </>
      ),
      headerClassName: 'py-1 pr-3',
      cellClassName: 'py-2 pr-3 text-slate-800',
    },
    {
      header: 'By, when, comment',
      cell: (a) => (
        <>
          {a.approver}
          <span className="block text-xs text-slate-500">{a.at}</span>
          {a.comment && <span className="block text-xs text-slate-600">{a.comment}</span>}
          {a.sourceFingerprint !== currentFingerprint && <span className="block text-xs text-amber-800">The cluster has changed since this decision.</span>}
        </>
      ),
      headerClassName: 'py-1 pr-3',
      cellClassName: 'py-2 pr-3 text-slate-800',
    },
    {
      header: 'YAML SHA-256',
      cell: (a) => <span title={a.yamlSha256}>{a.yamlSha256.slice(0, 16)}…</span>,
      headerClassName: 'py-1 pr-3',
      cellClassName: 'py-2 pr-3 font-mono text-xs text-slate-600',
      labelInCard: true,
    },
    {
      header: 'Export',
      cell: (a) =>
        a.approvedYaml ? (
          <button type="button" className={SECONDARY} onClick={() => downloadText(`${a.persona}-approved.yaml`, a.approvedYaml!)}>
            Download
          </button>
        ) : (
          <span className="text-xs text-slate-500">{a.decision === 'approve' ? 'no longer produced by this version' : '—'}</span>
        ),
      headerClassName: 'py-1',
      cellClassName: 'py-2',
      hiddenInCard: (a) => !a.approvedYaml && a.decision !== 'approve',
    },
  ];
}

/** Every recorded decision, newest first, and a check of an exported YAML against them. */
export function RoleHistory() {
  const q = useQuery({ queryKey: queryKeys.roleApprovals(), queryFn: ({ signal }) => fetchJson<ApprovalsResponse>('/api/v1/role-builder/approvals', signal) });
  const [text, setText] = useState('');
  if (q.isPending) return <p className="text-sm text-slate-600">Loading decisions…</p>;
  if (q.isError) return <ErrorPanel title="Decisions could not be read" message={q.error.message} onRetry={() => void q.refetch()} />;
  const { approvals, currentFingerprint } = q.data;
  const check = text.trim() ? checkApprovedYaml(text, approvals) : undefined;
  return (
    <div className="space-y-6">
      <Panel id="decisions" title={`Decisions (${approvals.length})`} description="Stored in the embedded store; they survive restarts.">
        {/* Below md (768 px) each decision stacks into a card: five columns do not fit a phone. */}
        <ResponsiveTable
          caption="Recorded decisions, newest first"
          columns={decisionColumns(currentFingerprint)}
          rows={approvals}
          rowKey={(a) => a.id}
          stackBelow="md"
          headClassName="text-xs text-slate-500"
          empty={<EmptyState title="No decisions yet">Build a role and approve or reject it on the Role builder page.</EmptyState>}
        />
      </Panel>
      <Panel
        id="verify"
        title="Check an exported YAML"
        description="Paste an approved export: it is valid only if it is byte-for-byte what was approved (apart from the approval annotations)."
      >
        <label htmlFor="verify-yaml" className="sr-only">
          Exported YAML
        </label>
        <textarea id="verify-yaml" rows={6} className={`${INPUT} font-mono`} value={text} onChange={(e) => setText(e.target.value)} />
        {check && (
          <p role="status" className="mt-3 text-sm">
            {check.status === 'valid' && (
              <Tag tone="green">
                valid: approved by {check.record.approver} at {check.record.at}
              </Tag>
            )}
            {check.status === 'rejected' && <Tag tone="red">rejected by {check.record.approver}</Tag>}
            {check.status === 'modified' && <Tag tone="red">invalid: the YAML was changed after approval (SHA-256 mismatch)</Tag>}
            {check.status === 'unknown' && <Tag tone="amber">not approved: {check.reason}</Tag>}
            {check.status === 'unreadable' && <Tag tone="red">not readable: {check.reason}</Tag>}
          </p>
        )}
      </Panel>
    </div>
  );
}
