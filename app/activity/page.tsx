import type { Metadata } from 'next';
import Link from 'next/link';
import { ActivityTable } from '@/components/activity/activity-table';
import { ActivityTimeline } from '@/components/activity/activity-timeline';
import { EmptyState, PageHeader, Panel, Stat, Tag } from '@/components/ui/panel';
import { Mono } from '@/components/ui/refs';
import { SeverityBadge } from '@/components/ui/severity';
import { describeEvidence } from '@/lib/analysis/evidence';
import { detailedFindings, getReport } from '@/server/services/get-report';
import { SourceUnavailable } from '@/components/shell/source-unavailable';
import { loadForPage } from '@/server/services/load-for-page';

export const metadata: Metadata = { title: 'Activity' };

export default async function ActivityPage() {
  const loaded = await loadForPage(getReport);
  if (!loaded.ok) return <SourceUnavailable title="Activity" message={loaded.message} />;
  const report = loaded.data;
  const a = report.activity;
  const header = (
    <PageHeader
      title="Activity"
      description="What identities actually did, from the API server's audit log: DRA writes per identity and node, denials with the server's reason, impersonation, audit alerts and grants no request used."
    />
  );
  if (!a) {
    return (
      <>
        {header}
        <EmptyState title="No audit log loaded">
          Start the dashboard with <Mono>dra-posture serve --audit PATH</Mono> (a log file or a folder of rotated, possibly gzipped, logs), or upload one on the{' '}
          <Link href="/sources" className="text-teal-800 underline underline-offset-2">
            Sources
          </Link>{' '}
          page. <Mono>dra-posture audit-policy</Mono> prints the policy that logs what this page needs.
        </EmptyState>
      </>
    );
  }
  const alerts = await detailedFindings(report.findings.filter((f) => f.check.startsWith('AUDIT')));
  const deniedWrites = a.writes.reduce((n, w) => n + w.denied, 0);
  const draUnused = a.unusedGrants.reduce((n, g) => n + g.unused.filter((u) => u.draRelevant).length, 0);
  const unusedRows = a.unusedGrants.flatMap((g) =>
    g.unused.map((u) => [
      <Mono key="i">{g.identity}</Mono>,
      u.draRelevant ? <Tag tone="amber">DRA</Tag> : '',
      u.covered ? 'yes' : <span className="text-slate-500">not logged: says nothing</span>,
      <span key="g" className="text-xs">
        {describeEvidence(u.evidence)}
      </span>,
    ]),
  );
  return (
    <>
      {header}
      <p className="mb-4 text-sm text-slate-600" data-testid="activity-window">
        Window <Mono>{a.window.first ?? '—'}</Mono> to <Mono>{a.window.last ?? '—'}</Mono>: {a.events} events from {a.files.length} file(s)
        {a.malformed.count > 0 && <>, {a.malformed.count} malformed line(s)</>}.{' '}
        {a.requestBodies ? 'Request bodies were logged.' : 'No request bodies (Metadata level): adminAccess and parameter-size alerts cannot fire.'}
      </p>
      <div className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label="Identities" value={a.identities.length} />
        <Stat label="Denied DRA writes" value={deniedWrites} />
        <Stat label="Audit alerts" value={alerts.length} />
        <Stat label="Unused DRA grants" value={draUnused} hint="rules no request in the window used" />
      </div>
      <div className="space-y-6">
        <Panel id="activity-alerts" title="Audit alerts" description="AUDIT001–AUDIT005: each is a finding with a stable ID" bodyClassName="p-0">
          <ActivityTable
            caption="Audit alerts"
            columns={[{ label: 'Severity' }, { label: 'Check' }, { label: 'Alert' }]}
            rows={alerts.map((f) => [
              <SeverityBadge key="s" severity={f.severity} />,
              <Mono key="c" className="whitespace-nowrap">
                {f.check}
              </Mono>,
              <Link key="l" href={`/findings/${f.id}`} className="text-teal-800 underline-offset-2 hover:underline">
                {f.message}
              </Link>,
            ])}
          />
        </Panel>
        <Panel id="activity-timeline" title="DRA writes over time" description="Per hour, every category together (teal allowed, red denied)">
          <ActivityTimeline buckets={a.timeline} />
        </Panel>
        <Panel
          id="activity-writes"
          title="DRA writes per identity and node"
          description="status, binding, driver, slice, class and nodes/status writes; the node is the requester's pod-bound token node"
          bodyClassName="p-0"
        >
          <ActivityTable
            caption="DRA writes per identity and node"
            columns={[
              { label: 'Identity' },
              { label: 'Node' },
              { label: 'Write' },
              { label: 'Verb' },
              { label: 'Allowed', numeric: true },
              { label: 'Denied', numeric: true },
              { label: 'Last denial reason' },
            ]}
            rows={a.writes.map((w) => [
              <span key="i">
                <Mono>{w.identity}</Mono>
                {w.impersonated && <span className="block text-xs text-slate-500">as {w.impersonated}</span>}
              </span>,
              <Mono key="n">{w.node || '—'}</Mono>,
              w.category,
              w.verb,
              w.allowed,
              w.denied > 0 ? <span className="font-semibold text-red-800">{w.denied}</span> : 0,
              <span key="r" className="text-xs text-slate-600">
                {w.deniedReason ?? ''}
              </span>,
            ])}
          />
        </Panel>
        <Panel
          id="activity-impersonation"
          title="Impersonated requests"
          description="own-node: the requester's token is bound to the node it impersonated"
          bodyClassName="p-0"
        >
          <ActivityTable
            caption="Impersonated requests"
            columns={[
              { label: 'Requester' },
              { label: 'Requester node' },
              { label: 'Impersonated' },
              { label: 'Relation' },
              { label: 'Allowed', numeric: true },
              { label: 'Denied', numeric: true },
            ]}
            rows={a.impersonation.map((r) => [
              <Mono key="r">{r.requester}</Mono>,
              <Mono key="n">{r.requesterNode || '—'}</Mono>,
              <Mono key="i">{r.impersonated}</Mono>,
              r.relation === 'other-node' ? <Tag tone="red">other node</Tag> : r.relation,
              r.allowed,
              r.denied,
            ])}
          />
        </Panel>
        <Panel
          id="activity-denied"
          title="Recent denials"
          description={`The last ${a.denied.length} denied DRA writes with the server's reason`}
          bodyClassName="p-0"
        >
          <ActivityTable
            caption="Recent denials"
            columns={[{ label: 'Time' }, { label: 'Identity' }, { label: 'Node' }, { label: 'Request' }, { label: 'Code', numeric: true }, { label: 'Reason' }]}
            rows={a.denied.map((d) => [
              <Mono key="t">{d.time}</Mono>,
              <Mono key="i">{d.identity}</Mono>,
              <Mono key="n">{d.node || '—'}</Mono>,
              <Mono key="q">{`${d.verb} ${d.resource} ${d.namespace ? `${d.namespace}/` : ''}${d.name}`}</Mono>,
              d.code ?? '',
              <span key="r" className="text-xs text-slate-600">
                {d.reason ?? ''}
              </span>,
            ])}
          />
        </Panel>
        <Panel
          id="activity-unused"
          title="Unused grants"
          description="Rules an identity holds that no successful request in the window matched; only rules on what the policy logged say anything"
          bodyClassName="p-0"
        >
          <ActivityTable
            caption="Unused grants"
            columns={[{ label: 'Identity' }, { label: 'DRA' }, { label: 'Logged by the policy' }, { label: 'Grant' }]}
            rows={unusedRows}
          />
        </Panel>
        <Panel id="activity-coverage" title="Coverage" description="What the audit policy logged, per resource: verbs and levels seen" bodyClassName="p-0">
          <ActivityTable
            caption="Coverage"
            columns={[{ label: 'Group' }, { label: 'Resource' }, { label: 'Verbs' }, { label: 'Levels' }, { label: 'Events', numeric: true }]}
            rows={a.coverage.map((c) => [
              <Mono key="g">{c.group || 'core'}</Mono>,
              <Mono key="r">{c.resource}</Mono>,
              c.verbs.join(', '),
              c.levels.join(', '),
              c.events,
            ])}
          />
        </Panel>
        {a.malformed.count > 0 && (
          <Panel id="activity-malformed" title="Malformed lines" description="Counted and skipped; the rest of the log was read" bodyClassName="p-0">
            <ActivityTable
              caption="Malformed lines"
              columns={[{ label: 'File' }, { label: 'Line', numeric: true }, { label: 'Problem' }]}
              rows={a.malformed.samples.map((m) => [<Mono key="f">{m.file}</Mono>, m.line, m.error])}
            />
          </Panel>
        )}
      </div>
    </>
  );
}
