import type { FindingText, FindingTexts, Issue } from '@/lib/analysis/types';

// A finding's own fix, for the checks with a structured fix (issue-fixes.ts): the check's hand-written
// YAML is not what the engine checked (it named every driver of the cluster, proposed securityContext
// fields the API server or the kubelet refuse...), so a finding of such an issue shows its issue's
// checked fix, or its "No safe automatic fix: why". One fix covers every finding of an issue (its
// changes were verified together), so the text is made once per issue and shared by its findings.

/** `texts` with the remediation of every finding of an issue that carries a `fix` replaced by that fix's text. */
export function withFixTexts(texts: FindingTexts, issues: readonly Issue[]): Map<string, FindingText> {
  const out = new Map(texts);
  for (const issue of issues) {
    if (!issue.fix) continue;
    const remediation = findingRemediation(issue);
    for (const id of issue.findingIds) {
      const text = out.get(id);
      if (text) out.set(id, { ...text, remediation });
    }
  }
  return out;
}

/** The issue's checked fix as one of its findings reads it. */
export function findingRemediation(issue: Pick<Issue, 'remediation' | 'findingIds'>): string {
  const others = issue.findingIds.length - 1;
  if (others <= 0) return issue.remediation;
  return `One fix covers this finding and the ${others === 1 ? 'other finding' : `${others} other findings`} of its issue:\n\n${issue.remediation}`;
}
