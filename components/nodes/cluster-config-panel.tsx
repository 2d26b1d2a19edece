import type { ReportClusterConfig } from '@/lib/analysis/types';
import { clusterConfigLines } from '@/lib/analysis/cluster-config-text';
import { Panel } from '@/components/ui/panel';

/** The API server configuration the writers above were computed with, each setting with where it came from. */
export function ClusterConfigPanel({ config }: { config?: ReportClusterConfig }) {
  const lines = clusterConfigLines(config);
  if (lines.length === 0) return null;
  return (
    <Panel
      id="cluster-config"
      title="API server configuration applied"
      description="Authorizers, NodeRestriction and feature gates as the analysis applied them: from the kube-apiserver pod's flags, the version's defaults, the command line, or assumed."
    >
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1.5 text-sm sm:grid-cols-[max-content_max-content_1fr]">
        {lines.map((l) => (
          <div key={l.label} className="contents">
            <dt className="font-medium text-slate-800">{l.label}</dt>
            <dd className={l.value === 'off' && l.label === 'NodeRestriction admission' ? 'font-semibold text-red-800' : 'text-slate-800'}>{l.value}</dd>
            <dd className="text-xs text-slate-500 sm:text-sm">{l.source}</dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}
