import type { ClaimStatusWriter, NodeStatusWriter, ReportClusterConfig, StatusWriterMode } from '@/lib/analysis/types';
import { constrainedImpersonationHelp, nodeAuthorizerHelp } from '@/lib/analysis/cluster-config-text';
import { REACH_LABEL, reachOf } from '@/lib/view/node-writer-groups';
import { cn } from '@/components/ui/cn';

export const MODE_INFO: Record<StatusWriterMode, { short: string; label: string; className: string; help: string }> = {
  impersonation: {
    short: 'IMP',
    label: 'legacy impersonation',
    className: 'bg-red-50 text-red-800 ring-red-300',
    help: 'Legacy impersonate of users, groups or service accounts: acts as an identity that writes status (a kubelet, system:masters, or a writer such as a service account; its entry names which).',
  },
  rbac: {
    short: 'RBAC',
    label: 'plain RBAC',
    className: 'bg-orange-50 text-orange-900 ring-orange-300',
    help: 'A direct nodes/status grant: every node, or the named ones.',
  },
  'constrained-impersonation': {
    short: 'OWN',
    label: 'constrained impersonation',
    className: 'bg-teal-50 text-teal-900 ring-teal-300',
    help: 'impersonate:associated-node: only the node its pods run on.',
  },
  'node-authorizer': {
    short: 'NODE',
    label: 'Node authorizer',
    className: 'bg-slate-100 text-slate-700 ring-slate-300',
    help: 'The kubelet identity system:node:<name>; NodeRestriction, when the cluster runs it, limits it to its own Node.',
  },
};

export function ModeTag({ mode, scope, compact }: { mode: StatusWriterMode; scope?: NodeStatusWriter['scope']; compact?: boolean }) {
  const info = MODE_INFO[mode];
  const text = `${info.label}${scope ? `, ${REACH_LABEL[reachOf(scope)]}` : ''}`;
  return (
    <span title={text} className={cn('inline-flex items-center rounded px-1.5 py-0.5 text-[11px] font-semibold ring-1 ring-inset', info.className)}>
      <span aria-hidden={compact ? true : undefined}>{compact ? info.short : text}</span>
      {compact && <span className="sr-only">{text}</span>}
    </span>
  );
}

export function DriverModeTag({ mode }: { mode: ClaimStatusWriter['mode'] }) {
  return mode === 'arbitrary-node' ? (
    <span className="inline-flex rounded bg-orange-50 px-1.5 py-0.5 text-[11px] font-semibold text-orange-900 ring-1 ring-inset ring-orange-300">
      arbitrary-node
    </span>
  ) : (
    <span className="inline-flex rounded bg-teal-50 px-1.5 py-0.5 text-[11px] font-semibold text-teal-900 ring-1 ring-inset ring-teal-300">
      associated-node
    </span>
  );
}

/** The Node authorizer's text follows the cluster's NodeRestriction setting (the report's clusterConfig). */
export function ModeLegend({ config }: { config?: ReportClusterConfig }) {
  return (
    <ul className="flex flex-wrap gap-x-5 gap-y-2 text-xs text-slate-600" aria-label="Legend">
      {(Object.keys(MODE_INFO) as StatusWriterMode[]).map((m) => (
        <li key={m} className="flex items-center gap-2">
          <ModeTag mode={m} compact />
          <span>
            <span className="font-medium text-slate-800">{MODE_INFO[m].label}</span>:{' '}
            {m === 'node-authorizer'
              ? nodeAuthorizerHelp(config)
              : m === 'constrained-impersonation'
                ? constrainedImpersonationHelp(config)
                : MODE_INFO[m].help}
          </span>
        </li>
      ))}
    </ul>
  );
}
