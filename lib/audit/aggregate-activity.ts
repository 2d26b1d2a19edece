import { compareStrings as cmp } from '@/lib/k8s/refs';
import { nodeNameFromUsername, parseServiceAccountUsername } from '@/lib/authz/user-info';
import type { ActivityBucket, ActivityReport, CoverageRow, DeniedSample, DraWriteRow, IdentityActivity, ImpersonationRow } from './activity-types';
import { alertsOf, type AlertDraft } from './alert-rules';
import { impersonationTarget } from './impersonation-target';
import { succeeded } from './parse-event';
import { draWriteCategory, requesterNode, usageKey } from './classify-request';
import type { AuditRecord, AuditUser, MalformedLine } from './types';

// Folds a stream of audit records into bounded counters: nothing here grows with the number of
// events, only with the number of distinct identities, rows and alerts, and each of those is capped.

export const AUDIT_LIMITS = {
  identities: 20_000,
  writeRows: 50_000,
  usedPerIdentity: 5_000,
  deniedSamples: 200,
  malformedSamples: 100,
  alertsPerCheck: 2_000,
  coverageRows: 2_000,
  impersonationRows: 10_000,
};

const HOUR = 3_600_000;
interface IdentityAgg {
  groups: string[];
  nodes: Set<string>;
  events: number;
  allowed: number;
  denied: number;
  first: number;
  last: number;
  used: Map<string, number>;
  truncated: boolean;
}

interface AlertAgg extends Omit<AlertDraft, 'detail'> {
  count: number;
  first: number;
  last: number;
  details: Set<string>;
}

export interface AggregatedAlert extends Omit<AlertDraft, 'detail'> {
  count: number;
  first: string;
  last: string;
  /** Distinct event facts, at most MAX_DETAILS. */
  details: string[];
}

const MAX_DETAILS = 8;

export interface AuditAggregate {
  activity: Omit<ActivityReport, 'unusedGrants'>;
  alerts: AggregatedAlert[];
  /** Identity → its last-seen groups and the distinct successful requests it made. */
  usage: Map<string, { groups: string[]; used: ReadonlySet<string>; truncated: boolean }>;
}

export interface ActivityAggregator {
  startFile(path: string, compressed: boolean): void;
  add(rec: AuditRecord): void;
  skipStage(): void;
  malformed(m: MalformedLine): void;
  finish(): AuditAggregate;
}

const iso = (t: number) => new Date(t).toISOString();

/** Impersonation keys the requester used: legacy and both constrained node modes, as the server may have checked any. */
function impersonationUsage(rec: AuditRecord, target: AuditUser): string[] {
  const ref = rec.objectRef;
  const keys = [usageKey('impersonate', '', 'users', '', '', target.username)];
  for (const g of target.groups) keys.push(usageKey('impersonate', '', 'groups', '', '', g));
  const node = nodeNameFromUsername(target.username);
  if (node !== undefined) {
    const mode = rec.user.nodeName === node ? 'associated-node' : 'arbitrary-node';
    keys.push(usageKey(`impersonate:${mode}`, 'authentication.k8s.io', 'nodes', '', '', node));
    if (ref) keys.push(usageKey(`impersonate-on:${mode}:${rec.verb}`, ref.apiGroup, ref.resource, ref.subresource, ref.namespace, ref.name));
  }
  return keys;
}

/**
 * The synthetic checks a successful claim status write passed, as far as its body shows: a driver
 * write per driver of status.devices (associated-node when the requester's token is bound to the
 * claim's single allocated node, as the server tries it first), else an allocation write (binding,
 * cluster scope). Without a body (Metadata level) nothing is added.
 */
export function grantedStatusChecks(rec: AuditRecord): string[] {
  const ref = rec.objectRef;
  if (!ref || ref.apiGroup !== 'resource.k8s.io' || ref.resource !== 'resourceclaims' || ref.subresource !== 'status') return [];
  if (rec.statusDrivers) {
    const own = rec.allocatedNode !== undefined && rec.user.nodeName === rec.allocatedNode && parseServiceAccountUsername(rec.user.username) !== undefined;
    return rec.statusDrivers.map((d) =>
      usageKey(`${own ? 'associated-node' : 'arbitrary-node'}:${rec.verb}`, 'resource.k8s.io', 'resourceclaims', 'driver', ref.namespace, d),
    );
  }
  if (rec.bindingInBody) return [usageKey(rec.verb, 'resource.k8s.io', 'resourceclaims', 'binding', '', '')];
  return [];
}

export function createActivityAggregator(limits = AUDIT_LIMITS): ActivityAggregator {
  let events = 0;
  let skipped = 0;
  let malformedCount = 0;
  const malformedSamples: MalformedLine[] = [];
  let first = Infinity;
  let last = -Infinity;
  let requestBodies = false;
  const files: ActivityReport['files'] = [];
  let file: ActivityReport['files'][number] | undefined;
  const coverage = new Map<string, { group: string; resource: string; verbs: Set<string>; levels: Set<string>; events: number }>();
  const identities = new Map<string, IdentityAgg>();
  const writes = new Map<string, DraWriteRow & { firstMs: number; lastMs: number }>();
  const timeline = new Map<string, ActivityBucket>();
  const impersonation = new Map<string, ImpersonationRow>();
  const denied: DeniedSample[] = [];
  let deniedNext = 0;
  const alerts = new Map<string, AlertAgg>();
  const alertsPerCheck = new Map<string, number>();
  const dropped = new Map<string, number>();
  const drop = (what: string) => dropped.set(what, (dropped.get(what) ?? 0) + 1);

  const identity = (u: AuditUser): IdentityAgg | undefined => {
    let agg = identities.get(u.username);
    if (!agg) {
      if (identities.size >= limits.identities) {
        drop('identities');
        return undefined;
      }
      agg = { groups: u.groups, nodes: new Set(), events: 0, allowed: 0, denied: 0, first: Infinity, last: -Infinity, used: new Map(), truncated: false };
      identities.set(u.username, agg);
    }
    agg.groups = u.groups;
    return agg;
  };

  const use = (agg: IdentityAgg | undefined, key: string) => {
    if (!agg) return;
    const n = agg.used.get(key);
    if (n !== undefined) agg.used.set(key, n + 1);
    else if (agg.used.size < limits.usedPerIdentity) agg.used.set(key, 1);
    else agg.truncated = true;
  };

  return {
    startFile(path, compressed) {
      file = { path, events: 0, malformed: 0, compressed };
      files.push(file);
    },
    skipStage() {
      skipped++;
    },
    malformed(m) {
      malformedCount++;
      if (file) file.malformed++;
      if (malformedSamples.length < limits.malformedSamples) malformedSamples.push(m);
    },
    add(rec) {
      events++;
      if (file) file.events++;
      if (rec.time < first) first = rec.time;
      if (rec.time > last) last = rec.time;
      if (
        rec.adminAccess !== undefined ||
        rec.opaqueBytes !== undefined ||
        rec.sliceDriver !== undefined ||
        rec.level === 'Request' ||
        rec.level === 'RequestResponse'
      )
        requestBodies = true;
      const ok = succeeded(rec);
      const isDenied = rec.decision === 'forbid' || rec.code === 403 || rec.draDenied !== undefined;
      const ref = rec.objectRef;
      const node = requesterNode(rec.user);

      if (ref) {
        const covKey = `${ref.apiGroup}/${ref.resource}${ref.subresource ? `/${ref.subresource}` : ''}`;
        let cov = coverage.get(covKey);
        if (!cov && coverage.size < limits.coverageRows)
          coverage.set(
            covKey,
            (cov = { group: ref.apiGroup, resource: covKey.slice(ref.apiGroup.length + 1), verbs: new Set(), levels: new Set(), events: 0 }),
          );
        if (cov) {
          cov.events++;
          cov.verbs.add(rec.verb);
          cov.levels.add(rec.level);
        }
      }

      const requester = identity(rec.user);
      if (requester) {
        requester.events++;
        if (ok) requester.allowed++;
        if (isDenied) requester.denied++;
        if (rec.time < requester.first) requester.first = rec.time;
        if (rec.time > requester.last) requester.last = rec.time;
        if (node) requester.nodes.add(node);
      }
      const target = impersonationTarget(rec);
      const actor = target ? identity(target) : requester;
      if (target && actor) {
        actor.events++;
        if (ok) actor.allowed++;
        if (isDenied) actor.denied++;
        if (rec.time < actor.first) actor.first = rec.time;
        if (rec.time > actor.last) actor.last = rec.time;
      }
      if (ok && ref) {
        use(actor, usageKey(rec.verb, ref.apiGroup, ref.resource, ref.subresource, ref.namespace, ref.name));
        for (const k of grantedStatusChecks(rec)) use(actor, k);
      }
      if (ok && target) for (const k of impersonationUsage(rec, target)) use(requester, k);

      if (target) {
        const targetNode = nodeNameFromUsername(target.username);
        const relation = targetNode === undefined ? 'not-a-node' : targetNode === rec.user.nodeName ? 'own-node' : 'other-node';
        const key = [rec.user.username, node, target.username, relation].join('\u001f');
        let row = impersonation.get(key);
        if (!row && impersonation.size < limits.impersonationRows)
          impersonation.set(key, (row = { requester: rec.user.username, requesterNode: node, impersonated: target.username, relation, allowed: 0, denied: 0 }));
        if (row) {
          if (ok) row.allowed++;
          if (isDenied) row.denied++;
        } else drop('impersonation rows');
      }

      const category = draWriteCategory(rec);
      if (category) {
        const key = [rec.user.username, node, category, rec.verb, target?.username ?? ''].join('\u001f');
        let row = writes.get(key);
        if (!row && writes.size < limits.writeRows) {
          row = {
            identity: rec.user.username,
            node,
            category,
            verb: rec.verb,
            allowed: 0,
            denied: 0,
            first: '',
            last: '',
            firstMs: rec.time,
            lastMs: rec.time,
          };
          if (target) row.impersonated = target.username;
          writes.set(key, row);
        }
        if (row) {
          if (ok) row.allowed++;
          if (isDenied) {
            row.denied++;
            if (rec.reason) row.deniedReason = rec.reason;
          }
          if (rec.time < row.firstMs) row.firstMs = rec.time;
          if (rec.time > row.lastMs) row.lastMs = rec.time;
        } else drop('write rows');
        const hour = Math.floor(rec.time / HOUR) * HOUR;
        const bKey = `${hour}\u001f${category}`;
        let bucket = timeline.get(bKey);
        if (!bucket) timeline.set(bKey, (bucket = { start: iso(hour), category, allowed: 0, denied: 0 }));
        if (ok) bucket.allowed++;
        if (isDenied) {
          bucket.denied++;
          // A ring of the most recent denials.
          const sample: DeniedSample = {
            time: iso(rec.time),
            identity: rec.user.username,
            node,
            verb: rec.verb,
            resource: ref!.subresource ? `${ref!.resource}/${ref!.subresource}` : ref!.resource,
            namespace: ref!.namespace,
            name: ref!.name,
          };
          if (target) sample.impersonated = target.username;
          if (rec.code !== undefined) sample.code = rec.code;
          if (rec.reason) sample.reason = rec.reason;
          if (denied.length < limits.deniedSamples) denied.push(sample);
          else denied[deniedNext] = sample;
          deniedNext = (deniedNext + 1) % limits.deniedSamples;
        }
      }

      for (const draft of alertsOf(rec, ok, isDenied)) {
        const key = `${draft.check}\u001f${draft.key}`;
        let agg = alerts.get(key);
        if (!agg) {
          const n = alertsPerCheck.get(draft.check) ?? 0;
          if (n >= limits.alertsPerCheck) {
            drop(`${draft.check} alerts`);
            continue;
          }
          alertsPerCheck.set(draft.check, n + 1);
          const { detail: _detail, ...rest } = draft;
          alerts.set(key, (agg = { ...rest, count: 0, first: rec.time, last: rec.time, details: new Set() }));
        }
        agg.count++;
        if (agg.details.size < MAX_DETAILS) agg.details.add(draft.detail);
        if (rec.time < agg.first) agg.first = rec.time;
        if (rec.time > agg.last) agg.last = rec.time;
        if (draft.reason) agg.reason = draft.reason;
      }
    },
    finish() {
      const identityRows: IdentityActivity[] = [...identities]
        .map(([name, a]) => ({
          identity: name,
          groups: a.groups,
          nodes: [...a.nodes].sort(cmp),
          events: a.events,
          allowed: a.allowed,
          denied: a.denied,
          first: iso(a.first),
          last: iso(a.last),
          truncated: a.truncated,
        }))
        .sort((a, b) => b.events - a.events || cmp(a.identity, b.identity));
      const coverageRows: CoverageRow[] = [...coverage.values()]
        .map((c) => ({ group: c.group, resource: c.resource, verbs: [...c.verbs].sort(cmp), levels: [...c.levels].sort(cmp), events: c.events }))
        .sort((a, b) => cmp(a.group, b.group) || cmp(a.resource, b.resource));
      const writeRows = [...writes.values()]
        .map(({ firstMs, lastMs, ...row }) => ({ ...row, first: iso(firstMs), last: iso(lastMs) }))
        .sort(
          (a, b) =>
            b.denied - a.denied ||
            cmp(a.identity, b.identity) ||
            cmp(a.node, b.node) ||
            cmp(a.category, b.category) ||
            cmp(a.verb, b.verb) ||
            cmp(a.impersonated ?? '', b.impersonated ?? ''),
        );
      const deniedRows = [...denied].sort((a, b) => cmp(a.time, b.time) || cmp(a.identity, b.identity));
      const notes = [...dropped].map(([what, n]) => `${n} event(s) beyond the limit of ${what} were counted in totals only`).sort(cmp);
      for (const [name, a] of identities)
        if (a.truncated) notes.push(`${name}: more than ${limits.usedPerIdentity} distinct requests; unused-grant answers for it only count those kept`);
      const usage: AuditAggregate['usage'] = new Map(
        [...identities].map(([name, a]) => [name, { groups: a.groups, used: new Set(a.used.keys()), truncated: a.truncated }]),
      );
      return {
        activity: {
          window: { first: events ? iso(first) : null, last: events ? iso(last) : null },
          files,
          events,
          skippedStages: skipped,
          malformed: { count: malformedCount, samples: malformedSamples },
          requestBodies,
          coverage: coverageRows,
          identities: identityRows,
          writes: writeRows,
          timeline: [...timeline.values()].sort((a, b) => cmp(a.start, b.start) || cmp(a.category, b.category)),
          impersonation: [...impersonation.values()].sort(
            (a, b) => cmp(a.requester, b.requester) || cmp(a.impersonated, b.impersonated) || cmp(a.requesterNode, b.requesterNode),
          ),
          denied: deniedRows,
          notes,
        },
        alerts: [...alerts.values()]
          .map((a) => ({ ...a, first: iso(a.first), last: iso(a.last), details: [...a.details].sort(cmp) }))
          .sort((a, b) => cmp(a.check, b.check) || cmp(a.key, b.key)),
        usage,
      };
    },
  };
}
