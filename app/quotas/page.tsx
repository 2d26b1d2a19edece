import type { Metadata } from 'next';
import { buildQuotaRows } from '@/lib/view/quota-view';
import { QuotaBarChart } from '@/components/charts/quota-bar-chart';
import { QUOTA_GAPS_SHOWN, QuotaGaps } from '@/components/quotas/quota-gaps';
import { QuotaTable } from '@/components/quotas/quota-table';
import { EmptyState, PageHeader, Panel, Stat } from '@/components/ui/panel';
import { detailedFindings, getReport } from '@/server/services/get-report';

export const metadata: Metadata = { title: 'Quotas' };

export default async function QuotasPage() {
  const report = await getReport();
  const rows = buildQuotaRows(report.quotas);
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
          <Panel id="quota-chart" title="Usage against hard limit" description="Computed usage as a share of each quota's hard limit">
            <QuotaBarChart
              rows={rows.map((r) => ({ key: r.key, label: `${r.namespace} · ${r.label}`, percent: r.ratio === null ? 0 : Math.round(r.ratio * 1000) / 10 }))}
            />
          </Panel>
          <Panel id="quota-table" title="Quotas per namespace" bodyClassName="p-0">
            <QuotaTable rows={rows} />
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
