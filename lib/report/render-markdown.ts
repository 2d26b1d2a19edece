import { SEVERITIES, type ClaimStatusWriter, type Finding, type NodeStatusWriter, type Report } from '@/lib/analysis/types';
import { describeRef, describeSubject } from '@/lib/k8s/refs';
import { describeEvidence } from '@/lib/analysis/evidence';
import { checksFired } from './checks-fired';
import { clusterConfigLines } from '@/lib/analysis/cluster-config-text';
import { issuePages } from './issue-pages';
import { lineChunks } from './line-chunks';
import { partialNotice } from './partial-notice';

// The posture report as Markdown: summary, findings by severity (evidence and remediation), node
// status writers, claim status writers, quotas, device classes, warnings. Pure; every name coming
// from the cluster is escaped (it can hold `|`, backticks or other Markdown syntax). Sections yield
// their lines one by one (a large cluster's report has hundreds of thousands), never collected and
// spread into another array.

const SEVERITY_TITLE: Record<string, string> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low', info: 'Info' };

/** Escapes text for inline Markdown and table cells (newlines become spaces). */
export function escapeMarkdown(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/[\\`|*_[\]<>#]/g, (c) => `\\${c}`);
}

/** A fenced block whose fence is longer than any backtick run inside. */
export function fenced(text: string, info = ''): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

const e = escapeMarkdown;

function* renderIssues(report: Report): Generator<string> {
  yield '## Issues, highest risk first';
  yield '';
  if (report.issues.length === 0) {
    yield 'No findings.';
    yield '';
    return;
  }
  yield '| # | Risk | Severity | Issue | Findings | Why |';
  yield '|---|---|---|---|---|---|';
  for (const [n, i] of report.issues.entries()) {
    yield `| ${n + 1} | ${i.risk.score} | ${i.severity} | ${e(i.check)}: ${e(i.title)} | ${i.findingIds.length} | ${e(i.risk.reasons.join('; ')) || '–'} |`;
  }
  yield '';
  yield '## Findings by issue';
  yield '';
  for (const page of issuePages(report)) {
    const i = page.issue;
    yield `### ${page.rank}. ${e(i.check)}: ${e(i.title)}`;
    yield '';
    yield `- **Severity:** ${i.severity} · **Risk:** ${i.risk.score} (severity ${i.risk.severity} × reach ${i.risk.reach} × exposure ${i.risk.exposure})`;
    if (i.risk.reasons.length > 0) yield `- **Why:** ${e(i.risk.reasons.join('; '))}`;
    yield `- **ID:** ${e(i.id)} · **Findings:** ${i.findingIds.length}`;
    yield '';
    if (page.attackPath) {
      yield 'Attack path:';
      yield '';
      for (const [n, s] of page.attackPath.steps.entries()) {
        yield `${n + 1}. ${e(s.text)}${s.evidence?.length ? ` (${e(s.evidence.map(describeEvidence).join('; '))})` : ''}`;
      }
      yield '';
    }
    yield 'Fix:';
    yield '';
    yield fenced(i.remediation);
    yield '';
    for (const f of page.findings) yield* renderFinding(f);
    if (page.more > 0) {
      yield `… and ${page.more} more findings of this issue (all of them are in \`report -o json\`).`;
      yield '';
    }
  }
}

// The issue above gives the title and the fix; each finding says who, what and why.
function* renderFinding(f: Finding): Generator<string> {
  yield `#### Finding ${e(f.id)}`;
  yield '';
  if (f.subjects.length > 0) yield `- **Subjects:** ${f.subjects.map((s) => e(describeSubject(s))).join(', ')}`;
  if (f.objects.length > 0) yield `- **Objects:** ${f.objects.map((o) => e(describeRef(o))).join(', ')}`;
  for (const ev of f.evidence) yield `- **Evidence:** ${e(describeEvidence(ev))}`;
  yield '';
}

const writerText = (w: NodeStatusWriter) => `${e(describeSubject(w.subject))} (${w.mode}${w.scope === 'own-node' ? '' : `, ${w.scope}`})`;
const claimWriterText = (w: ClaimStatusWriter) => `${e(w.driver)}: ${e(describeSubject(w.subject))} (${w.mode})`;

function* renderNodes(report: Report): Generator<string> {
  yield '## Node status writers';
  yield '';
  if (report.nodes.length === 0) {
    yield 'No nodes.';
    yield '';
    return;
  }
  const everywhere = report.allNodes.statusWriters;
  if (everywhere.length > 0) {
    yield* ['Every node:', '', '| Subject | Mode |', '|---|---|'];
    for (const w of everywhere) yield `| ${e(describeSubject(w.subject))} | ${w.mode} |`;
    yield '';
  }
  const anyClaim = report.allNodes.claimStatusWriters;
  if (anyClaim.length > 0) {
    yield* ['Every claim of a driver, on every node:', '', '| Driver | Subject | Mode |', '|---|---|---|'];
    for (const w of anyClaim) yield `| ${e(w.driver)} | ${e(describeSubject(w.subject))} | ${w.mode} |`;
    yield '';
  }
  yield "| Node | Status writers (own node or named) | Claim drivers | Claim status writers (beyond every node's) |";
  yield '|---|---|---|---|';
  for (const n of report.nodes) {
    const own = n.statusWriters.map(writerText);
    const claims = n.claimStatusWriters.map(claimWriterText);
    yield `| ${e(n.name)} | ${own.join('<br>') || '–'} | ${n.claimDrivers.map(e).join('<br>') || '–'} | ${claims.join('<br>') || '–'} |`;
  }
  yield '';
}

function* renderQuotas(report: Report): Generator<string> {
  yield '## DRA quotas';
  yield '';
  if (report.quotas.length === 0) {
    yield 'No ResourceQuota sets a DRA limit.';
    yield '';
    return;
  }
  yield '| Namespace | ResourceQuota | Resource | Hard | Used (reported) | Used (computed) |';
  yield '|---|---|---|---|---|---|';
  for (const q of report.quotas) {
    const differs = q.used !== null && q.used !== q.computedUsed ? ' ⚠' : '';
    yield `| ${e(q.namespace)} | ${e(q.name)} | ${e(q.resource)} | ${e(q.hard)} | ${q.used === null ? '–' : e(q.used)} | ${e(q.computedUsed)}${differs} |`;
  }
  yield '';
}

function* renderDeviceClasses(report: Report): Generator<string> {
  yield '## Device classes';
  yield '';
  if (report.deviceClasses.length === 0) {
    yield 'No DeviceClasses.';
    yield '';
    return;
  }
  yield '| DeviceClass | Driver | Zeroing | Used by namespaces |';
  yield '|---|---|---|---|';
  for (const d of report.deviceClasses) {
    yield `| ${e(d.name)} | ${d.driver === null ? '–' : e(d.driver)} | ${d.zeroing} | ${d.usedByNamespaces.map(e).join(', ') || '–'} |`;
  }
  yield '';
}

function* reportLines(report: Report): Generator<string> {
  const s = report.source;
  yield '# DRA posture report';
  yield '';
  const meta = [`Source: ${e(s.kind)} ${e(s.name)}`];
  if (s.kubernetesVersion) meta.push(`Kubernetes ${e(s.kubernetesVersion)}`);
  if (s.collectedAt) meta.push(`collected ${e(s.collectedAt)}`);
  yield meta.join(' · ');
  yield '';
  const config = clusterConfigLines(report.clusterConfig);
  if (config.length > 0) {
    yield `API server: ${config.map((l) => `${e(l.label)} ${e(l.value)} (${e(l.source)})`).join(' · ')}`;
    yield '';
  }

  const partial = partialNotice(report);
  if (partial) {
    yield `> **${e(partial.headline)}** Unknown: ${partial.checks.join(', ')}. See Warnings.`;
    yield '';
  }

  yield* ['## Summary', '', '| Severity | Findings |', '|---|---|'];
  for (const sev of SEVERITIES) yield `| ${SEVERITY_TITLE[sev]} | ${report.summary[sev] ?? 0} |`;
  yield '';

  yield* renderIssues(report);
  const fired = checksFired(report);
  if (fired.length > 0) {
    yield* ['## Checks with findings', '', '| Check | Severity | Findings | What it means | Fix |', '|---|---|---|---|---|'];
    for (const c of fired)
      yield `| ${c.id}: ${e(c.entry.title)} | ${c.entry.severity} | ${c.findings} | ${e(c.entry.description)} | ${e(c.entry.remediation)} |`;
    yield '';
  }

  yield* renderNodes(report);
  yield* renderQuotas(report);
  yield* renderDeviceClasses(report);

  if (report.warnings.length > 0) {
    yield '## Warnings';
    yield '';
    for (const w of report.warnings) yield `- ${e(w)}`;
    yield '';
  }
}

/** The Markdown report in pieces of whole lines (write them in turn; concatenated they are renderReportMarkdown's text). */
export function renderReportMarkdownChunks(report: Report): Generator<string> {
  return lineChunks(reportLines(report));
}

/** The whole Markdown report as one string (small reports; large ones go out with renderReportMarkdownChunks). */
export function renderReportMarkdown(report: Report): string {
  let text = '';
  for (const chunk of renderReportMarkdownChunks(report)) text += chunk;
  return text;
}
