import { CATALOG } from '@/lib/analysis/catalog';
import { describeEvidence } from '@/lib/analysis/evidence';
import type { DetailedFinding, Finding, FindingText, FindingTexts, Issue } from '@/lib/analysis/types';
import { describeRef, describeSubject } from '@/lib/k8s/refs';

// The report's findings carry no words (a large cluster has tens of thousands of them); the words
// live once on the issue, and the engine keeps each finding's own text beside the report.

/** The report's findings and their texts, from what the checks produce (order kept). */
export function separateTexts(detailed: readonly DetailedFinding[]): { findings: Finding[]; texts: Map<string, FindingText> } {
  const findings: Finding[] = new Array(detailed.length);
  const texts = new Map<string, FindingText>();
  for (let i = 0; i < detailed.length; i++) {
    const { title, message, remediation, ...finding } = detailed[i];
    findings[i] = finding;
    texts.set(finding.id, { title, message, remediation });
  }
  return { findings, texts };
}

/** The check's title: a finding's heading. */
export function findingTitle(f: Pick<Finding, 'check'>): string {
  return CATALOG[f.check]?.title ?? f.check;
}

/**
 * A finding in words from its refs and evidence alone ("Group g: ClusterRoleBinding b → ClusterRole r
 * rule #1: …"), for outputs that have the report but not the texts (a bundle's report.json).
 */
export function describeFinding(f: Pick<Finding, 'subjects' | 'objects' | 'evidence'>): string {
  const who = f.subjects.length > 0 ? f.subjects.map(describeSubject).join(', ') : f.objects.map(describeRef).join(', ');
  const why = f.evidence.map(describeEvidence).join('; ');
  return why ? `${who}: ${why}` : who;
}

/** The finding's own text when the engine kept it, else its description and its issue's fix. */
export function findingTextOf(f: Finding, texts: FindingTexts | undefined, issue?: Pick<Issue, 'remediation'>): FindingText {
  return texts?.get(f.id) ?? { title: findingTitle(f), message: describeFinding(f), remediation: issue?.remediation ?? CATALOG[f.check]?.remediation ?? '' };
}

/** The finding with its words (the engine's, else described from the report). */
export function detailFinding(f: Finding, texts: FindingTexts | undefined, issue?: Pick<Issue, 'remediation'>): DetailedFinding {
  return { ...f, ...findingTextOf(f, texts, issue) };
}
