import type { Drift, FindingBrief } from '@/lib/compliance/drift';
import { describeSubject } from '@/lib/k8s/refs';
import { EmptyState } from '@/components/ui/panel';
import { SeverityBadge } from '@/components/ui/severity';
import { affectedChangeText } from '@/lib/compliance/issue-drift';
import { plural } from '@/lib/analysis/issues/count-text';

// What changed between two snapshots, section by section. Every name is rendered as text.

function Section({ title, count, children }: { title: string; count: number; children: React.ReactNode }) {
  return (
    <section className="mt-5 first:mt-0">
      <h3 className="text-sm font-semibold text-slate-900">
        {title} <span className="font-normal text-slate-500">({count})</span>
      </h3>
      <div className="mt-2">{count === 0 ? <p className="text-sm text-slate-500">No change.</p> : children}</div>
    </section>
  );
}

function FindingList({ findings, sign }: { findings: FindingBrief[]; sign: '+' | '−' }) {
  return (
    <ul className="space-y-2">
      {findings.map((f) => (
        <li key={f.id} className="flex flex-wrap items-start gap-2 text-sm">
          <span aria-hidden="true" className="w-3 font-mono text-slate-500">
            {sign}
          </span>
          <SeverityBadge severity={f.severity} />
          <span className="font-mono text-xs text-slate-600">{f.check}</span>
          <span className="min-w-0 flex-1 break-words text-slate-800">{f.message}</span>
        </li>
      ))}
    </ul>
  );
}

const CHANGE_LABEL = { added: 'added', removed: 'removed', changed: 'changed' } as const;

export function DriftView({ drift }: { drift: Drift }) {
  const total =
    drift.issues.length +
    drift.findings.added.length +
    drift.findings.resolved.length +
    drift.permissions.length +
    drift.nodeWriters.length +
    drift.quotas.length +
    drift.zeroing.length;
  return (
    <div data-testid="drift-view">
      <p className="mb-4 text-sm text-slate-600">
        From <span className="font-medium text-slate-900">{drift.from}</span> to <span className="font-medium text-slate-900">{drift.to}</span>
      </p>
      {total === 0 && (
        <EmptyState title="Nothing changed">Issues, findings, DRA permissions, node writers, quotas and zeroing are the same in both snapshots.</EmptyState>
      )}
      {total > 0 && (
        <>
          <Section title="Issue changes" count={drift.issues.length}>
            <ul className="space-y-1 text-sm">
              {drift.issues.map((i) => (
                <li key={i.id}>
                  <span className="font-medium">{CHANGE_LABEL[i.change]}</span> <span className="font-mono text-slate-600">{i.check}</span> {i.title}:{' '}
                  <span className="text-slate-600">{affectedChangeText(i)}</span>
                </li>
              ))}
            </ul>
          </Section>
          <Section title="New findings" count={drift.findings.added.length}>
            <FindingList findings={drift.findings.added} sign="+" />
          </Section>
          <Section title="Resolved findings" count={drift.findings.resolved.length}>
            <FindingList findings={drift.findings.resolved} sign="−" />
          </Section>
          <Section title="Permission changes on DRA resources" count={drift.permissions.length}>
            <ul className="space-y-3">
              {drift.permissions.map((p) => (
                <li key={describeSubject(p.subject)} className="text-sm">
                  <p className="font-medium text-slate-900">{describeSubject(p.subject)}</p>
                  <ul className="mt-1 space-y-0.5 pl-4 font-mono text-xs">
                    {p.gained.map((g) => (
                      <li key={`+${g}`} className="text-red-800">
                        <span className="sr-only">gained: </span>+ {g}
                      </li>
                    ))}
                    {p.lost.map((l) => (
                      <li key={`-${l}`} className="text-emerald-800">
                        <span className="sr-only">lost: </span>− {l}
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          </Section>
          <Section title="Node writer changes" count={drift.nodeWriters.length}>
            <ul className="space-y-1 text-sm">
              {drift.nodeWriters.map((w) => (
                <li key={`${w.kind}|${describeSubject(w.subject)}|${w.mode}|${w.scope}`} className="break-words">
                  <span className="font-medium">{CHANGE_LABEL[w.change]}</span> {w.kind === 'node-status' ? 'nodes/status writer' : 'claim status writer'}{' '}
                  {describeSubject(w.subject)}{' '}
                  <span className="text-slate-500">
                    ({w.mode}, {w.scope})
                  </span>
                  {w.nodesGained.length > 0 && (
                    <span>
                      {' '}
                      · gains {plural(w.nodesGained.length, 'node')}: {w.nodesGained.join(', ')}
                    </span>
                  )}
                  {w.nodesLost.length > 0 && (
                    <span>
                      {' '}
                      · loses {plural(w.nodesLost.length, 'node')}: {w.nodesLost.join(', ')}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </Section>
          <Section title="Quota changes" count={drift.quotas.length}>
            <ul className="space-y-1 text-sm">
              {drift.quotas.map((q) => (
                <li key={`${q.namespace}/${q.name}/${q.resource}`} className="break-words">
                  <span className="font-medium">{CHANGE_LABEL[q.change]}</span> {q.namespace}/{q.name} <span className="font-mono text-xs">{q.resource}</span>:
                  hard {q.before?.hard ?? '–'} → {q.after?.hard ?? '–'}, used {q.before?.computedUsed ?? '–'} → {q.after?.computedUsed ?? '–'}
                </li>
              ))}
            </ul>
          </Section>
          <Section title="Zeroing changes" count={drift.zeroing.length}>
            <ul className="space-y-1 text-sm">
              {drift.zeroing.map((z) => (
                <li key={z.name}>
                  DeviceClass {z.name}: {z.before ?? 'absent'} → {z.after ?? 'absent'}
                </li>
              ))}
            </ul>
          </Section>
        </>
      )}
    </div>
  );
}
