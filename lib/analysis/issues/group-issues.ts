import { formatCount, plural } from './count-text';
import { CATALOG } from '@/lib/analysis/catalog';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { NodeWriterLists } from '@/lib/analysis/node-writers/node-writers';
import { SEVERITIES, type AttackPath, type Finding, type FindingTexts, type Issue, type IssueRisk, type Severity } from '@/lib/analysis/types';
import { ATTACK_PATH_ISSUES, attackPaths } from './attack-paths';
import { compareStrings, describeRef, describeSubject, refKey, sortRefs, sortSubjects } from '@/lib/k8s/refs';
import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';
import { ReachIndex } from './reach';
import { affectedCounts, countTenantNamespaces, findingRefs, type RefTree } from './finding-refs';
import { rootCauseOf } from './root-cause';

// Findings grouped by cause and ranked by risk = severity × reach × exposure:
// - severity: critical 10, high 6, medium 3, low 1.5, info 0.5;
// - reach: 1 + log10(1 + the nodes whose nodes/status or ResourceSlices (unless a policy pins them to the writer's
//   own node) the issue's identities can write + the allocated
//   claims whose device status they can forge (not a driver's own claims) + the tenant namespaces it affects);
//   when one of its identities holds full control of the cluster (lib/analysis/full-control.ts): every node,
//   every allocated claim and every namespace, plus 1, so a takeover outranks any bounded reach at the same
//   severity and exposure (full control also holds what the counts leave out: Secrets, workloads, RBAC);
// - exposure: the largest multiplier among its identities: 3 for a group every identity carries
//   (system:authenticated, system:serviceaccounts…), 2 for a service account whose token sits on every
//   node (a DaemonSet) or in a tenant namespace, else 1.
// The score is rounded to one decimal; ties go by severity, check and ID so the order is reproducible.

/** Kinds whose copies (same name and content in several namespaces) are one issue: role-copies.ts, workload-copies.ts. */
const COPIED_KINDS = new Set(['Role', 'Pod', 'Deployment', 'DaemonSet', 'StatefulSet']);
const copiedWhat = (kind: string) => (kind === 'Role' ? 'rules' : 'pod spec');

export const SEVERITY_WEIGHT: Record<Severity, number> = { critical: 10, high: 6, medium: 3, low: 1.5, info: 0.5 };

/** Issues and the attack paths of the highest-risk ones: what the report carries. */
export function analyseIssues(
  findings: readonly Finding[],
  texts: FindingTexts,
  ctx: AnalysisContext,
  writers: NodeWriterLists,
): { issues: Issue[]; attackPaths: AttackPath[] } {
  const reach = new ReachIndex(ctx, writers);
  const issues = groupIssuesWith(findings, texts, ctx, reach);
  // Only the top issues' findings are read for attack paths: no map of every finding.
  const wanted = new Set<string>();
  for (const issue of issues.slice(0, ATTACK_PATH_ISSUES)) for (const id of issue.findingIds) wanted.add(id);
  const findingsById = new Map<string, Finding>();
  for (const f of findings) if (wanted.has(f.id)) findingsById.set(f.id, f);
  return { issues, attackPaths: attackPaths(ctx, reach, issues, findingsById) };
}

export function groupIssues(findings: readonly Finding[], texts: FindingTexts, ctx: AnalysisContext, writers: NodeWriterLists): Issue[] {
  return groupIssuesWith(findings, texts, ctx, new ReachIndex(ctx, writers));
}

function groupIssuesWith(findings: readonly Finding[], texts: FindingTexts, ctx: AnalysisContext, reach: ReachIndex): Issue[] {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = groups.get(f.issueId);
    if (list) list.push(f);
    else groups.set(f.issueId, [f]);
  }
  const issues = [...groups.entries()].map(([id, list]) => buildIssue(id, list, texts, ctx, reach));
  const rank = (s: Severity) => SEVERITIES.indexOf(s);
  return issues.sort(
    (a, b) => b.risk.score - a.risk.score || rank(a.severity) - rank(b.severity) || compareStrings(a.check, b.check) || compareStrings(a.id, b.id),
  );
}

function buildIssue(id: string, findings: Finding[], texts: FindingTexts, ctx: AnalysisContext, reach: ReachIndex): Issue {
  const first = findings[0];
  const entry = CATALOG[first.check];
  // One root cause, or the copies of one Role (same name and rules) in several namespaces.
  const causes = new Map<string, ObjectRef>();
  for (const f of findings) for (const r of rootCauseOf(f)) causes.set(refKey(r), r);
  const rootCause = sortRefs([...causes.values()]);
  const copies =
    rootCause.length > 1 && COPIED_KINDS.has(rootCause[0].kind) && rootCause.every((r) => r.kind === rootCause[0].kind && r.name === rootCause[0].name)
      ? rootCause.length
      : 0;
  const refs = findingRefs(findings);
  const affected = affectedCounts(refs, rootCause);
  const subjects = sortSubjects(findings.flatMap((f) => f.subjects));
  return {
    id,
    check: first.check,
    severity: first.severity,
    title: `${entry.title}: ${copies > 0 ? `${rootCause[0].kind} ${rootCause[0].name}, the same ${copiedWhat(rootCause[0].kind)} in ${formatCount(copies)} namespaces` : rootCause.length > 0 ? rootCause.map(describeRef).join(', ') : affectedText(affected)}`,
    rootCause,
    affected,
    findingIds: findings.map((f) => f.id),
    remediation: remediationOf(findings, texts, entry.remediation, rootCause.length === 0, copies, rootCause[0]?.kind),
    risk: riskOf(first.severity, subjects, refs, ctx, reach),
  };
}

function affectedText(affected: Record<string, number>): string {
  const parts = Object.entries(affected).map(([kind, n]) =>
    kind === 'Namespace' ? plural(n, 'namespace') : plural(n, kind, kind.endsWith('s') ? `${kind}es` : `${kind}s`),
  );
  return parts.length > 0 ? parts.join(', ') : 'cluster-wide';
}

/** What an issue's remediation starts with when its root cause is copies of one object (fixes keep it). */
export function copiesLead(kind: string, copies: number): string {
  return `The same ${kind} (name and ${copiedWhat(kind)}) is in ${formatCount(copies)} namespaces, most likely stamped out by one chart or template: fix it there, then in every copy.`;
}

/** One fix for the group: a check-level gap gets the general fix and one worked example; otherwise the first finding's own fix, which every finding of the same root cause shares. */
function remediationOf(findings: Finding[], texts: FindingTexts, general: string, checkLevel: boolean, copies: number, kind = 'Role'): string {
  const example = texts.get(findings[0].id)?.remediation ?? '';
  if (copies > 0) {
    const lead = copiesLead(kind, copies);
    return example ? `${lead} For the first copy:\n\n${example}` : `${lead} ${general}`;
  }
  if (!checkLevel) return example || general;
  if (findings.length === 1) return example ? `${general}\n\n${example}` : general;
  return example ? `${general} The same fix applies to each of the ${formatCount(findings.length)} findings; for the first:\n\n${example}` : general;
}

function riskOf(severity: Severity, subjects: SubjectRef[], refs: RefTree, ctx: AnalysisContext, reach: ReachIndex): IssueRisk {
  const reasons: string[] = [];
  let reachFactor: number;
  const taker = subjects.find((s) => reach.fullControl.of(s) !== undefined);
  if (taker) {
    const reached = reach.nodeCount + reach.claimCount + ctx.namespaces.length;
    reasons.push(
      `full control of the cluster (${plural(reach.nodeCount, 'node')}, ${plural(reach.claimCount, 'allocated claim')}, ${plural(ctx.namespaces.length, 'namespace')}): ` +
        `${describeSubject(taker)} ${reach.fullControl.of(taker)}`,
    );
    reachFactor = 2 + Math.log10(1 + reached);
  } else {
    const statusNodes = reach.statusNodes(subjects);
    if (statusNodes > 0)
      reasons.push(
        statusNodes === reach.nodeCount && statusNodes > 1
          ? `writes status of all ${formatCount(statusNodes)} nodes`
          : `writes status of ${plural(statusNodes, 'node')}`,
      );
    const slices = reach.writesOtherNodesSlices(subjects);
    if (slices) reasons.push(`writes ResourceSlices of all ${formatCount(reach.nodeCount)} nodes (no admission policy pins them to its own node)`);
    const nodes = slices ? reach.nodeCount : statusNodes;
    const claims = reach.claims(subjects);
    if (claims > 0) reasons.push(`can forge device status of ${plural(claims, 'allocated claim')}`);
    const tenants = countTenantNamespaces(refs, (ns) => ctx.isTenantNamespace(ns));
    if (tenants > 0) reasons.push(`affects ${plural(tenants, 'tenant namespace')}`);
    reachFactor = 1 + Math.log10(1 + nodes + claims + tenants);
  }
  let exposure = 1;
  const exposures: string[] = [];
  for (const s of subjects) {
    const e = reach.exposure(s);
    if (e.factor > 1) exposures.push(e.text);
    exposure = Math.max(exposure, e.factor);
  }
  if (exposures.length > 3) reasons.push(...exposures.slice(0, 3), `and ${plural(exposures.length - 3, 'more exposed identity', 'more exposed identities')}`);
  else reasons.push(...exposures);
  const weight = SEVERITY_WEIGHT[severity];
  return {
    score: Math.round(weight * reachFactor * exposure * 10) / 10,
    severity: weight,
    reach: Math.round(reachFactor * 100) / 100,
    exposure,
    reasons,
  };
}
