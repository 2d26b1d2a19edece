import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import type { Report } from '@/lib/analysis/types';
import { plural } from '@/lib/analysis/issues/count-text';
import type { OverviewFacts } from '@/lib/view/overview';
import { SeverityBarChart } from '@/components/charts/severity-bar-chart';
import { EmptyState, PageHeader, Panel } from '@/components/ui/panel';
import { CheckFamilies } from './check-families';
import { SeverityCards } from './severity-cards';
import { TopFindings } from './top-findings';
import { TopRisks } from './top-risks';
import { ViewLinks } from './view-links';

export function OverviewView({ report, facts, bindings }: { report: Report; facts: OverviewFacts; bindings: number }) {
  const total = report.findings.length;
  return (
    <>
      <PageHeader
        title="Posture overview"
        description="Who can do what to ResourceClaims, ResourceSlices, DeviceClasses and nodes/status, how DRA quota is used, and whether shared accelerators are zeroed between tenants."
      />
      <SeverityCards summary={report.summary} />
      {facts.topIssues.length > 0 && (
        <Panel
          className="mt-6"
          id="top-risks"
          title="Top risks"
          description={`Findings grouped by cause: ${plural(report.issues.length, 'issue')}, ranked by severity × reach × exposure`}
          bodyClassName="px-4 py-1"
        >
          <TopRisks issues={facts.topIssues} attackPaths={facts.attackPaths} alike={facts.alike} />
        </Panel>
      )}
      <div className="mt-6 grid gap-6 lg:grid-cols-5">
        <Panel
          className="lg:col-span-2"
          id="by-severity"
          title="Findings by severity"
          description={`${plural(total, 'finding')} from ${plural(new Set(report.findings.map((f) => f.check)).size, 'check')}`}
        >
          <SeverityBarChart summary={report.summary} />
          <h3 className="mb-2 mt-5 text-xs font-medium uppercase tracking-wide text-slate-500">By check family</h3>
          <CheckFamilies families={facts.families} />
        </Panel>
        <Panel
          className="lg:col-span-3"
          id="top-findings"
          title="Top findings"
          description="Most severe first"
          actions={
            <Link href={pages.findings()} className="text-sm font-medium text-teal-800 hover:underline">
              All findings →
            </Link>
          }
          bodyClassName="px-4 py-1"
        >
          {facts.topFindings.length ? (
            <TopFindings findings={facts.topFindings} />
          ) : (
            <EmptyState title="No findings">Every check passed on this source.</EmptyState>
          )}
        </Panel>
      </div>
      <h2 className="mb-3 mt-8 text-sm font-semibold text-slate-900">Views</h2>
      <ViewLinks
        links={[
          {
            href: pages.graph(),
            title: 'Identity graph',
            metric: plural(bindings, 'binding'),
            detail: 'Identities → bindings → roles → DRA resources, risky paths highlighted',
          },
          {
            href: pages.nodes(),
            title: 'Nodes',
            metric: `${plural(facts.allNodeStatusWriters, 'identity', 'identities')} can write every node's status`,
            detail: `${plural(facts.nodes, 'node')}: status writers, claim-status writers, blast radius`,
            attention: facts.allNodeStatusWriters > 0,
          },
          {
            href: pages.quotas(),
            title: 'Quotas',
            // The line drawn as needing attention is the fact that needs it: tenants with no claim quota at
            // all come before quotas nearly used up (a cluster with thousands of the first and none of the
            // second showed "0 quotas at 90% or more" in red).
            metric:
              facts.tenantsWithoutClaimQuota > 0
                ? `${plural(facts.tenantsWithoutClaimQuota, 'tenant')} without a claim quota`
                : `${plural(facts.quotasNearLimit, 'quota')} at 90% or more`,
            detail:
              facts.tenantsWithoutClaimQuota > 0
                ? `${plural(facts.draQuotas, 'DRA quota')}; ${plural(facts.quotasNearLimit, 'quota')} at 90% or more`
                : `${plural(facts.draQuotas, 'DRA quota')}; every tenant has a claim quota`,
            attention: facts.quotasNearLimit + facts.tenantsWithoutClaimQuota > 0,
          },
          {
            href: pages.devices(),
            title: 'Devices',
            metric: `${plural(facts.classesWithoutZeroing, 'class', 'classes')} without zeroing evidence`,
            detail: `${plural(facts.deviceClasses, 'DeviceClass', 'DeviceClasses')}; ${plural(facts.sharedWithoutZeroing, 'class', 'classes')} shared by tenants unzeroed`,
            attention: facts.sharedWithoutZeroing > 0,
          },
          {
            href: pages.findings(),
            title: 'Findings',
            metric: plural(total, 'finding'),
            detail: 'Filter by severity, check, namespace or subject',
          },
          {
            href: pages.explorer({ mode: 'who-can', verb: 'update', resource: 'resourceclaims/binding' }),
            title: 'Who-can explorer',
            metric: 'Who can forge claim allocations?',
            detail: 'Ask who-can and can-i questions, answered with the granting binding and rule',
          },
        ]}
      />
    </>
  );
}
