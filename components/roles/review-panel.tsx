'use client';

import type { BuildRequestBody, RoleBuildResponse } from '@/lib/role-builder/dto';
import type { ReasonedRule } from '@/lib/role-builder/types';
import type { OperationResult } from '@/lib/role-builder/validate-bundle';
import { CodeBlock } from '@/components/ui/code-block';
import { Panel, Tag } from '@/components/ui/panel';
import { ResponsiveTable, type TableColumn } from '@/components/ui/responsive-table';
import { DecisionForm } from './decision-form';
import { DiffView } from './diff-view';
import { SECONDARY } from './field';
import { downloadText } from './download-text';

function fileName(review: RoleBuildResponse, approved = false): string {
  const id = review.bundle.input.identity;
  const who = id.kind === 'ServiceAccount' ? `${id.namespace}-${id.name}` : id.name.replace(/[^\w.-]+/g, '-');
  return `${review.bundle.persona.id}-${who}${approved ? '-approved' : ''}.yaml`;
}

function OperationList({ title, results }: { title: string; results: OperationResult[] }) {
  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold text-slate-800">{title}</h3>
      <ul className="space-y-1.5">
        {results.map((r) => (
          <li key={r.operation.label} className="flex items-start gap-2 text-sm">
            <Tag tone={r.ok ? 'green' : 'red'}>{r.allowed ? 'allowed' : 'refused'}</Tag>
            <span className="min-w-0">
              <span className="text-slate-800">{r.operation.label}</span>
              {!r.ok && (
                <span className="block text-xs text-red-800">
                  Expected {r.expected}: {r.reason}
                </span>
              )}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

const RULE_COLUMNS: TableColumn<ReasonedRule>[] = [
  {
    header: 'Resources',
    cell: (r) => (
      <>
        {(r.rule.resources ?? []).map((res) => `${res}${r.rule.apiGroups?.[0] ? `.${r.rule.apiGroups[0]}` : ''}`).join(', ')}
        {r.rule.resourceNames && <span className="block text-slate-500">names: {r.rule.resourceNames.join(', ')}</span>}
      </>
    ),
    headerClassName: 'py-1 pr-3',
    cellClassName: 'py-1.5 pr-3 font-mono text-xs text-slate-800 max-md:wrap-anywhere',
  },
  {
    header: 'Verbs',
    cell: (r) => r.rule.verbs.join(', '),
    headerClassName: 'py-1 pr-3',
    cellClassName: 'py-1.5 pr-3 font-mono text-xs text-slate-800',
    labelInCard: true,
  },
  {
    header: 'Why',
    cell: (r) => (
      <>
        {r.reason}
        {r.since && <Tag tone="amber">inert before {r.since}</Tag>}
      </>
    ),
    headerClassName: 'py-1',
    cellClassName: 'py-1.5 text-slate-700',
  },
];

/** The built bundle: YAML with reasons, version notes, the engine's validation, the diff against today, and the decision. */
export function ReviewPanel({
  review,
  request,
  onReviewChange,
}: {
  review: RoleBuildResponse;
  request: BuildRequestBody;
  onReviewChange: (r: RoleBuildResponse) => void;
}) {
  const v = review.validation;
  const failures = [...v.intended, ...v.dangerous].filter((r) => !r.ok).length + v.findings.length;
  return (
    <div className="space-y-6">
      <Panel
        id="review-summary"
        title={`${review.bundle.persona.title} for ${review.bundle.input.identity.kind === 'ServiceAccount' ? `ServiceAccount ${review.bundle.input.identity.namespace}/${review.bundle.input.identity.name}` : `${review.bundle.input.identity.kind} ${review.bundle.input.identity.name}`}`}
        description={review.bundle.persona.summary}
        actions={v.ok ? <Tag tone="green">validated: least privilege holds</Tag> : <Tag tone="red">{failures} validation problem(s)</Tag>}
      >
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
          <li>
            {review.identityExists
              ? review.bundle.input.identity.kind === 'ServiceAccount'
                ? 'The service account exists: the bundle does not create it.'
                : 'Users and groups are not Kubernetes objects: the bundle only binds the name.'
              : 'The service account is new: the bundle creates it.'}
          </li>
          {review.bundle.versionNotes.map((n) => (
            <li key={n}>
              <span className="font-medium text-amber-900">Version note:</span> {n}
            </li>
          ))}
          {[...review.bundle.notes, ...v.notes].map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      </Panel>

      <Panel
        id="review-yaml"
        title="YAML"
        description={
          <>
            {/* The 64-digit hash is one word: it breaks rather than push a phone's page sideways. */}
            Every rule is preceded by its reason. SHA-256 <span className="break-all">{review.yamlSha256}</span>
          </>
        }
        actions={
          <button type="button" className={SECONDARY} onClick={() => downloadText(fileName(review), review.yaml)}>
            Download YAML
          </button>
        }
      >
        <CodeBlock code={review.yaml} label="Role bundle YAML" />
      </Panel>

      <Panel id="review-rules" title="Rules and why" description="One line per rule: what the identity uses it for.">
        <div className="space-y-4">
          {review.bundle.objects
            .filter((o) => o.rules)
            .map((o) => (
              <div key={`${o.object.kind}/${o.object.metadata.namespace ?? ''}/${o.object.metadata.name}`}>
                <h3 className="text-sm font-semibold text-slate-800">
                  {o.object.kind} {o.object.metadata.namespace ? `${o.object.metadata.namespace}/` : ''}
                  {o.object.metadata.name}
                </h3>
                <p className="mb-2 text-xs text-slate-500">{o.reason}</p>
                {/* Below md (768 px) each rule stacks: resources, verbs, then why. */}
                <ResponsiveTable
                  caption={`Rules of ${o.object.kind} ${o.object.metadata.name}`}
                  columns={RULE_COLUMNS}
                  rows={o.rules!}
                  rowKey={(_, i) => String(i)}
                  stackBelow="md"
                  headClassName="text-xs text-slate-500"
                />
              </div>
            ))}
        </div>
      </Panel>

      <Panel
        id="review-validation"
        title="Validation by the engine"
        description={`The cluster as it is plus this bundle; example names: node ${v.context.node}, namespace ${v.context.namespace}.`}
      >
        <div className="grid gap-6 md:grid-cols-2">
          <OperationList title="Intended operations (must be allowed)" results={v.intended} />
          <OperationList title="Dangerous operations (must be refused)" results={v.dangerous} />
        </div>
        <div className="mt-4">
          <h3 className="mb-2 text-sm font-semibold text-slate-800">Posture checks about this identity</h3>
          {v.findings.length === 0 ? (
            <p className="text-sm text-emerald-800">No check fires with this identity as subject.</p>
          ) : (
            <ul className="space-y-2">
              {v.findings.map((f) => (
                <li key={f.id} className="text-sm text-slate-800">
                  <Tag tone="red">{f.check}</Tag> {f.title}
                  {f.alreadyToday && <span className="text-xs text-slate-500"> (also today, before the bundle)</span>}
                  <span className="block text-xs text-slate-600">{f.message}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </Panel>

      <DiffView review={review} />
      <DecisionForm review={review} request={request} onReviewChange={onReviewChange} approvedFileName={fileName(review, true)} />
    </div>
  );
}
