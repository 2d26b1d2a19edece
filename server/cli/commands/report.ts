import 'server-only';
import { parseArgs } from 'node:util';
import { buildReportWithContext, countAtOrAbove } from '@/lib/report/build-report';
import { renderActivityMarkdown } from '@/lib/audit/render-activity-markdown';
import { reportWithAudit } from '@/server/audit/audit-flag';
import { renderReportHtmlChunks } from '@/lib/report/render-html';
import { renderReportMarkdownChunks } from '@/lib/report/render-markdown';
import { renderReportSarifChunks } from '@/lib/report/render-sarif';
import { renderReportJunit } from '@/lib/report/render-junit';
import { TOOL_VERSION } from '@/server/compliance/tool-version';
import { reportJsonChunks } from '@/lib/report/report-json';
import { SEVERITIES, type Severity } from '@/lib/analysis/types';
import { loadClusterFromFlags, SOURCE_OPTIONS } from '../load-cluster';
import { CLUSTER_CONFIG_OPTIONS, clusterConfigFlags } from '../cluster-config-flags';
import { UsageError } from '../usage-error';
import type { CommandIO } from '../command-io';

const OPTIONS = {
  ...SOURCE_OPTIONS,
  output: { type: 'string', short: 'o' },
  'fail-on': { type: 'string' },
  ...CLUSTER_CONFIG_OPTIONS,
  audit: { type: 'string' },
} as const;

/** Exit code when --fail-on is given and a finding at or above that severity exists. */
export const EXIT_FINDINGS = 3;

const FORMATS = ['markdown', 'json', 'html', 'sarif', 'junit'] as const;

/**
 * `dra-posture report [-o markdown|json|html] [--fail-on SEVERITY] (--snapshot PATH | --demo)`: the posture
 * report (DESIGN §5). Markdown by default (for people); `-o json` is the contract shared with the API.
 * Exit 0, or 3 with --fail-on when findings at or above that severity exist; 2 on usage errors.
 */
export async function runReport(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length > 0) throw new UsageError(`unexpected arguments: ${positionals.join(' ')}`);
  const output = values.output ?? 'markdown';
  if (!(FORMATS as readonly string[]).includes(output)) throw new UsageError(`-o must be one of ${FORMATS.join(', ')} (got "${output}")`);
  let failOn: Severity | undefined;
  if (values['fail-on'] !== undefined) {
    const s = values['fail-on'].toLowerCase();
    if (!(SEVERITIES as readonly string[]).includes(s)) throw new UsageError(`--fail-on expects one of ${SEVERITIES.join(', ')} (got "${values['fail-on']}")`);
    failOn = s as Severity;
  }
  const { overrides } = clusterConfigFlags(values);

  const state = await loadClusterFromFlags(values);
  const { report } = await reportWithAudit(buildReportWithContext(state, overrides ? { clusterConfig: overrides } : {}), values.audit);
  if (output === 'json') {
    // In pieces: a large cluster's report can exceed the longest string the engine can build.
    for (const chunk of reportJsonChunks(report)) io.out(chunk);
  } else if (output === 'sarif') {
    for (const chunk of renderReportSarifChunks(report, { toolVersion: TOOL_VERSION })) io.out(chunk);
  } else if (output === 'junit') {
    io.out(renderReportJunit(report, { failOn }));
  } else if (output === 'html') {
    // The printable, self-contained report of the compliance bundle (no scripts, inline CSS and SVG).
    for (const chunk of renderReportHtmlChunks(report, { generatedAt: new Date().toISOString(), toolVersion: TOOL_VERSION })) io.out(chunk);
  } else {
    // In pieces of whole lines, as the JSON and HTML: a large cluster's report has hundreds of thousands of lines.
    for (const chunk of renderReportMarkdownChunks(report)) io.out(chunk);
    if (report.activity) io.out(renderActivityMarkdown(report.activity));
  }

  if (failOn !== undefined) {
    const n = countAtOrAbove(report, failOn);
    if (n > 0) {
      io.err(`dra-posture report: ${n} finding(s) at or above ${failOn}`);
      return EXIT_FINDINGS;
    }
  }
  return 0;
}
