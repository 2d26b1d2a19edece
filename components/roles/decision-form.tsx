'use client';

import Link from 'next/link';
import { useState } from 'react';
import type { Decision } from '@/lib/role-builder/approval';
import type { BuildRequestBody, DecisionRequestBody, DecisionResponse, RoleBuildResponse } from '@/lib/role-builder/dto';
import { CodeBlock } from '@/components/ui/code-block';
import { Panel, Tag } from '@/components/ui/panel';
import { Field, INPUT, PRIMARY, SECONDARY } from './field';
import { postJson } from '@/components/query/fetch-json';
import { downloadText } from './download-text';
import { WorkStatus } from './work-status';
import { useCan, useViewer } from '@/components/auth/viewer-context';
import { describeAction } from '@/lib/api/dashboard-actions';

/** Approve or reject exactly the YAML shown, with a name and a comment; the decision is stored. */
export function DecisionForm({
  review,
  request,
  onReviewChange,
  approvedFileName,
}: {
  review: RoleBuildResponse;
  request: BuildRequestBody;
  onReviewChange: (r: RoleBuildResponse) => void;
  approvedFileName: string;
}) {
  const [approver, setApprover] = useState('');
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<DecisionResponse>();
  const records = 'records' in review.decisions ? review.decisions.records : [];
  const superseded = 'superseded' in review.decisions ? review.decisions.superseded : [];

  const viewer = useViewer();
  const canDecide = useCan('create approvals');
  // Signed in, the server records the authenticated user; the name field is for --auth none only.
  const signedInAs = viewer.auth === 'kubernetes' ? viewer.username : undefined;

  async function decide(decision: Decision) {
    if (!signedInAs && approver.trim() === '') {
      setError('Enter your name: a decision records who made it.');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const body: DecisionRequestBody = {
        build: request,
        yamlSha256: review.yamlSha256,
        // The cluster version it was reviewed on: the server reuses that validation, or refuses if the cluster changed it.
        sourceFingerprint: review.sourceFingerprint,
        decision,
        ...(signedInAs ? {} : { approver }),
        comment,
      };
      const res = await postJson<DecisionResponse>('/api/v1/role-builder/approvals', body);
      setResult(res);
      onReviewChange({ ...review, decisions: { records: [res.record, ...records], superseded } });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Panel
      id="review-decision"
      title="Approval"
      description="A platform lead approves or rejects exactly this YAML (by its SHA-256). Any later change to the YAML invalidates the approval."
      actions={
        <Link href="/roles/history" className="text-sm font-medium text-teal-800 underline">
          History
        </Link>
      }
    >
      {'error' in review.decisions && (
        <p role="alert" className="mb-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Decisions cannot be read or recorded: {review.decisions.error}
        </p>
      )}
      {!review.validation.ok && (
        <p className="mb-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          The validation above found problems. Approving records that you accept them as they are; rejecting records why not.
        </p>
      )}
      {records.length > 0 && (
        <ul className="mb-4 space-y-1 text-sm">
          {records.map((r) => (
            <li key={r.id}>
              <Tag tone={r.decision === 'approve' ? 'green' : 'red'}>{r.decision === 'approve' ? 'approved' : 'rejected'}</Tag> by {r.approver} at {r.at}
              {r.comment && <span className="text-slate-600"> — {r.comment}</span>}
            </li>
          ))}
        </ul>
      )}
      {superseded.length > 0 && (
        <ul className="mb-4 space-y-1 text-sm">
          {superseded.map((r) => (
            <li key={r.id}>
              <Tag tone="amber">invalid</Tag> {r.decision === 'approve' ? 'approved' : 'rejected'} by {r.approver} at {r.at} for a different YAML (SHA-256{' '}
              {r.yamlSha256.slice(0, 12)}…): the YAML has changed since, so that decision does not cover this one.
            </li>
          ))}
        </ul>
      )}
      {canDecide ? (
        <>
          {signedInAs && (
            <p className="mb-3 text-sm text-slate-700">
              Deciding as <span className="font-medium text-slate-900">{signedInAs}</span> (your signed-in Kubernetes identity).
            </p>
          )}
          <div className="grid gap-4 md:grid-cols-2">
            {!signedInAs && (
              <Field id="approver" label="Your name">
                <input id="approver" className={INPUT} value={approver} onChange={(e) => setApprover(e.target.value)} autoComplete="name" maxLength={120} />
              </Field>
            )}
            <Field id="comment" label="Comment">
              <input id="comment" className={INPUT} value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} />
            </Field>
          </div>
          <div className="mt-4 flex flex-wrap gap-3">
            <button type="button" className={PRIMARY} disabled={busy} aria-describedby="decision-status" onClick={() => void decide('approve')}>
              Approve
            </button>
            <button type="button" className={SECONDARY} disabled={busy} aria-describedby="decision-status" onClick={() => void decide('reject')}>
              Reject
            </button>
          </div>
          <div className="mt-2">
            <WorkStatus id="decision-status" busy={busy} text="Recording the decision: checking that the cluster and the YAML are still the ones reviewed…" />
          </div>
        </>
      ) : (
        <p className="text-sm text-slate-600" data-testid="not-allowed">
          {signedInAs} may review this role but not approve or reject it: that needs{' '}
          <code className="rounded bg-slate-100 px-1 text-xs">{describeAction('create approvals')}</code>.
        </p>
      )}
      {error && (
        <p role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          Not recorded: {error}
        </p>
      )}
      <div className="mt-4 text-sm text-slate-700" data-testid="appliers">
        <p className="font-medium text-slate-900">Who in the cluster could apply it</p>
        {review.appliers.total === 0 ? (
          <p>Nobody the cluster knows: it needs someone with cluster-admin-like rights.</p>
        ) : (
          <ul className="mt-1 space-y-0.5">
            {review.appliers.appliers.map((a) => (
              <li key={`${a.subject.kind}/${a.subject.namespace ?? ''}/${a.subject.name}`}>
                {a.subject.kind} {a.subject.namespace ? `${a.subject.namespace}/` : ''}
                {a.subject.name}{' '}
                <span className="text-xs text-slate-500">{a.withoutEscalation ? '(holds what it grants)' : '(only through escalate or bind)'}</span>
              </li>
            ))}
            {review.appliers.total > review.appliers.appliers.length && (
              <li className="text-xs text-slate-500">and {review.appliers.total - review.appliers.appliers.length} more</li>
            )}
          </ul>
        )}
      </div>
      {result && (
        <div role="status" className="mt-4 space-y-3">
          <p className="text-sm text-emerald-900">
            {result.record.decision === 'approve' ? 'Approved' : 'Rejected'} by {result.record.approver} at {result.record.at}.
          </p>
          {result.approverCheck && (
            <p className="text-sm text-slate-800" data-testid="approver-check">
              {result.approverCheck.allowed
                ? result.approverCheck.withoutEscalation
                  ? `As Kubernetes user ${result.record.approver}, you could apply it yourself: you hold every permission it grants.`
                  : `As Kubernetes user ${result.record.approver}, you could apply it only through escalate or bind.`
                : `As Kubernetes user ${result.record.approver}, you could not apply it: ${result.approverCheck.objects.find((o) => !o.allowed)?.object} is refused (${result.approverCheck.objects.find((o) => !o.allowed)?.reason}). Hand it to one of the identities listed above.`}
            </p>
          )}
          {result.approvedYaml && (
            <>
              <button type="button" className={SECONDARY} onClick={() => downloadText(approvedFileName, result.approvedYaml!)}>
                Download approved YAML
              </button>
              <CodeBlock code={result.approvedYaml} label="Approved YAML" />
            </>
          )}
        </div>
      )}
    </Panel>
  );
}
