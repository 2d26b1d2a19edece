import type { RoleBuildResponse } from '@/lib/role-builder/dto';
import { Panel } from '@/components/ui/panel';

const ref = (r: { kind: string; name: string; namespace?: string }) => `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;
const ruleText = (r: { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[]; nonResourceURLs?: string[] }) =>
  r.nonResourceURLs?.length
    ? `${r.verbs.join(',')} ${r.nonResourceURLs.join(',')}`
    : `${r.verbs.join(',')} ${(r.resources ?? []).join(',')}${r.apiGroups?.length ? ` (${r.apiGroups.map((g) => g || 'core').join(',')})` : ''}${r.resourceNames?.length ? ` names ${r.resourceNames.join(',')}` : ''}`;

/** Today's grants of the identity against the bundle: what to remove, what it lacks, escalation primitives. */
export function DiffView({ review }: { review: RoleBuildResponse }) {
  const d = review.diff;
  return (
    <Panel id="review-diff" title="Diff against today" description="Grants every authenticated user holds (discovery, self-review) are left out.">
      {d.noGrantsToday ? (
        <p className="text-sm text-slate-700">
          This identity holds no RBAC grants today: applying the bundle adds {d.missing.length} rule(s) and nothing needs removing.
        </p>
      ) : (
        <div className="grid gap-6 md:grid-cols-3">
          <section aria-labelledby="diff-remove">
            <h3 id="diff-remove" className="mb-2 text-sm font-semibold text-slate-800">
              Held today, not in the bundle: remove ({d.toRemove.length})
            </h3>
            <ul className="space-y-1 text-xs text-slate-700">
              {d.toRemove.map((g) => (
                <li key={`${ref(g.binding)}#${g.role.name}#${g.ruleIndex}`}>
                  <span className="font-mono">{ruleText(g.rule)}</span>
                  <span className="block text-slate-500">
                    {ref(g.role)} rule #{g.ruleIndex} via {ref(g.binding)}
                  </span>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="diff-missing">
            <h3 id="diff-missing" className="mb-2 text-sm font-semibold text-slate-800">
              In the bundle, not held today ({d.missing.length})
            </h3>
            <ul className="space-y-1 text-xs text-slate-700">
              {d.missing.map((m, i) => (
                <li key={i} className="font-mono">
                  {ruleText(m.rule.rule)}
                  {m.namespace && <span className="font-sans text-slate-500"> in {m.namespace}</span>}
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="diff-escalation">
            <h3 id="diff-escalation" className="mb-2 text-sm font-semibold text-slate-800">
              Escalation primitives held today ({d.escalation.length})
            </h3>
            <ul className="space-y-1 text-xs text-slate-700">
              {d.escalation.map((e) => (
                <li key={`${ref(e.grant.binding)}#${e.grant.role.name}#${e.grant.ruleIndex}`}>
                  <span className="text-red-800">{e.primitives.join('; ')}</span>
                  <span className="block text-slate-500">
                    {ref(e.grant.role)} via {ref(e.grant.binding)}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        </div>
      )}
    </Panel>
  );
}
