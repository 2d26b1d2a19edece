import type { Evidence } from '@/lib/report/types';
import { RefText } from '@/components/ui/refs';

/** A PolicyRule as a compact definition list (text only). */
export function RuleSummary({
  rule,
}: {
  rule: { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[]; nonResourceURLs?: string[] };
}) {
  const rows: [string, string[] | undefined][] = [
    ['verbs', rule.verbs],
    ['apiGroups', rule.apiGroups?.map((g) => (g === '' ? '"" (core)' : g))],
    ['resources', rule.resources],
    ['resourceNames', rule.resourceNames],
    ['nonResourceURLs', rule.nonResourceURLs],
  ];
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 rounded-md bg-slate-50 px-3 py-2 text-xs">
      {rows
        .filter(([, v]) => v && v.length)
        .map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="font-medium text-slate-500">{k}</dt>
            <dd className="break-all font-mono text-slate-800">{v!.join(', ')}</dd>
          </div>
        ))}
      {!rule.resourceNames?.length && rule.resources?.length ? (
        <div className="contents">
          <dt className="font-medium text-slate-500">resourceNames</dt>
          <dd className="text-slate-500">none (every object)</dd>
        </div>
      ) : null}
    </dl>
  );
}

function Arrow() {
  return (
    <span aria-hidden="true" className="px-1 text-slate-400">
      →
    </span>
  );
}

export function EvidenceItem({ evidence }: { evidence: Evidence }) {
  if (evidence.type === 'grant') {
    return (
      <div className="space-y-2">
        <p className="flex flex-wrap items-center gap-y-1 text-sm">
          <span className="sr-only">Granted by </span>
          <RefText value={evidence.binding} />
          <Arrow />
          <RefText value={evidence.role} />
          <Arrow />
          <span className="text-slate-700">rule #{evidence.ruleIndex}</span>
          {evidence.aggregatedFrom && <span className="ml-2 text-xs text-slate-500">(aggregated from ClusterRole {evidence.aggregatedFrom})</span>}
        </p>
        <RuleSummary rule={evidence.rule} />
      </div>
    );
  }
  if (evidence.type === 'field') {
    const value = typeof evidence.value === 'string' ? evidence.value : JSON.stringify(evidence.value, null, 2);
    return (
      <div className="space-y-2">
        <p className="flex flex-wrap items-center gap-y-1 text-sm">
          <RefText value={evidence.object} />
          <span className="ml-2 font-mono text-xs text-slate-600">{evidence.path}</span>
        </p>
        <pre className="overflow-auto rounded-md bg-slate-50 px-3 py-2 font-mono text-xs text-slate-800">{value}</pre>
      </div>
    );
  }
  return <p className="text-sm text-slate-700">{evidence.text}</p>;
}

export function EvidenceList({ evidence }: { evidence: Evidence[] }) {
  if (!evidence.length) return <p className="text-sm text-slate-500">No structured evidence: see the message above.</p>;
  return (
    <ol className="space-y-4">
      {evidence.map((e, i) => (
        <li key={i} className="border-l-2 border-slate-200 pl-4">
          <EvidenceItem evidence={e} />
        </li>
      ))}
    </ol>
  );
}
