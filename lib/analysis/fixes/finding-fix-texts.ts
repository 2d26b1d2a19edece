import type { Finding, FindingText, FindingTexts, FixChange, Issue } from '@/lib/analysis/types';
import { changeText } from './fix-text';
import { shownChanges } from './issue-fixes';

// A finding's own fix, for the checks with a structured fix (issue-fixes.ts): the check's hand-written
// YAML is not what the engine checked (it named every driver of the cluster, proposed securityContext
// fields the API server or the kubelet refuse...), so a finding of such an issue shows its issue's
// checked fix, or its "No safe automatic fix: why". One fix covers every finding of an issue (its
// changes were verified together), so the text is made once per issue and shared by its findings.

/**
 * `texts` with the remediation of every finding of an issue that carries a `fix` replaced by that fix's
 * text. A fix of one object per namespace whose issue text prints only the first few (thousands of
 * namespaces on a large cluster) gives each finding its own namespace's object instead.
 */
export function withFixTexts(texts: FindingTexts, issues: readonly Issue[], findings: readonly Finding[] = []): Map<string, FindingText> {
  const out = new Map(texts);
  let byId: Map<string, Finding> | undefined;
  for (const issue of issues) {
    if (!issue.fix) continue;
    const remediation = findingRemediation(issue);
    const perNamespace = issue.fix.status === 'verified' && issue.fix.changes.length > shownChanges(issue.check) ? byNamespace(issue.fix.changes) : undefined;
    if (perNamespace) byId ??= new Map(findings.map((f) => [f.id, f]));
    for (const id of issue.findingIds) {
      const text = out.get(id);
      if (!text) continue;
      const own = perNamespace && ownChange(byId!.get(id), perNamespace);
      out.set(id, { ...text, remediation: own ? namespaceRemediation(issue, own) : remediation });
    }
  }
  return out;
}

/** The changes that create one object in a namespace, by namespace (a namespace with two is left out). */
function byNamespace(changes: readonly FixChange[]): Map<string, FixChange> {
  const out = new Map<string, FixChange>();
  const twice = new Set<string>();
  for (const c of changes) {
    const ns = c.action === 'create' ? (c.object.metadata as { namespace?: string } | undefined)?.namespace : undefined;
    if (!ns) continue;
    if (out.has(ns)) twice.add(ns);
    out.set(ns, c);
  }
  for (const ns of twice) out.delete(ns);
  return out;
}

/** The change for the one Namespace a finding names, if any. */
function ownChange(finding: Finding | undefined, perNamespace: Map<string, FixChange>): FixChange | undefined {
  const namespaces = finding?.objects.filter((o) => o.kind === 'Namespace') ?? [];
  return namespaces.length === 1 ? perNamespace.get(namespaces[0].name) : undefined;
}

function namespaceRemediation(issue: Pick<Issue, 'findingIds' | 'fix'>, change: FixChange): string {
  const n = issue.fix!.changes.length;
  return (
    `The fix of its issue adds one object in each of ${n} namespaces (the engine applied them to a copy of the cluster and checked them); this namespace's:\n` +
    `${changeText(change)}\n` +
    `# The issue's fix.changes in the JSON report (report -o json) lists all ${n}; each finding of the issue shows its own.`
  );
}

/** The issue's checked fix as one of its findings reads it. */
export function findingRemediation(issue: Pick<Issue, 'remediation' | 'findingIds'>): string {
  const others = issue.findingIds.length - 1;
  if (others <= 0) return issue.remediation;
  return `One fix covers this finding and the ${others === 1 ? 'other finding' : `${others} other findings`} of its issue:\n\n${issue.remediation}`;
}
