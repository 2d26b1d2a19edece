import type { Metadata } from 'next';
import { chartCarriesInformation, QUOTA_CHART_ROWS, QUOTA_TABLE_ROWS, usagePercent } from '@/lib/view/quota-view';
import { QuotaBarChart } from '@/components/charts/quota-bar-chart';
import { QuotaGaps } from '@/components/quotas/quota-gaps';
import { QuotaNamespaceFilter } from '@/components/quotas/quota-namespace-filter';
import { QuotaTable } from '@/components/quotas/quota-table';
import { QuotaUsageBandsRow } from '@/components/quotas/quota-usage-bands';
import { PageHeader, Panel, Stat } from '@/components/ui/panel';
import { getQuotaPage } from '@/server/services/quota-page';
import { SourceUnavailable } from '@/components/shell/source-unavailable';
import { loadForPage } from '@/server/services/load-for-page';

export const metadata: Metadata = { title: 'Quotas' };

const count = (n: number) => n.toLocaleString('en-US');

export default async function QuotasPage({ searchParams }: { searchParams: Promise<{ namespace?: string | string[] }> }) {
  const sp = await searchParams;
  const namespace = (Array.isArray(sp.namespace) ? sp.namespace[0] : sp.namespace)?.trim().slice(0, 253) ?? '';
  const loaded = await loadForPage(() => getQuotaPage(namespace));
  if (!loaded.ok) return <SourceUnavailable title="Quotas" message={loaded.message} />;
  const d = loaded.data;
  const where = namespace ? ` in namespace ${namespace}` : '';
  const informative = chartCarriesInformation(d.chart);
  return (
    <>
      <PageHeader
        title="Quotas"
        description="ResourceQuota on count/resourceclaims.resource.k8s.io and <class>.deviceclass.resource.k8s.io/devices: where tenants have none, then the hard limit, what the quota reports as used, and the usage computed from the claims (allocationMode All charges 32 devices)."
      />
      <div className="mb-4">
        <QuotaNamespaceFilter value={namespace} namespaces={d.namespaces} />
      </div>
      <div className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat
          label="Quota gaps"
          value={d.gaps.total}
          hint={`in ${count(d.gaps.namespaces)} namespace${d.gaps.namespaces === 1 ? '' : 's'} without DRA quota`}
        />
        <Stat label="DRA quotas" value={d.total} />
        <Stat label="At 90% or more" value={d.near} />
        <Stat label="Reported ≠ computed" value={d.mismatched} />
      </div>
      <div className="space-y-6">
        <Panel
          id="quota-gaps"
          title={namespace ? `Quota gaps of namespace ${namespace}` : 'Tenants without DRA quota'}
          description="Namespace/class pairs with claims but no quota: tenants without a claim-count quota, and DeviceClasses used without a devices quota"
        >
          <QuotaGaps view={d.gaps} namespace={namespace} />
        </Panel>
        {d.total === 0 ? (
          <Panel id="quota-chart" title="Usage against hard limit">
            <p className="text-sm text-slate-600">No DRA quota{where || ' in this source'}.</p>
          </Panel>
        ) : (
          <>
            <Panel
              id="quota-chart"
              title="Usage against hard limit"
              description={
                d.chart.length < d.total
                  ? `Computed usage as a share of the hard limit: the ${QUOTA_CHART_ROWS} fullest of ${count(d.total)} quotas${where}`
                  : `Computed usage as a share of each quota's hard limit${where}`
              }
            >
              <div className="space-y-4">
                <QuotaUsageBandsRow bands={d.bands} />
                {informative ? (
                  <QuotaBarChart rows={d.chart.map((r) => ({ key: r.key, label: `${r.namespace} · ${r.label}`, percent: usagePercent(r) }))} />
                ) : (
                  <p className="text-sm text-slate-600" data-testid="quota-chart-summary">
                    {d.chart.length === 1 ? 'The quota' : d.chart.length < d.total ? `The ${d.chart.length} fullest quotas` : `All ${d.chart.length} quotas`}
                    {where} {d.chart.length === 1 ? 'is' : 'are'} at {usagePercent(d.chart[0])}% of {d.chart.length === 1 ? 'its' : 'their'} hard limit: no bar
                    chart, it would show {d.chart.length === 1 ? 'one bar' : 'bars of one length'}.
                  </p>
                )}
              </div>
            </Panel>
            <Panel
              id="quota-table"
              title={namespace ? `Quotas of namespace ${namespace}` : 'Quotas per namespace'}
              description={
                d.cut
                  ? `The ${QUOTA_TABLE_ROWS} needing attention first (reported ≠ computed, then the fullest) of ${count(d.total)} quotas; filter by namespace for the rest`
                  : undefined
              }
              bodyClassName="p-0"
            >
              <QuotaTable rows={d.table} />
            </Panel>
          </>
        )}
      </div>
    </>
  );
}
