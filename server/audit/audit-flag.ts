import 'server-only';
import { withActivity } from '@/lib/audit/attach-activity';
import type { ReportBuild } from '@/lib/report/build-report';
import { readAuditLog } from './read-audit-log';

/** `--audit PATH` of report, serve and export: the report with the audit findings and the activity section. */
export async function reportWithAudit(build: ReportBuild, auditPath: string | undefined): Promise<ReportBuild> {
  if (auditPath === undefined) return build;
  const aggregate = await readAuditLog(auditPath);
  return withActivity(build, aggregate);
}
