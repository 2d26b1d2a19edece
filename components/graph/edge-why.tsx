import { describeReason } from '@/lib/graph/describe';
import type { ViewEdge } from '@/lib/graph/types';
import { RuleSummary } from '@/components/findings/evidence-list';
import { RefText } from '@/components/ui/refs';

/** Why an edge exists: the binding subject, the roleRef, or the role's rule. */
export function EdgeWhy({ edge }: { edge: ViewEdge }) {
  const more = edge.reasonCount - edge.reasons.length;
  return (
    <section aria-labelledby="edge-why-heading" data-testid="edge-why">
      <h3 id="edge-why-heading" className="text-sm font-semibold text-slate-900">
        Why this edge exists
      </h3>
      {edge.onPath && <p className="mt-1 text-xs font-medium text-violet-800">On the attack path of a top risk.</p>}
      {edge.flagged ? (
        <p className="mt-1 text-xs font-medium text-orange-800">
          {edge.grants === 1 ? 'A finding reports this grant (over-privilege).' : `Findings report all ${edge.grants} grants behind this edge.`}
        </p>
      ) : edge.flaggedGrants > 0 ? (
        <p className="mt-1 text-xs font-medium text-orange-800">
          Findings report {edge.flaggedGrants} of the {edge.grants} grants behind this edge; expand the groups or focus to see which.
        </p>
      ) : null}
      {edge.risky && <p className="mt-1 text-xs font-medium text-slate-700">On a risky path: it leads to a write on a sensitive DRA resource.</p>}
      {edge.verbs.length > 0 && (
        <p className="mt-1 text-xs text-slate-600">
          Verbs: <span className="font-mono text-slate-800">{edge.verbs.join(', ')}</span>
        </p>
      )}
      <ol className="mt-3 space-y-3">
        {edge.reasons.map((r, i) => (
          <li key={i} className="border-l-2 border-slate-200 pl-3">
            <p className="text-sm text-slate-800">{describeReason(r)}</p>
            {r.type === 'subject' && (
              <p className="mt-1 flex flex-wrap gap-x-2 gap-y-1 text-xs">
                <RefText value={r.binding} />
              </p>
            )}
            {r.type === 'rule' && (
              <div className="mt-1.5">
                <RuleSummary rule={r.rule} />
              </div>
            )}
          </li>
        ))}
      </ol>
      {more > 0 && <p className="mt-2 text-xs text-slate-500">…and {more} more (expand the groups to see each one).</p>}
    </section>
  );
}
