import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import type { Severity } from '@/lib/analysis/types';
import { Panel, Tag } from '@/components/ui/panel';
import { SeverityBadge } from '@/components/ui/severity';
import { formatCount, plural } from '@/lib/analysis/issues/count-text';

/** Plain copy of server/services/devices DeviceClassView (components never import server/). */
export interface DeviceClassViewData {
  name: string;
  driver: string | null;
  driverSource: 'selector' | 'allocation' | 'slice' | null;
  zeroing: 'configured' | 'missing' | 'unknown';
  matchedIndicators: string[];
  usedByNamespaces: string[];
  tenants: string[];
  claims: { namespace: string; name: string; tenant: boolean; allocated: boolean; devices: number; node: string | null; adminAccess: boolean }[];
  config: { driver: string; parameters: string }[];
  annotations: { key: string; value: string }[];
  findingIds: { id: string; check: string; severity: string }[];
}

const ZEROING = {
  configured: { tone: 'green', label: 'Zeroing configured' },
  missing: { tone: 'red', label: 'No zeroing evidence' },
  unknown: { tone: 'slate', label: 'Zeroing unknown' },
} as const;

/** Caps on what one card lists, so that a class used by thousands of namespaces and claims stays a card. */
const SHOWN = { namespaces: 60, claims: 100 };

/**
 * The class's findings, one entry per check and severity in the report's order (most severe first): a
 * class used by thousands of tenants has thousands of QUOTA002 findings, which read as one line.
 */
function findingGroups(findings: DeviceClassViewData['findingIds']): { check: string; severity: string; ids: string[] }[] {
  const groups = new Map<string, { check: string; severity: string; ids: string[] }>();
  for (const f of findings) {
    const key = `${f.severity}/${f.check}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { check: f.check, severity: f.severity, ids: [] }));
    group.ids.push(f.id);
  }
  return [...groups.values()];
}

function More({ count, what }: { count: number; what: string }) {
  return count > 0 ? (
    <p className="mt-1 text-xs text-slate-500">
      and {count.toLocaleString('en-US')} more {what}
    </p>
  ) : null;
}

const DRIVER_SOURCE = { selector: 'from the CEL selector', allocation: 'from allocated claims', slice: 'from ResourceSlices' } as const;

export function DeviceClassCard({ dc }: { dc: DeviceClassViewData }) {
  const z = ZEROING[dc.zeroing];
  const shared = dc.tenants.length >= 2;
  const allocated = dc.claims.filter((c) => c.allocated);
  return (
    <Panel
      id={`dc-${dc.name.replace(/[^a-z0-9-]/gi, '-')}`}
      title={<span className="font-mono">{dc.name}</span>}
      description={
        dc.driver ? (
          <>
            driver <span className="font-mono">{dc.driver}</span>
            {dc.driverSource ? ` (${DRIVER_SOURCE[dc.driverSource]})` : ''}
          </>
        ) : (
          'driver unknown'
        )
      }
      actions={
        <>
          {shared && <Tag tone="amber">shared by {formatCount(dc.tenants.length)} tenants</Tag>}
          <Tag tone={z.tone}>{z.label}</Tag>
        </>
      }
    >
      <div className="grid gap-5 md:grid-cols-3">
        <div>
          <h3 className="mb-1.5 text-xs font-medium uppercase tracking-wide text-slate-500">Zeroing evidence</h3>
          {dc.matchedIndicators.length ? (
            <ul className="space-y-1 text-xs text-emerald-900">
              {dc.matchedIndicators.map((m, i) => (
                <li key={i} className="break-words">
                  ✓ {m}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-xs text-slate-600">No indicator matched.</p>
          )}
          {dc.annotations.map((a) => (
            <p key={a.key} className="mt-1 break-all font-mono text-[11px] text-slate-600">
              {a.key}: {a.value}
            </p>
          ))}
          {dc.config.map((c, i) => (
            <details key={i} className="mt-1 text-xs">
              <summary className="cursor-pointer text-slate-700">
                opaque config for <span className="font-mono">{c.driver}</span>
              </summary>
              <pre className="mt-1 overflow-auto rounded bg-slate-50 p-2 font-mono text-[11px] text-slate-800">{c.parameters}</pre>
            </details>
          ))}
        </div>
        <div>
          <h3 className="mb-1.5 text-xs font-medium uppercase tracking-wide text-slate-500">Used by namespaces</h3>
          {dc.usedByNamespaces.length ? (
            <ul className="flex flex-wrap gap-1.5">
              {dc.usedByNamespaces.slice(0, SHOWN.namespaces).map((ns) => (
                <li key={ns}>
                  <Tag tone={dc.tenants.includes(ns) ? 'blue' : 'slate'} title={dc.tenants.includes(ns) ? 'tenant namespace' : 'platform namespace'}>
                    {ns}
                  </Tag>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-xs text-slate-500">No claim or template uses it.</p>
          )}
          <More count={dc.usedByNamespaces.length - SHOWN.namespaces} what="namespaces" />
        </div>
        <div>
          <h3 className="mb-1.5 text-xs font-medium uppercase tracking-wide text-slate-500">
            Claims ({formatCount(allocated.length)} allocated of {formatCount(dc.claims.length)})
          </h3>
          {dc.claims.length ? (
            <ul className="max-h-40 space-y-0.5 overflow-auto text-xs">
              {dc.claims.slice(0, SHOWN.claims).map((c) => (
                <li key={`${c.namespace}/${c.name}`} className="flex flex-wrap items-baseline gap-x-2">
                  <span className="break-all font-mono text-slate-800">
                    {c.namespace}/{c.name}
                  </span>
                  <span className="text-slate-500">
                    {c.allocated ? `${c.devices} device${c.devices === 1 ? '' : 's'}${c.node ? ` on ${c.node}` : ''}` : 'pending'}
                  </span>
                  {c.adminAccess && <Tag tone="red">adminAccess</Tag>}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-xs text-slate-500">None.</p>
          )}
          <More count={dc.claims.length - SHOWN.claims} what="claims" />
        </div>
      </div>
      {dc.findingIds.length > 0 && (
        <div className="mt-4 flex flex-wrap items-center gap-x-3 gap-y-2 border-t border-slate-100 pt-3">
          <span className="text-xs text-slate-500">Findings:</span>
          {findingGroups(dc.findingIds).map((g) => (
            <Link
              key={`${g.severity}/${g.check}`}
              href={g.ids.length === 1 ? pages.finding(g.ids[0]) : pages.findings({ check: g.check, severity: g.severity, q: `DeviceClass ${dc.name}` })}
              className="inline-flex items-center gap-1.5 rounded hover:underline"
            >
              <SeverityBadge severity={g.severity as Severity} />
              <span className="font-mono text-xs text-slate-700">{g.check}</span>
              {g.ids.length > 1 && <span className="text-xs text-slate-500">{plural(g.ids.length, 'finding')}</span>}
            </Link>
          ))}
        </div>
      )}
    </Panel>
  );
}
