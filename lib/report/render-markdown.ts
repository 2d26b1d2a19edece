import { SEVERITIES, type ClaimStatusWriter, type Finding, type NodeStatusWriter, type Report } from '@/lib/analysis/types';
import { describeRef, describeSubject } from '@/lib/k8s/refs';
import { describeEvidence } from '@/lib/analysis/evidence';
import { checksFired } from './checks-fired';
import { clusterConfigLines } from '@/lib/analysis/cluster-config-text';
import { issuePages } from './issue-pages';

// The posture report as Markdown: summary, findings by severity (evidence and remediation), node
// status writers, claim status writers, quotas, device classes, warnings. Pure; every name coming
// from the cluster is escaped (it can hold `|`, backticks or other Markdown syntax).

const SEVERITY_TITLE: Record<string, string> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low', info: 'Info' };

/** Escapes text for inline Markdown and table cells (newlines become spaces). */
export function escapeMarkdown(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/[\\`|*_[\]<>#]/g, (c) => `\\${c}`);
}

/** A fenced block whose fence is longer than any backtick run inside. */
export function fenced(text: string, info = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

const e = escapeMarkdown;

function renderIssues(report: Report): string[] {
  const lines = ['## Issues, highest risk first', ''];
  if (report.issues.length === 0) return [...lines, 'No findings.', ''];
  lines.push('| # | Risk | Severity | Issue | Findings | Why |', '|---|---|---|---|---|---|');
  report.issues.forEach((i, n) =>
    lines.push(
      `| ${n + 1} | ${i.risk.score} | ${i.severity} | ${e(i.check)}: ${e(i.title)} | ${i.findingIds.length} | ${e(i.risk.reasons.join('; ')) || '–'} |`,
    ),
  );
  lines.push('', '## Findings by issue', '');
  for (const page of issuePages(report)) {
    const i = page.issue;
    lines.push(`### ${page.rank}. ${e(i.check)}: ${e(i.title)}`, '');
    lines.push(`- **Severity:** ${i.severity} · **Risk:** ${i.risk.score} (severity ${i.risk.severity} × reach ${i.risk.reach} × exposure ${i.risk.exposure})`);
    if (i.risk.reasons.length > 0) lines.push(`- **Why:** ${e(i.risk.reasons.join('; '))}`);
    lines.push(`- **ID:** ${e(i.id)} · **Findings:** ${i.findingIds.length}`, '');
    if (page.attackPath) {
      lines.push('Attack path:', '');
      page.attackPath.steps.forEach((s, n) =>
        lines.push(`${n + 1}. ${e(s.text)}${s.evidence?.length ? ` (${e(s.evidence.map(describeEvidence).join('; '))})` : ''}`),
      );
      lines.push('');
    }
    lines.push('Fix:', '', fenced(i.remediation), '');
    for (const f of page.findings) lines.push(...renderFinding(f));
    if (page.more > 0) lines.push(`… and ${page.more} more findings of this issue (all of them are in \`report -o json\`).`, '');
  }
  return lines;
}

// The issue above gives the title and the fix; each finding says who, what and why.
function renderFinding(f: Finding): string[] {
  const lines = [`#### Finding ${e(f.id)}`, ''];
  if (f.subjects.length > 0) lines.push(`- **Subjects:** ${f.subjects.map((s) => e(describeSubject(s))).join(', ')}`);
  if (f.objects.length > 0) lines.push(`- **Objects:** ${f.objects.map((o) => e(describeRef(o))).join(', ')}`);
  for (const ev of f.evidence) lines.push(`- **Evidence:** ${e(describeEvidence(ev))}`);
  lines.push('');
  return lines;
}

const writerText = (w: NodeStatusWriter) => `${e(describeSubject(w.subject))} (${w.mode}${w.scope === 'own-node' ? '' : `, ${w.scope}`})`;
const claimWriterText = (w: ClaimStatusWriter) => `${e(w.driver)}: ${e(describeSubject(w.subject))} (${w.mode})`;

function renderNodes(report: Report): string[] {
  const lines = ['## Node status writers', ''];
  if (report.nodes.length === 0) return [...lines, 'No nodes.', ''];
  const everywhere = report.allNodes.statusWriters;
  if (everywhere.length > 0) {
    lines.push('Every node:', '', '| Subject | Mode |', '|---|---|');
    for (const w of everywhere) lines.push(`| ${e(describeSubject(w.subject))} | ${w.mode} |`);
    lines.push('');
  }
  const anyClaim = report.allNodes.claimStatusWriters;
  if (anyClaim.length > 0) {
    lines.push('Every claim of a driver, on every node:', '', '| Driver | Subject | Mode |', '|---|---|---|');
    for (const w of anyClaim) lines.push(`| ${e(w.driver)} | ${e(describeSubject(w.subject))} | ${w.mode} |`);
    lines.push('');
  }
  lines.push("| Node | Status writers (own node or named) | Claim drivers | Claim status writers (beyond every node's) |", '|---|---|---|---|');
  for (const n of report.nodes) {
    const own = n.statusWriters.map(writerText);
    const claims = n.claimStatusWriters.map(claimWriterText);
    lines.push(`| ${e(n.name)} | ${own.join('<br>') || '–'} | ${n.claimDrivers.map(e).join('<br>') || '–'} | ${claims.join('<br>') || '–'} |`);
  }
  lines.push('');
  return lines;
}

function renderQuotas(report: Report): string[] {
  const lines = ['## DRA quotas', ''];
  if (report.quotas.length === 0) return [...lines, 'No ResourceQuota sets a DRA limit.', ''];
  lines.push('| Namespace | ResourceQuota | Resource | Hard | Used (reported) | Used (computed) |', '|---|---|---|---|---|---|');
  for (const q of report.quotas) {
    const differs = q.used !== null && q.used !== q.computedUsed ? ' ⚠' : '';
    lines.push(
      `| ${e(q.namespace)} | ${e(q.name)} | ${e(q.resource)} | ${e(q.hard)} | ${q.used === null ? '–' : e(q.used)} | ${e(q.computedUsed)}${differs} |`,
    );
  }
  lines.push('');
  return lines;
}

function renderDeviceClasses(report: Report): string[] {
  const lines = ['## Device classes', ''];
  if (report.deviceClasses.length === 0) return [...lines, 'No DeviceClasses.', ''];
  lines.push('| DeviceClass | Driver | Zeroing | Used by namespaces |', '|---|---|---|---|');
  for (const d of report.deviceClasses) {
    lines.push(`| ${e(d.name)} | ${d.driver === null ? '–' : e(d.driver)} | ${d.zeroing} | ${d.usedByNamespaces.map(e).join(', ') || '–'} |`);
  }
  lines.push('');
  return lines;
}

export function renderReportMarkdown(report: Report): string {
  const s = report.source;
  const lines: string[] = ['# DRA posture report', ''];
  const meta = [`Source: ${e(s.kind)} ${e(s.name)}`];
  if (s.kubernetesVersion) meta.push(`Kubernetes ${e(s.kubernetesVersion)}`);
  if (s.collectedAt) meta.push(`collected ${e(s.collectedAt)}`);
  lines.push(meta.join(' · '), '');
  const config = clusterConfigLines(report.clusterConfig);
  if (config.length > 0) lines.push(`API server: ${config.map((l) => `${e(l.label)} ${e(l.value)} (${e(l.source)})`).join(' · ')}`, '');

  lines.push('## Summary', '', '| Severity | Findings |', '|---|---|');
  for (const sev of SEVERITIES) lines.push(`| ${SEVERITY_TITLE[sev]} | ${report.summary[sev] ?? 0} |`);
  lines.push('');

  lines.push(...renderIssues(report));
  const fired = checksFired(report);
  if (fired.length > 0) {
    lines.push('## Checks with findings', '', '| Check | Severity | Findings | What it means | Fix |', '|---|---|---|---|---|');
    for (const c of fired)
      lines.push(`| ${c.id}: ${e(c.entry.title)} | ${c.entry.severity} | ${c.findings} | ${e(c.entry.description)} | ${e(c.entry.remediation)} |`);
    lines.push('');
  }

  lines.push(...renderNodes(report), ...renderQuotas(report), ...renderDeviceClasses(report));

  if (report.warnings.length > 0) {
    lines.push('## Warnings', '');
    for (const w of report.warnings) lines.push(`- ${e(w)}`);
    lines.push('');
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}
