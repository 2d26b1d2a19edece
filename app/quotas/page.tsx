import type { Metadata } from 'next';
import { pages } from '@/lib/api/routes';
import { buildQuotaRows, QUOTA_CHART_ROWS, QUOTA_TABLE_ROWS, quotaRowsShown } from '@/lib/view/quota-view';
import { QuotaBarChart } from '@/components/charts/quota-bar-chart';
import { QUOTA_GAPS_SHOWN, QuotaGaps } from '@/components/quotas/quota-gaps';
import { QuotaTable } from '@/components/quotas/quota-table';
import { EmptyState, PageHeader, Panel, Stat } from '@/components/ui/panel';
import { detailedFindings, getReport } from '@/server/services/get-report';

export const metadata: Metadata = { title: 'Quotas' };

const count = (n: number) => n.toLocaleString('en-US');

export default async function QuotasPage({ searchParams }: { searchParams: Promise<{ namespace?: string | string[] }> }) {
  const sp = await searchParams;
  const namespace = (Array.isArray(sp.namespace) ? sp.namespace[0] : sp.namespace)?.trim().slice(0, 253) ?? '';
  const report = await getReport();
  const rows = buildQuotaRows(report.quotas);
  const shown = quotaRowsShown(rows, namespace);
  const gaps = report.findings.filter((f) => f.check === 'QUOTA001' || f.check === 'QUOTA002');
  const near = rows.filter((r) => r.ratio !== null && r.ratio >= 0.9).length;
  const mismatched = rows.filter((r) => r.mismatch).length;
  return (
    <>
      <PageHeader
        title="Quotas"
        description="ResourceQuota on count/resourceclaims.resource.k8s.io and <class>.deviceclass.resource.k8s.io/devices: the hard limit, what the quota reports as used, and the usage computed from the claims (allocationMode All charges 32 devices)."
      />
      <div className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label="DRA quotas" value={rows.length} />
        <Stat label="At 90% or more" value={near} />
        <Stat label="Reported ≠ computed" value={mismatched} />
        <Stat label="Quota gaps" value={gaps.length} hint="tenants or classes without DRA quota" />
      </div>
      {rows.length === 0 ? (
        <EmptyState title="No DRA quota in this source" />
      ) : (
        <div className="space-y-6">
          <Panel
            id="quota-chart"
            title="Usage against hard limit"
            description={
              rows.length > QUOTA_CHART_ROWS && !namespace
                ? `Computed usage as a share of the hard limit: the ${QUOTA_CHART_ROWS} fullest of ${count(rows.length)} quotas`
                : "Computed usage as a share of each quota's hard limit"
            }
          >
            <QuotaBarChart
              rows={shown.chart.map((r) => ({
                key: r.key,
                label: `${r.namespace} · ${r.label}`,
                percent: r.ratio === null ? 0 : Math.round(r.ratio * 1000) / 10,
              }))}
            />
          </Panel>
          <Panel
            id="quota-table"
            title={namespace ? `Quotas of namespace ${namespace}` : 'Quotas per namespace'}
            description={
              namespace
                ? `${count(shown.table.length)} of ${count(rows.length)} quotas`
                : shown.cut
                  ? `The ${QUOTA_TABLE_ROWS} needing attention first (reported ≠ computed, then the fullest) of ${count(rows.length)} quotas; filter by namespace for the rest`
                  : undefined
            }
            bodyClassName="p-0"
          >
            {(shown.cut || namespace) && (
              <form method="get" action={pages.quotas()} className="flex flex-wrap items-end gap-2 border-b border-slate-100 px-5 py-3">
                <label className="text-sm text-slate-700">
                  <span className="mb-1 block text-xs font-medium text-slate-600">Namespace</span>
                  <input
                    name="namespace"
                    defaultValue={namespace}
                    placeholder="e.g. ns-42"
                    className="w-64 rounded-md border border-slate-300 px-2.5 py-1.5 text-sm"
                  />
                </label>
                <button type="submit" className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700">
                  Show
                </button>
                {namespace && (
                  <a href={pages.quotas()} className="px-2 py-1.5 text-sm font-medium text-teal-800 hover:underline">
                    All namespaces
                  </a>
                )}
              </form>
            )}
            {shown.table.length > 0 ? (
              <QuotaTable rows={shown.table} />
            ) : (
              <p className="px-5 py-4 text-sm text-slate-600">No DRA quota in namespace {namespace}.</p>
            )}
          </Panel>
        </div>
      )}
      <Panel
        className="mt-6"
        id="quota-gaps"
        title="Tenants without DRA quota"
        description="Tenant namespaces with claims but no claim-count quota, and device classes used without a devices quota"
      >
        <QuotaGaps findings={await detailedFindings(gaps.slice(0, QUOTA_GAPS_SHOWN))} total={gaps.length} />
      </Panel>
    </>
  );
}
