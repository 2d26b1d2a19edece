import type { ClusterState } from '@/lib/k8s/cluster-state';
import { compareStrings } from '@/lib/k8s/refs';
import type { SubjectRef } from '@/lib/k8s/types';
import type { DeviceClassReport, Finding, QuotaUsage, Report, Severity } from '@/lib/analysis/types';
import { SEVERITIES } from '@/lib/analysis/types';
import { bindingSubjects, draPermissions, permissionScope } from './dra-permissions';
import { describeSubject } from '@/lib/k8s/refs';
import { nodeWriterEntries, type NodeWriterEntry } from './node-writer-entries';
import { diffIssues, type IssueChange } from './issue-drift';
import { describeFinding, findingTitle } from '@/lib/analysis/finding-texts';

// What changed between two snapshots: findings (by stable id), DRA permissions per identity, node
// writers, DRA quotas and DeviceClass zeroing. Pure and deterministic (everything sorted).

export interface DriftSide {
  report: Report;
  state: ClusterState;
  /** Shown in the output: a file name or a snapshot id and time. */
  label: string;
}

export interface FindingBrief {
  id: string;
  check: string;
  severity: Severity;
  title: string;
  message: string;
}

export interface PermissionChange {
  subject: SubjectRef;
  gained: string[];
  lost: string[];
}

export interface NodeWriterChange {
  change: 'added' | 'removed' | 'changed';
  kind: NodeWriterEntry['kind'];
  subject: SubjectRef;
  mode: string;
  scope: string;
  nodesGained: string[];
  nodesLost: string[];
}

export interface QuotaChange {
  change: 'added' | 'removed' | 'changed';
  namespace: string;
  name: string;
  resource: string;
  before: Pick<QuotaUsage, 'hard' | 'used' | 'computedUsed'> | null;
  after: Pick<QuotaUsage, 'hard' | 'used' | 'computedUsed'> | null;
}

export interface ZeroingChange {
  change: 'added' | 'removed' | 'changed';
  name: string;
  before: DeviceClassReport['zeroing'] | null;
  after: DeviceClassReport['zeroing'] | null;
}

export interface Drift {
  from: string;
  to: string;
  findings: { added: FindingBrief[]; resolved: FindingBrief[] };
  /** Issues that appeared, vanished or changed size (empty when either report predates issues). */
  issues: IssueChange[];
  permissions: PermissionChange[];
  nodeWriters: NodeWriterChange[];
  quotas: QuotaChange[];
  zeroing: ZeroingChange[];
}

const brief = (f: Finding): FindingBrief => ({ id: f.id, check: f.check, severity: f.severity, title: findingTitle(f), message: describeFinding(f) });
const bySeverity = (a: FindingBrief, b: FindingBrief) =>
  SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || compareStrings(a.check, b.check) || compareStrings(a.id, b.id);
const minus = (a: readonly string[], b: readonly string[]) => {
  const set = new Set(b);
  return a.filter((x) => !set.has(x));
};

function diffFindings(a: Report, b: Report): Drift['findings'] {
  const before = new Map(a.findings.map((f) => [f.id, f]));
  const after = new Map(b.findings.map((f) => [f.id, f]));
  return {
    added: [...after.values()]
      .filter((f) => !before.has(f.id))
      .map(brief)
      .sort(bySeverity),
    resolved: [...before.values()]
      .filter((f) => !after.has(f.id))
      .map(brief)
      .sort(bySeverity),
  };
}

function diffPermissions(a: ClusterState, b: ClusterState): PermissionChange[] {
  const subjects = new Map<string, SubjectRef>();
  for (const s of [...bindingSubjects(a), ...bindingSubjects(b)]) subjects.set(describeSubject(s), s);
  const list = [...subjects.values()];
  const scope = permissionScope([a, b]);
  const before = draPermissions(a, list, scope);
  const after = draPermissions(b, list, scope);
  const out: PermissionChange[] = [];
  for (const [key, subject] of [...subjects].sort((x, y) => compareStrings(x[0], y[0]))) {
    const p = [...(before.get(key)?.permissions ?? [])];
    const q = [...(after.get(key)?.permissions ?? [])];
    const gained = minus(q, p).sort(compareStrings);
    const lost = minus(p, q).sort(compareStrings);
    if (gained.length > 0 || lost.length > 0) out.push({ subject, gained, lost });
  }
  return out;
}

function diffNodeWriters(a: Report, b: Report): NodeWriterChange[] {
  const before = nodeWriterEntries(a);
  const after = nodeWriterEntries(b);
  const out: NodeWriterChange[] = [];
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort(compareStrings)) {
    const p = before.get(key);
    const q = after.get(key);
    const e = (q ?? p)!;
    const nodesGained = minus(q?.nodes ?? [], p?.nodes ?? []);
    const nodesLost = minus(p?.nodes ?? [], q?.nodes ?? []);
    if (nodesGained.length === 0 && nodesLost.length === 0) continue;
    out.push({ change: !p ? 'added' : !q ? 'removed' : 'changed', kind: e.kind, subject: e.subject, mode: e.mode, scope: e.scope, nodesGained, nodesLost });
  }
  return out;
}

function diffQuotas(a: Report, b: Report): QuotaChange[] {
  const key = (q: QuotaUsage) => `${q.namespace}/${q.name}/${q.resource}`;
  const pick = (q: QuotaUsage | undefined) => (q ? { hard: q.hard, used: q.used, computedUsed: q.computedUsed } : null);
  const before = new Map(a.quotas.map((q) => [key(q), q]));
  const after = new Map(b.quotas.map((q) => [key(q), q]));
  const out: QuotaChange[] = [];
  for (const k of [...new Set([...before.keys(), ...after.keys()])].sort(compareStrings)) {
    const p = before.get(k);
    const q = after.get(k);
    if (p && q && p.hard === q.hard && p.used === q.used && p.computedUsed === q.computedUsed) continue;
    const e = (q ?? p)!;
    out.push({
      change: !p ? 'added' : !q ? 'removed' : 'changed',
      namespace: e.namespace,
      name: e.name,
      resource: e.resource,
      before: pick(p),
      after: pick(q),
    });
  }
  return out;
}

function diffZeroing(a: Report, b: Report): ZeroingChange[] {
  const before = new Map(a.deviceClasses.map((d) => [d.name, d.zeroing]));
  const after = new Map(b.deviceClasses.map((d) => [d.name, d.zeroing]));
  const out: ZeroingChange[] = [];
  for (const name of [...new Set([...before.keys(), ...after.keys()])].sort(compareStrings)) {
    const p = before.get(name) ?? null;
    const q = after.get(name) ?? null;
    if (p === q) continue;
    out.push({ change: p === null ? 'added' : q === null ? 'removed' : 'changed', name, before: p, after: q });
  }
  return out;
}

export function computeDrift(from: DriftSide, to: DriftSide): Drift {
  return {
    from: from.label,
    to: to.label,
    findings: diffFindings(from.report, to.report),
    issues: diffIssues(from.report, to.report),
    permissions: diffPermissions(from.state, to.state),
    nodeWriters: diffNodeWriters(from.report, to.report),
    quotas: diffQuotas(from.report, to.report),
    zeroing: diffZeroing(from.report, to.report),
  };
}

export function driftIsEmpty(d: Drift): boolean {
  return (
    d.findings.added.length +
      d.findings.resolved.length +
      d.issues.length +
      d.permissions.length +
      d.nodeWriters.length +
      d.quotas.length +
      d.zeroing.length ===
    0
  );
}
