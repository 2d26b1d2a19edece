import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import { nodeId } from '@/lib/graph/node-id';
import type { DetailedFinding } from '@/lib/analysis/types';
import { catalogEntry } from '@/lib/analysis/catalog';
import { splitRemediation } from '@/lib/view/remediation';
import { CodeBlock } from '@/components/ui/code-block';
import { Panel } from '@/components/ui/panel';
import { RefText } from '@/components/ui/refs';
import { SeverityBadge } from '@/components/ui/severity';
import { EvidenceList } from './evidence-list';

const GRAPH_KINDS = new Set(['User', 'Group', 'ServiceAccount', 'ClusterRoleBinding', 'RoleBinding', 'ClusterRole', 'Role']);

export function FindingDetail({ finding }: { finding: DetailedFinding }) {
  const parts = splitRemediation(finding.remediation);
  const about = catalogEntry(finding.check);
  return (
    <article aria-labelledby="finding-title">
      <nav aria-label="Breadcrumb" className="mb-3 text-sm text-slate-500">
        <Link href={pages.findings()} className="hover:text-slate-800 hover:underline">
          Findings
        </Link>
        <span aria-hidden="true" className="px-1.5">
          /
        </span>
        <Link href={pages.findings({ check: finding.check })} className="font-mono hover:text-slate-800 hover:underline">
          {finding.check}
        </Link>
      </nav>
      <header className="mb-6">
        <div className="flex flex-wrap items-center gap-3">
          <SeverityBadge severity={finding.severity} />
          <span className="font-mono text-sm text-slate-600">{finding.check}</span>
          <span className="font-mono text-xs text-slate-500">id {finding.id}</span>
        </div>
        <h1 id="finding-title" className="mt-2 text-xl font-semibold tracking-tight text-slate-900">
          {finding.title}
        </h1>
        <p className="mt-2 max-w-4xl whitespace-pre-line text-sm leading-relaxed text-slate-700">{finding.message}</p>
      </header>

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Panel id="evidence" title="Evidence" description="Why this finding exists: binding → role → rule, or the object field">
            <EvidenceList evidence={finding.evidence} />
          </Panel>
          <Panel id="remediation" title="Remediation">
            <div className="space-y-3">
              {parts.map((p, i) =>
                p.type === 'text' ? (
                  <p key={i} className="whitespace-pre-line text-sm leading-relaxed text-slate-700">
                    {p.text}
                  </p>
                ) : (
                  <CodeBlock key={i} code={p.text} label={p.type === 'yaml' ? 'YAML' : 'Command'} />
                ),
              )}
            </div>
          </Panel>
        </div>
        <div className="space-y-6">
          {about && (
            <Panel id="about-check" title={`About ${finding.check}`}>
              <p className="text-sm leading-relaxed text-slate-700">{about.description}</p>
              <p className="mt-2 text-sm leading-relaxed text-slate-700">
                <span className="font-medium text-slate-900">Fix in general: </span>
                {about.remediation}
              </p>
            </Panel>
          )}
          <Panel id="subjects" title="Subjects" description="Identities this finding is about">
            {finding.subjects.length ? (
              <ul className="space-y-2">
                {finding.subjects.map((s, i) => (
                  <li key={i} className="flex flex-col gap-1">
                    <RefText value={s} />
                    <span className="flex gap-3 pl-[3.25rem] text-xs">
                      <Link className="font-medium text-teal-800 hover:underline" href={pages.graph(nodeId(s.kind, s.namespace, s.name))}>
                        In the graph
                      </Link>
                      <Link
                        className="font-medium text-teal-800 hover:underline"
                        href={pages.findings({ subject: `${s.kind}/${s.namespace ?? ''}/${s.name}` })}
                      >
                        Its findings
                      </Link>
                    </span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-slate-500">None: this finding is about objects.</p>
            )}
          </Panel>
          <Panel id="objects" title="Objects">
            {finding.objects.length ? (
              <ul className="space-y-2">
                {finding.objects.map((o, i) => (
                  <li key={i} className="flex flex-col gap-1">
                    <RefText value={o} />
                    {GRAPH_KINDS.has(o.kind) && (
                      <Link
                        className="pl-[3.25rem] text-xs font-medium text-teal-800 hover:underline"
                        href={pages.graph(nodeId(o.kind as 'Role', o.kind === 'Role' || o.kind === 'RoleBinding' ? o.namespace : undefined, o.name))}
                      >
                        In the graph
                      </Link>
                    )}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-slate-500">None.</p>
            )}
          </Panel>
        </div>
      </div>
    </article>
  );
}
