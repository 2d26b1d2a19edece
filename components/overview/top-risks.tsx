import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import type { AttackPath, Issue } from '@/lib/analysis/types';
import { CodeBlock } from '@/components/ui/code-block';
import { SeverityBadge } from '@/components/ui/severity';

/** The highest-risk issues: what it is, why it ranks there (reach and exposure in words), its findings and its fix. */
export function TopRisks({ issues, attackPaths, alike = {} }: { issues: Issue[]; attackPaths: Record<string, AttackPath>; alike?: Record<string, Issue[]> }) {
  return (
    <ol className="divide-y divide-slate-100" aria-label="Top risks">
      {issues.map((issue, i) => (
        <li key={issue.id} className="py-3" data-issue={issue.id}>
          {/* Below md the text goes under the rank and badge, with the width of the card. */}
          <div className="flex flex-wrap items-start gap-x-3 gap-y-1.5 md:flex-nowrap">
            <span className="mt-0.5 w-5 shrink-0 text-right font-mono text-sm text-slate-400">{i + 1}</span>
            <SeverityBadge severity={issue.severity} className="mt-0.5 shrink-0" />
            <div className="min-w-0 flex-1 max-md:basis-full max-md:pl-8">
              <p className="text-sm font-medium text-slate-900">
                <span className="font-mono text-slate-600">{issue.check}</span> {issue.title}
              </p>
              <p className="mt-0.5 text-xs text-slate-600">
                {issue.risk.reasons.length > 0 ? issue.risk.reasons.join('; ') : 'no reach beyond its own objects'}
              </p>
              {(alike[issue.id]?.length ?? 0) > 0 && <AlikeIssues issues={alike[issue.id]} />}
              <div className="mt-1.5 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs">
                <span className="text-slate-500" title={`severity ${issue.risk.severity} × reach ${issue.risk.reach} × exposure ${issue.risk.exposure}`}>
                  risk <span className="font-semibold text-slate-800">{issue.risk.score}</span>
                </span>
                <Link href={pages.findings({ issue: issue.id })} className="font-medium text-teal-800 hover:underline">
                  {issue.findingIds.length === 1 ? '1 finding' : `${issue.findingIds.length.toLocaleString('en-US')} findings`} →
                </Link>
                {attackPaths[issue.id] && <AttackPathDetails path={attackPaths[issue.id]} />}
                <details className="group w-full">
                  <summary className="cursor-pointer font-medium text-teal-800 hover:underline">The fix</summary>
                  <div className="mt-2">
                    <CodeBlock code={issue.remediation} label="Fix" />
                  </div>
                </details>
              </div>
            </div>
          </div>
        </li>
      ))}
    </ol>
  );
}

/** The engine's foothold-to-impact chain for an issue, each request step with the grant that allows it. */
function AttackPathDetails({ path }: { path: AttackPath }) {
  return (
    <details className="w-full">
      <summary className="cursor-pointer font-medium text-teal-800 hover:underline">Attack path: {path.impact}</summary>
      <ol className="mt-2 list-decimal space-y-1 pl-5 text-slate-700" aria-label="Attack path">
        {path.steps.map((step, n) => (
          <li key={n}>
            {step.text}
            {step.evidence?.map((e, k) =>
              e.type === 'grant' ? (
                <span key={k} className="text-slate-500">
                  {' '}
                  (via {e.binding.kind} {e.binding.namespace ? `${e.binding.namespace}/` : ''}
                  {e.binding.name} → {e.role.kind} {e.role.name})
                </span>
              ) : null,
            )}
          </li>
        ))}
      </ol>
      <Link href={pages.graphView({ path: path.issueId })} className="mt-1 inline-block font-medium text-teal-800 hover:underline">
        Show the path on the graph →
      </Link>
    </details>
  );
}

/** Lower-ranked issues of the same check whose checked fix edits the same object: one fix clears them all. */
function AlikeIssues({ issues }: { issues: Issue[] }) {
  return (
    <details className="mt-1 text-xs" aria-label="Issues with the same check and fix">
      <summary className="cursor-pointer text-slate-700">
        and {issues.length === 1 ? '1 more issue' : `${issues.length.toLocaleString('en-US')} more issues`} with the same check, fixed in the same object
      </summary>
      <ul className="mt-1 space-y-0.5 pl-4 text-slate-600">
        {issues.map((i) => (
          <li key={i.id}>
            <Link href={pages.findings({ issue: i.id })} className="hover:underline">
              {i.title}
            </Link>{' '}
            <span className="text-slate-400">(risk {i.risk.score})</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
