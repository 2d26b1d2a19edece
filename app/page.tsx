import { getClusterOverview } from '@/server/services/get-cluster-overview';

export const dynamic = 'force-dynamic';

export default async function OverviewPage() {
  const overview = await getClusterOverview();
  const { source } = overview;
  return (
    <main className="mx-auto max-w-5xl p-8">
      <header className="mb-8">
        <h1 className="text-2xl font-semibold">dra-posture</h1>
        <p className="text-slate-600">Who can do what to ResourceClaims, ResourceSlices, DeviceClasses and nodes/status.</p>
      </header>
      {source.kind === 'demo' && (
        <p role="status" className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-2 text-amber-900">
          You are looking at the bundled demo cluster, not a real one.
        </p>
      )}
      <section aria-labelledby="source-heading" className="mb-8 rounded-lg border border-slate-200 bg-white p-6">
        <h2 id="source-heading" className="mb-2 text-lg font-medium">Source</h2>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
          <dt className="text-slate-500">Kind</dt>
          <dd>{source.kind}</dd>
          <dt className="text-slate-500">Name</dt>
          <dd>{source.name}</dd>
          <dt className="text-slate-500">Kubernetes</dt>
          <dd>{source.kubernetesVersion ?? 'unknown (1.36 defaults assumed)'}</dd>
        </dl>
      </section>
      <section aria-labelledby="objects-heading" className="rounded-lg border border-slate-200 bg-white p-6">
        <h2 id="objects-heading" className="mb-4 text-lg font-medium">Objects read</h2>
        <ul className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          {overview.counts.map((c) => (
            <li key={c.label} className="rounded-md bg-slate-50 p-3">
              <div className="text-2xl font-semibold tabular-nums">{c.count}</div>
              <div className="text-sm text-slate-600">{c.label}</div>
            </li>
          ))}
        </ul>
      </section>
      {overview.warnings.length > 0 && (
        <section aria-labelledby="warnings-heading" className="mt-8 rounded-lg border border-amber-200 bg-white p-6">
          <h2 id="warnings-heading" className="mb-2 text-lg font-medium">Warnings</h2>
          <ul className="list-disc pl-6 text-sm">
            {overview.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
