import { SEVERITIES, type ClaimStatusWriter, type Evidence, type Finding, type NodeStatusWriter, type Report } from './types';
import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';

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

export function describeSubjectRef(s: SubjectRef): string {
  return s.kind === 'ServiceAccount' ? `ServiceAccount ${s.namespace ?? ''}/${s.name}` : `${s.kind} ${s.name}`;
}

export function describeObjectRef(o: ObjectRef): string {
  return o.namespace ? `${o.kind} ${o.namespace}/${o.name}` : `${o.kind} ${o.name}`;
}

function describeRule(rule: Extract<Evidence, { type: 'grant' }>['rule']): string {
  const parts = [`verbs [${rule.verbs.join(', ')}]`];
  if (rule.apiGroups) parts.push(`apiGroups [${rule.apiGroups.map((g) => (g === '' ? '""' : g)).join(', ')}]`);
  if (rule.resources) parts.push(`resources [${rule.resources.join(', ')}]`);
  if (rule.resourceNames) parts.push(`resourceNames [${rule.resourceNames.join(', ')}]`);
  if (rule.nonResourceURLs) parts.push(`nonResourceURLs [${rule.nonResourceURLs.join(', ')}]`);
  return parts.join(', ');
}

export function describeEvidence(ev: Evidence): string {
  if (ev.type === 'grant') {
    const from = ev.aggregatedFrom ? ` (aggregated from ClusterRole ${ev.aggregatedFrom})` : '';
    return `${describeObjectRef(ev.binding)} → ${describeObjectRef(ev.role)} rule #${ev.ruleIndex}: ${describeRule(ev.rule)}${from}`;
  }
  if (ev.type === 'field') return `${describeObjectRef(ev.object)} ${ev.path} = ${JSON.stringify(ev.value) ?? 'undefined'}`;
  return ev.text;
}

function renderFinding(f: Finding): string[] {
  const lines = [`#### ${e(f.check)}: ${e(f.title)}`, ''];
  if (f.subjects.length > 0) lines.push(`- **Subjects:** ${f.subjects.map((s) => e(describeSubjectRef(s))).join(', ')}`);
  if (f.objects.length > 0) lines.push(`- **Objects:** ${f.objects.map((o) => e(describeObjectRef(o))).join(', ')}`);
  lines.push(`- **ID:** ${e(f.id)}`, '', e(f.message), '');
  if (f.evidence.length > 0) {
    lines.push('Evidence:', '');
    for (const ev of f.evidence) lines.push(`- ${e(describeEvidence(ev))}`);
    lines.push('');
  }
  if (f.remediation) lines.push('Remediation:', '', fenced(f.remediation), '');
  return lines;
}

const writerText = (w: NodeStatusWriter) => `${e(describeSubjectRef(w.subject))} (${w.mode}${w.scope === 'own-node' ? '' : `, ${w.scope}`})`;
const claimWriterText = (w: ClaimStatusWriter) => `${e(w.driver)}: ${e(describeSubjectRef(w.subject))} (${w.mode})`;

function renderNodes(report: Report): string[] {
  const lines = ['## Node status writers', ''];
  if (report.nodes.length === 0) return [...lines, 'No nodes.', ''];
  const everywhere = report.allNodes.statusWriters;
  if (everywhere.length > 0) {
    lines.push('Every node:', '', '| Subject | Mode |', '|---|---|');
    for (const w of everywhere) lines.push(`| ${e(describeSubjectRef(w.subject))} | ${w.mode} |`);
    lines.push('');
  }
  const anyClaim = report.allNodes.claimStatusWriters;
  if (anyClaim.length > 0) {
    lines.push('Every claim of a driver, on every node:', '', '| Driver | Subject | Mode |', '|---|---|---|');
    for (const w of anyClaim) lines.push(`| ${e(w.driver)} | ${e(describeSubjectRef(w.subject))} | ${w.mode} |`);
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

  lines.push('## Summary', '', '| Severity | Findings |', '|---|---|');
  for (const sev of SEVERITIES) lines.push(`| ${SEVERITY_TITLE[sev]} | ${report.summary[sev] ?? 0} |`);
  lines.push('');

  lines.push('## Findings', '');
  if (report.findings.length === 0) lines.push('No findings.', '');
  for (const sev of SEVERITIES) {
    const group = report.findings.filter((f) => f.severity === sev);
    if (group.length === 0) continue;
    lines.push(`### ${SEVERITY_TITLE[sev]} (${group.length})`, '');
    for (const f of group) lines.push(...renderFinding(f));
  }

  lines.push(...renderNodes(report), ...renderQuotas(report), ...renderDeviceClasses(report));

  if (report.warnings.length > 0) {
    lines.push('## Warnings', '');
    for (const w of report.warnings) lines.push(`- ${e(w)}`);
    lines.push('');
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}
