import type { Metadata } from 'next';
import { DeviceClassCard } from '@/components/devices/device-class-card';
import { EmptyState, PageHeader, Stat } from '@/components/ui/panel';
import { getDeviceClassViews } from '@/server/services/devices';
import { SourceUnavailable } from '@/components/shell/source-unavailable';
import { loadForPage } from '@/server/services/load-for-page';

export const metadata: Metadata = { title: 'Devices' };

export default async function DevicesPage() {
  const loaded = await loadForPage(getDeviceClassViews);
  if (!loaded.ok) return <SourceUnavailable title="Devices" message={loaded.message} />;
  const classes = loaded.data;
  // Shared unzeroed classes first: that is where one tenant can read another's leftovers.
  const rank = (c: (typeof classes)[number]) => (c.zeroing === 'missing' ? 0 : c.zeroing === 'unknown' ? 1 : 2) * 10 - Math.min(c.tenants.length, 9);
  const sorted = [...classes].sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : 1));
  return (
    <>
      <PageHeader
        title="Devices"
        description="DeviceClasses, the driver behind each, whether device memory is zeroed between tenants (by the configured indicators), which tenants share them and the claims allocated from them."
      />
      <div className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label="DeviceClasses" value={classes.length} />
        <Stat label="Zeroing configured" value={classes.filter((c) => c.zeroing === 'configured').length} />
        <Stat label="No zeroing evidence" value={classes.filter((c) => c.zeroing === 'missing').length} />
        <Stat label="Shared by tenants" value={classes.filter((c) => c.tenants.length >= 2).length} hint="used by two or more tenant namespaces" />
      </div>
      <p className="mb-3 text-xs text-slate-500">
        Classes without zeroing evidence that several tenants share come first. Namespaces in blue are tenant namespaces, grey ones platform namespaces.
      </p>
      {sorted.length ? (
        <div className="space-y-4">
          {sorted.map((dc) => (
            <DeviceClassCard key={dc.name} dc={dc} />
          ))}
        </div>
      ) : (
        <EmptyState title="No DeviceClasses in this source" />
      )}
    </>
  );
}
