import { describeEvidence } from '@/lib/analysis/evidence';
import { escapeMarkdown as e } from '@/lib/report/render-markdown';
import type { ActivityReport } from './activity-types';

// The activity section of the Markdown report: window and coverage first (what the answers rest
// on), then DRA writes per identity and node, denials, impersonation and unused grants.

const MAX_ROWS = 50;

function table(head: string[], rows: string[][]): string {
  if (rows.length === 0) return '_None._\n';
  const shown = rows.slice(0, MAX_ROWS);
  const more = rows.length > MAX_ROWS ? `\n_${rows.length - MAX_ROWS} more in the JSON report._\n` : '';
  return `| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|\n${shown.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n${more}`;
}

export function renderActivityMarkdown(a: ActivityReport): string {
  const out: string[] = ['\n## Activity (audit log)\n'];
  out.push(
    `Window: ${a.window.first ?? '—'} to ${a.window.last ?? '—'}; ${a.events} event(s) from ${a.files.length} file(s); ${a.malformed.count} malformed line(s).`,
  );
  out.push(
    a.requestBodies
      ? 'Request bodies were logged (adminAccess and parameter-size alerts are possible).'
      : 'No request bodies were logged (Metadata level): adminAccess and parameter-size alerts cannot fire.',
  );
  for (const m of a.malformed.samples.slice(0, 10)) out.push(`- malformed: ${e(m.file)} line ${m.line}: ${e(m.error)}`);
  for (const n of a.notes) out.push(`- note: ${e(n)}`);
  out.push('\n### Coverage\n');
  out.push(
    table(
      ['Group', 'Resource', 'Verbs logged', 'Levels', 'Events'],
      a.coverage
        .filter((c) => c.group === 'resource.k8s.io' || c.resource === 'nodes/status')
        .map((c) => [e(c.group || '""'), e(c.resource), e(c.verbs.join(', ')), e(c.levels.join(', ')), String(c.events)]),
    ),
  );
  out.push('\n### DRA writes per identity and node\n');
  out.push(
    table(
      ['Identity', 'Node', 'Write', 'Verb', 'As', 'Allowed', 'Denied', 'Last denial reason', 'Last'],
      a.writes.map((w) => [
        e(w.identity),
        e(w.node || '—'),
        w.category,
        e(w.verb),
        e(w.impersonated ?? ''),
        String(w.allowed),
        String(w.denied),
        e(w.deniedReason ?? ''),
        w.last,
      ]),
    ),
  );
  out.push('\n### Impersonation\n');
  out.push(
    table(
      ['Requester', 'Requester node', 'Impersonated', 'Relation', 'Allowed', 'Denied'],
      a.impersonation.map((r) => [e(r.requester), e(r.requesterNode || '—'), e(r.impersonated), r.relation, String(r.allowed), String(r.denied)]),
    ),
  );
  out.push('\n### Unused grants (DRA-relevant first)\n');
  const unused = a.unusedGrants.flatMap((g) =>
    g.unused.map((u) => [e(g.identity), u.draRelevant ? 'yes' : '', u.covered ? 'yes' : 'no (not logged)', e(describeEvidence(u.evidence))]),
  );
  out.push(table(['Identity', 'DRA', 'Logged by the policy', 'Grant'], unused));
  return out.join('\n');
}
