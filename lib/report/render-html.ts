import { groupNodeWriters } from './node-writer-groups';
import { describeRef, describeSubject } from '@/lib/k8s/refs';
import { describeEvidence } from '@/lib/analysis/evidence';
import { checksFired } from './checks-fired';
import { clusterConfigLines } from '@/lib/analysis/cluster-config-text';
import { issuePages } from './issue-pages';
import { SEVERITY_COLOURS, summaryChartSvg } from './summary-chart-svg';
import { SEVERITIES, type Finding, type NodeStatusWriter, type Report } from '@/lib/analysis/types';
import { partialNotice } from './partial-notice';

// The posture report as one printable HTML file: inline CSS, an inline SVG chart, no scripts and a
// CSP that forbids them, so it opens offline years later and prints (or turns into a PDF) as is.
// Every name from the cluster is escaped.

export interface HtmlReportOptions {
  generatedAt: string;
  toolVersion: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
const h = escapeHtml;

const CSS = `
@page { size: A4; margin: 16mm 14mm; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #0f172a; font-size: 11pt; line-height: 1.45; margin: 0 auto; max-width: 60rem; padding: 1.5rem; }
h1 { font-size: 26pt; margin: 0 0 .5rem; }
h2 { font-size: 16pt; border-bottom: 2px solid #cbd5e1; padding-bottom: .25rem; margin-top: 2rem; }
h3 { font-size: 13pt; margin-top: 1.5rem; }
.cover { min-height: 90vh; display: flex; flex-direction: column; justify-content: center; break-after: page; }
.cover dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 1.5rem 0; }
.cover dt { color: #475569; }
.muted { color: #475569; }
.partial { border: 1px solid #f59e0b; background: #fffbeb; padding: 0.5rem 0.75rem; margin: 1rem 0; }
table { border-collapse: collapse; table-layout: fixed; width: 100%; margin: .5rem 0 1rem; font-size: 9.5pt; }
th, td { border: 1px solid #cbd5e1; padding: .25rem .4rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: #f1f5f9; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
.finding { border: 1px solid #cbd5e1; border-left-width: 6px; border-radius: 4px; padding: .5rem .75rem; margin: .75rem 0; break-inside: avoid; }
.finding h4 { margin: 0 0 .25rem; font-size: 11pt; }
.finding p { margin: .25rem 0; }
.finding ul { margin: .25rem 0; padding-left: 1.2rem; }
.badge { display: inline-block; color: #fff; border-radius: 3px; padding: 0 .35rem; font-size: 9pt; font-weight: 600; text-transform: uppercase; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f8fafc; border: 1px solid #e2e8f0; padding: .4rem; font-size: 9pt; margin: .25rem 0; }
code { font-size: 9.5pt; overflow-wrap: anywhere; }
.section { break-before: page; }
`;

// The issue above gives the title and the fix; each finding says who, what and why.
function renderFinding(f: Finding): string {
  const colour = SEVERITY_COLOURS[f.severity];
  const parts = [`<article class="finding" style="border-left-color:${colour}">`, `<h4>Finding <code>${h(f.id)}</code></h4>`];
  if (f.subjects.length > 0) parts.push(`<p><strong>Subjects:</strong> ${f.subjects.map((s) => h(describeSubject(s))).join(', ')}</p>`);
  if (f.objects.length > 0) parts.push(`<p><strong>Objects:</strong> ${f.objects.map((o) => h(describeRef(o))).join(', ')}</p>`);
  if (f.evidence.length > 0) parts.push(`<p><strong>Evidence:</strong></p><ul>${f.evidence.map((e) => `<li>${h(describeEvidence(e))}</li>`).join('')}</ul>`);
  parts.push('</article>');
  return parts.join('');
}

function* renderIssues(report: Report): Generator<string> {
  yield '<section id="issues"><h2>Issues, highest risk first</h2>';
  if (report.issues.length === 0) {
    yield '<p>No findings.</p></section>';
    return;
  }
  yield '<table><thead><tr><th scope="col" style="width:3rem">#</th><th scope="col" style="width:4rem">Risk</th><th scope="col" style="width:5.5rem">Severity</th><th scope="col">Issue</th><th scope="col" style="width:5rem">Findings</th><th scope="col">Why</th></tr></thead><tbody>';
  for (const [n, i] of report.issues.entries()) {
    yield `<tr><td>${n + 1}</td><td>${i.risk.score}</td><td>${h(i.severity)}</td><td><a href="#issue-${h(i.id)}">${h(i.check)}: ${h(i.title)}</a></td><td>${i.findingIds.length}</td><td>${h(i.risk.reasons.join('; ')) || '–'}</td></tr>`;
  }
  yield '</tbody></table></section>';
  yield '<section id="findings"><h2>Findings by issue</h2>';
  for (const page of issuePages(report)) {
    const i = page.issue;
    const colour = SEVERITY_COLOURS[i.severity];
    yield `<section class="issue" id="issue-${h(i.id)}"><h3><span class="badge" style="background:${colour}">${h(i.severity)}</span> ${page.rank}. ${h(i.check)}: ${h(i.title)}</h3>`;
    yield `<p>Risk <strong>${i.risk.score}</strong> <span class="muted">(severity ${i.risk.severity} × reach ${i.risk.reach} × exposure ${i.risk.exposure})</span>${i.risk.reasons.length > 0 ? `: ${h(i.risk.reasons.join('; '))}` : ''}</p>`;
    if (page.attackPath) {
      const steps = page.attackPath.steps.map(
        (s) => `<li>${h(s.text)}${s.evidence?.length ? ` <span class="muted">(${h(s.evidence.map(describeEvidence).join('; '))})</span>` : ''}</li>`,
      );
      yield `<p><strong>Attack path:</strong></p><ol class="attack-path">${steps.join('')}</ol>`;
    }
    yield `<p><strong>Fix:</strong></p><pre>${h(i.remediation)}</pre>`;
    for (const f of page.findings) yield renderFinding(f);
    if (page.more > 0) yield `<p class="muted">… and ${page.more} more findings of this issue (all of them are in report.json).</p>`;
    yield '</section>';
  }
  yield '</section>';
}

const writer = (w: NodeStatusWriter) =>
  `${h(describeSubject(w.subject))} <span class="muted">(${h(w.mode)}${w.scope === 'own-node' ? '' : `, ${h(w.scope)}`})</span>`;

function* renderNodes(report: Report): Generator<string> {
  yield '<section class="section" id="node-writers"><h2>Node writers</h2>';
  if (report.nodes.length === 0) {
    yield '<p>No nodes.</p></section>';
    return;
  }
  const groups = groupNodeWriters(report);
  yield '<p class="muted">Who can update or patch each node\'s <code>nodes/status</code>, and who can write <code>status.devices</code> of claims allocated on it.</p>';
  if (groups.everyNode.length > 0) {
    yield '<h3>Writers of every node</h3><table><thead><tr><th scope="col">Subject</th><th scope="col">Mode</th></tr></thead><tbody>';
    for (const w of groups.everyNode) yield `<tr><td>${h(describeSubject(w.subject))}</td><td>${h(w.mode)}</td></tr>`;
    yield '</tbody></table>';
  }
  if (groups.everyClaim.length > 0) {
    yield '<h3>Writers of every claim of a driver, on every node</h3><table><thead><tr><th scope="col">Driver</th><th scope="col">Subject</th><th scope="col">Mode</th></tr></thead><tbody>';
    for (const w of groups.everyClaim) yield `<tr><td>${h(w.driver)}</td><td>${h(describeSubject(w.subject))}</td><td>${h(w.mode)}</td></tr>`;
    yield '</tbody></table>';
  }
  yield '<h3>Per node</h3><table><colgroup><col style="width:18%"><col style="width:30%"><col style="width:17%"><col style="width:35%"></colgroup><thead><tr><th scope="col">Node</th><th scope="col">Status writers (own node or named)</th><th scope="col">Claim drivers</th><th scope="col">Claim status writers (beyond every node\'s)</th></tr></thead><tbody>';
  for (const n of groups.perNode) {
    const own = n.statusWriters.map(writer).join('<br>') || '–';
    const drivers = n.claimDrivers.map(h).join('<br>') || '–';
    const claims =
      n.claimStatusWriters.map((w) => `${h(w.driver)}: ${h(describeSubject(w.subject))} <span class="muted">(${h(w.mode)})</span>`).join('<br>') || '–';
    yield `<tr><td>${h(n.name)}</td><td>${own}</td><td>${drivers}</td><td>${claims}</td></tr>`;
  }
  yield '</tbody></table></section>';
}

function* renderQuotas(report: Report): Generator<string> {
  yield '<section id="quotas"><h2>DRA quotas</h2>';
  if (report.quotas.length === 0) {
    yield '<p>No ResourceQuota sets a DRA limit.</p></section>';
    return;
  }
  yield '<table><thead><tr><th scope="col">Namespace</th><th scope="col">ResourceQuota</th><th scope="col">Resource</th><th scope="col">Hard</th><th scope="col">Used (reported)</th><th scope="col">Used (computed)</th></tr></thead><tbody>';
  for (const q of report.quotas) {
    yield `<tr><td>${h(q.namespace)}</td><td>${h(q.name)}</td><td>${h(q.resource)}</td><td>${h(q.hard)}</td><td>${q.used === null ? '–' : h(q.used)}</td><td>${h(q.computedUsed)}</td></tr>`;
  }
  yield '</tbody></table></section>';
}

function* renderZeroing(report: Report): Generator<string> {
  yield '<section id="zeroing"><h2>Device zeroing</h2>';
  if (report.deviceClasses.length === 0) {
    yield '<p>No DeviceClasses.</p></section>';
    return;
  }
  yield '<table><thead><tr><th scope="col">DeviceClass</th><th scope="col">Driver</th><th scope="col">Zeroing</th><th scope="col">Used by namespaces</th></tr></thead><tbody>';
  for (const d of report.deviceClasses) {
    yield `<tr><td>${h(d.name)}</td><td>${d.driver === null ? '–' : h(d.driver)}</td><td>${h(d.zeroing)}</td><td>${d.usedByNamespaces.map(h).join(', ') || '–'}</td></tr>`;
  }
  yield '</tbody></table></section>';
}

/** The HTML in pieces (a large cluster's report runs to tens of megabytes). */
export function* renderReportHtmlChunks(report: Report, options: HtmlReportOptions): Generator<string> {
  const s = report.source;
  const total = SEVERITIES.reduce((n, sev) => n + (report.summary[sev] ?? 0), 0);
  yield '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">';
  yield `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`;
  yield `<meta name="viewport" content="width=device-width, initial-scale=1"><title>DRA posture report: ${h(s.name)}</title><style>${CSS}</style></head><body>`;
  yield '<main>';
  yield `<section class="cover"><p class="muted">dra-posture compliance snapshot</p><h1>DRA posture report</h1><p>${h(s.name)}</p><dl>`;
  yield `<dt>Source</dt><dd>${h(s.kind)} ${h(s.name)}</dd>`;
  yield `<dt>Kubernetes</dt><dd>${s.kubernetesVersion ? h(s.kubernetesVersion) : 'unknown'}</dd>`;
  yield `<dt>Collected</dt><dd>${s.collectedAt ? h(s.collectedAt) : 'not recorded by the source'}</dd>`;
  for (const l of clusterConfigLines(report.clusterConfig)) yield `<dt>${h(l.label)}</dt><dd>${h(l.value)} <span class="muted">(${h(l.source)})</span></dd>`;
  yield `<dt>Report generated</dt><dd>${h(options.generatedAt)}</dd>`;
  yield `<dt>Tool</dt><dd>dra-posture ${h(options.toolVersion)}</dd>`;
  yield `<dt>Findings</dt><dd>${total}</dd></dl>`;
  const partial = partialNotice(report);
  if (partial) {
    yield `<section id="partial" class="partial"><p><strong>${h(partial.headline)}</strong> Unknown: ${partial.checks.map(h).join(', ')}. See Warnings.</p></section>`;
  }
  yield `<h2>Summary</h2><figure>${summaryChartSvg(report.summary)}<figcaption class="muted">Findings by severity</figcaption></figure></section>`;

  yield* renderIssues(report);
  const fired = checksFired(report);
  if (fired.length > 0) {
    yield '<section id="checks"><h2>Checks with findings</h2><table><thead><tr><th scope="col">Check</th><th scope="col">Severity</th><th scope="col">Findings</th><th scope="col">What it means</th><th scope="col">Fix</th></tr></thead><tbody>';
    for (const c of fired)
      yield `<tr><td>${h(c.id)}: ${h(c.entry.title)}</td><td>${h(c.entry.severity)}</td><td>${c.findings}</td><td>${h(c.entry.description)}</td><td>${h(c.entry.remediation)}</td></tr>`;
    yield '</tbody></table></section>';
  }
  yield* renderNodes(report);
  yield* renderQuotas(report);
  yield* renderZeroing(report);
  if (report.warnings.length > 0) {
    yield `<section id="warnings"><h2>Warnings</h2><ul>${report.warnings.map((w) => `<li>${h(w)}</li>`).join('')}</ul></section>`;
  }
  yield '</main></body></html>\n';
}

export function renderReportHtml(report: Report, options: HtmlReportOptions): string {
  return [...renderReportHtmlChunks(report, options)].join('');
}
