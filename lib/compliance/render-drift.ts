import { describeSubject } from '@/lib/k8s/refs';
import type { Drift, QuotaChange } from './drift';
import { affectedChangeText } from './issue-drift';

// Drift as plain text for the terminal: one section per kind of change, `+` gained, `-` lost.

const quotaText = (q: QuotaChange['before']) => (q ? `hard ${q.hard}, used ${q.used ?? '–'} (computed ${q.computedUsed})` : 'none');

export function renderDriftText(d: Drift): string {
  const lines = [`Drift from ${d.from} to ${d.to}`, ''];
  const section = (title: string, body: string[]) => {
    lines.push(`${title}:`);
    for (const line of body.length > 0 ? body : ['  (none)']) lines.push(line);
    lines.push('');
  };
  section(
    `New findings (${d.findings.added.length})`,
    d.findings.added.map((f) => `  + [${f.severity}] ${f.check} ${f.id}: ${f.message}`),
  );
  section(
    `Resolved findings (${d.findings.resolved.length})`,
    d.findings.resolved.map((f) => `  - [${f.severity}] ${f.check} ${f.id}: ${f.message}`),
  );
  section(
    `Issue changes (${d.issues.length})`,
    d.issues.map((i) => `  ${i.change === 'added' ? '+' : i.change === 'removed' ? '-' : '~'} [${i.severity}] ${i.title}: ${affectedChangeText(i)}`),
  );
  section(
    `Permission changes on DRA resources (${d.permissions.length} identities)`,
    d.permissions.flatMap((p) => [`  ${describeSubject(p.subject)}`, ...p.gained.map((g) => `    + ${g}`), ...p.lost.map((l) => `    - ${l}`)]),
  );
  section(
    `Node writer changes (${d.nodeWriters.length})`,
    d.nodeWriters.map((w) => {
      const what = `${w.kind} ${describeSubject(w.subject)} (${w.mode}, ${w.scope})`;
      const nodes = [
        w.nodesGained.length ? `+${w.nodesGained.length} nodes: ${w.nodesGained.join(', ')}` : '',
        w.nodesLost.length ? `-${w.nodesLost.length} nodes: ${w.nodesLost.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; ');
      return `  ${w.change === 'added' ? '+' : w.change === 'removed' ? '-' : '~'} ${what}: ${nodes}`;
    }),
  );
  section(
    `Quota changes (${d.quotas.length})`,
    d.quotas.map(
      (q) =>
        `  ${q.change === 'added' ? '+' : q.change === 'removed' ? '-' : '~'} ${q.namespace}/${q.name} ${q.resource}: ${quotaText(q.before)} → ${quotaText(q.after)}`,
    ),
  );
  section(
    `Zeroing changes (${d.zeroing.length})`,
    d.zeroing.map(
      (z) => `  ${z.change === 'added' ? '+' : z.change === 'removed' ? '-' : '~'} DeviceClass ${z.name}: ${z.before ?? 'absent'} → ${z.after ?? 'absent'}`,
    ),
  );
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}
