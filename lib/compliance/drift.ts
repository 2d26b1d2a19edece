import type { ClusterState } from '@/lib/k8s/cluster-state';
import { compareStrings } from '@/lib/k8s/refs';
import type { SubjectRef } from '@/lib/k8s/types';
import type { DeviceClassReport, QuotaUsage, Report } from '@/lib/analysis/types';
import { SEVERITIES } from '@/lib/analysis/types';
import { bindingSubjects, draPermissions, permissionScopeOf } from './dra-permissions';
import { describeSubject } from '@/lib/k8s/refs';
import { entryNodes, type NodeWriterDigest, type NodeWriterEntry } from './node-writer-entries';
import { diffIssueDigests, type IssueChange } from './issue-drift';
import { driftDigestOf, type DriftDigest, type FindingBrief, type QuotaDigest } from './drift-digest';
import { changedGrantees, inputsForChangedGrantees, isChangedGrantee } from './changed-grantees';
import { permissionInputsState, type PermissionInputs } from './permission-inputs';

export type { FindingBrief };

// What changed between two snapshots: findings (by stable id), DRA permissions per identity, node
// writers, DRA quotas and DeviceClass zeroing. Pure and deterministic (everything sorted).

export interface DriftSide {
  report: Report;
  state: ClusterState;
  /** Shown in the output: a file name or a snapshot id and time. */
  label: string;
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

const bySeverity = (a: FindingBrief, b: FindingBrief) =>
  SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || compareStrings(a.check, b.check) || compareStrings(a.id, b.id);
const minus = (a: readonly string[], b: readonly string[]) => {
  const set = new Set(b);
  return a.filter((x) => !set.has(x));
};

function diffFindings(a: readonly FindingBrief[], b: readonly FindingBrief[]): Drift['findings'] {
  const before = new Map(a.map((f) => [f.id, f]));
  const after = new Map(b.map((f) => [f.id, f]));
  return {
    added: [...after.values()].filter((f) => !before.has(f.id)).sort(bySeverity),
    resolved: [...before.values()].filter((f) => !after.has(f.id)).sort(bySeverity),
  };
}

function diffPermissions(a: PermissionInputs, b: PermissionInputs): PermissionChange[] {
  // Only subjects whose grants differ are asked (changed-grantees.ts says why the others cannot differ).
  const changed = changedGrantees(a, b);
  if (!changed.all && changed.users.size === 0 && changed.groups.size === 0) return [];
  // A changed grantee is named by a binding that binds a changed grantee: only those bindings are read
  // for subjects (40,000 on a large cluster, a handful of them changed).
  const aAsked = inputsForChangedGrantees(changed, a);
  const bAsked = inputsForChangedGrantees(changed, b);
  const subjects = new Map<string, SubjectRef>();
  for (const s of [...bindingSubjects(aAsked), ...bindingSubjects(bAsked)]) subjects.set(describeSubject(s), s);
  const asked = [...subjects].filter(([, s]) => isChangedGrantee(changed, s));
  if (asked.length === 0) return [];
  const list = asked.map(([, s]) => s);
  const scope = permissionScopeOf([a, b]);
  const before = draPermissions(permissionInputsState(aAsked), list, scope);
  const after = draPermissions(permissionInputsState(bAsked), list, scope);
  const out: PermissionChange[] = [];
  for (const [key, subject] of asked.sort((x, y) => compareStrings(x[0], y[0]))) {
    const p = [...(before.get(key)?.permissions ?? [])];
    const q = [...(after.get(key)?.permissions ?? [])];
    const gained = minus(q, p).sort(compareStrings);
    const lost = minus(p, q).sort(compareStrings);
    if (gained.length > 0 || lost.length > 0) out.push({ subject, gained, lost });
  }
  return out;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

function diffNodeWriters(a: NodeWriterDigest, b: NodeWriterDigest): NodeWriterChange[] {
  const driversA = new Map(a.driverNodes);
  const driversB = new Map(b.driverNodes);
  // An entry of the same flag and own nodes over the same nodes (or the same nodes of its driver) writes the same nodes.
  const sameBase = (e: NodeWriterEntry) =>
    e.kind === 'node-status' ? sameList(a.nodes, b.nodes) : sameList(driversA.get(e.scope) ?? [], driversB.get(e.scope) ?? []);
  const before = new Map(a.entries.map((e) => [e.key, e]));
  const after = new Map(b.entries.map((e) => [e.key, e]));
  const unchanged = (p: NodeWriterEntry | undefined, q: NodeWriterEntry | undefined) =>
    !!p && !!q && p.everyNode === q.everyNode && sameList(p.own, q.own) && (!p.everyNode || sameBase(p));
  // Only keys that may have changed are sorted (thousands of writers, a few changed).
  const keys = [...before.keys()].filter((k) => !unchanged(before.get(k), after.get(k)));
  for (const k of after.keys()) if (!before.has(k)) keys.push(k);
  const out: NodeWriterChange[] = [];
  for (const key of keys.sort(compareStrings)) {
    let p = before.get(key);
    let q = after.get(key);
    const pNodes = p ? entryNodes(a, p, driversA) : [];
    const qNodes = q ? entryNodes(b, q, driversB) : [];
    // An entry that reaches no node is no writer on that side (writersOfNode lists writers node by node).
    if (pNodes.length === 0) p = undefined;
    if (qNodes.length === 0) q = undefined;
    const e = q ?? p;
    const nodesGained = minus(qNodes, pNodes);
    const nodesLost = minus(pNodes, qNodes);
    if (!e || (nodesGained.length === 0 && nodesLost.length === 0)) continue;
    out.push({ change: !p ? 'added' : !q ? 'removed' : 'changed', kind: e.kind, subject: e.subject, mode: e.mode, scope: e.scope, nodesGained, nodesLost });
  }
  return out;
}

function diffQuotas(a: readonly QuotaDigest[], b: readonly QuotaDigest[]): QuotaChange[] {
  const key = (q: QuotaDigest) => `${q.namespace}/${q.name}/${q.resource}`;
  const pick = (q: QuotaDigest | undefined) => (q ? { hard: q.hard, used: q.used, computedUsed: q.computedUsed } : null);
  const before = new Map(a.map((q) => [key(q), q]));
  const after = new Map(b.map((q) => [key(q), q]));
  const same = (p: QuotaDigest | undefined, q: QuotaDigest | undefined) =>
    !!p && !!q && p.hard === q.hard && p.used === q.used && p.computedUsed === q.computedUsed;
  // Only keys that changed are sorted (58,000 quota rows on a large cluster).
  const keys = [...before.keys()].filter((k) => !same(before.get(k), after.get(k)));
  for (const k of after.keys()) if (!before.has(k)) keys.push(k);
  const out: QuotaChange[] = [];
  for (const k of keys.sort(compareStrings)) {
    const p = before.get(k);
    const q = after.get(k);
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

function diffZeroing(a: DriftDigest['zeroing'], b: DriftDigest['zeroing']): ZeroingChange[] {
  const before = new Map(a.map((d) => [d.name, d.zeroing]));
  const after = new Map(b.map((d) => [d.name, d.zeroing]));
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
  return diffDigests({ digest: driftDigestOf(from.report, from.state), label: from.label }, { digest: driftDigestOf(to.report, to.state), label: to.label });
}

/** Drift between two snapshots' digests (drift-digest.ts): what computeDrift says of the snapshots themselves. */
export function diffDigests(from: { digest: DriftDigest; label: string }, to: { digest: DriftDigest; label: string }): Drift {
  const a = from.digest;
  const b = to.digest;
  return {
    from: from.label,
    to: to.label,
    findings: diffFindings(a.findings, b.findings),
    issues: diffIssueDigests(a.issues, b.issues),
    permissions: diffPermissions(a.permissions, b.permissions),
    nodeWriters: diffNodeWriters(a.nodeWriters, b.nodeWriters),
    quotas: diffQuotas(a.quotas, b.quotas),
    zeroing: diffZeroing(a.zeroing, b.zeroing),
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
