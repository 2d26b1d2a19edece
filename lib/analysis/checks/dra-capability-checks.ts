import { capability } from '@/lib/analysis/capabilities';
import { holdingOf } from '@/lib/analysis/capability-holders';
import { usernameOf } from '@/lib/analysis/context/identities';
import { pinningFor } from '@/lib/analysis/context/slice-pinning';
import { describeGrants } from '@/lib/analysis/evidence';
import type { Evidence } from '@/lib/analysis/types';
import { manifestYamlDocs, type YamlValue } from '@/lib/k8s/manifest-yaml';
import { pinningPolicyOf } from '@/lib/analysis/fixes/propose-slice-pinning';
import { describeRef, describeSubject, refKey } from '@/lib/k8s/refs';
import type { SubjectRef } from '@/lib/k8s/types';
import type { Check, FindingDraft } from './check-types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { describeSource } from '@/lib/authz/cluster-config';
import { grantObjects, grantsEvidence, list } from './check-helpers';
import { rbacEntries } from './dra-shared';

// DRA011 and DRA012: capabilities of the model (lib/analysis/capabilities.ts) that no older ID covered.

// ---------------------------------------------------------------- DRA011

export const dra011: Check = {
  id: 'DRA011',
  run(ctx) {
    const cap = capability('write-devicetaintrules');
    const subjects = new Map<string, SubjectRef>();
    for (const q of cap.questions) for (const e of rbacEntries(ctx, q)) subjects.set(refKey(e.subject), e.subject);
    const out: FindingDraft[] = [];
    for (const subject of subjects.values()) {
      if (ctx.isAdminEquivalent(subject) || ctx.isSystemIdentity(subject)) continue;
      const h = holdingOf(ctx, cap, subject);
      if (!h) continue;
      out.push({
        subjects: [subject],
        objects: grantObjects(h.grants),
        message:
          `${describeSubject(subject)} can ${h.verbs.join(', ')} DeviceTaintRules through ${describeGrants(ctx.engine, h.grants)}. ` +
          `A DeviceTaintRule taints every device its selector matches, of any driver on any node; with a NoExecute taint the eviction manager deletes every pod using those devices ` +
          gateText(ctx),
        evidence: grantsEvidence(ctx, h.grants),
        remediation:
          `Remove DeviceTaintRule writes from ${list([...new Set(h.grants.map((g) => `${describeRef(g.role)} rule #${g.ruleIndex}`))])}. ` +
          `A driver that reports unhealthy devices taints them in its own ResourceSlices (spec.devices[].taints), which needs no cluster-wide rule.`,
      });
    }
    return out;
  },
};

/** Whether DeviceTaintRules take effect here: the DRADeviceTaintRules gate (beta, off by default in 1.36). */
function gateText(ctx: AnalysisContext): string {
  const gate = ctx.engine.config.featureGates.DRADeviceTaintRules;
  if (!gate) return '(DeviceTaintRules take effect when the DRADeviceTaintRules feature gate is on).';
  const source = describeSource(ctx.engine.config, gate.source);
  return gate.enabled
    ? `The DRADeviceTaintRules feature gate is on (${source}), so such rules take effect now.`
    : `The DRADeviceTaintRules feature gate is off (${source}): the rules take effect once it is turned on, and the grant already holds.`;
}

// ---------------------------------------------------------------- DRA012

export const dra012: Check = {
  id: 'DRA012',
  run(ctx) {
    const cap = capability('write-resourceslices-unpinned');
    const answers = cap.questions.map((q) => rbacEntries(ctx, q));
    const policies = ctx.slicePinning;
    const out: FindingDraft[] = [];
    for (const sa of ctx.nodeLocalIdentities) {
      if (ctx.isAdminEquivalent(sa)) continue;
      const mine = answers.flatMap((entries) => ctx.access.entriesFor(entries, sa));
      if (mine.length === 0) continue;
      const username = usernameOf(sa);
      const { pinnedBy, unread, others } = pinningFor(policies, username);
      if (pinnedBy.length > 0) continue;
      const h = holdingOf(ctx, cap, sa)!;
      const notes: string[] = [];
      const naming = others.filter((p) => p.usernames !== undefined && !p.usernames.includes(username));
      const letThrough = others.filter((p) => !naming.includes(p));
      if (naming.length > 0)
        notes.push(
          `${list(naming.map((p) => describeRef(p.policy)))} ${naming.length === 1 ? 'pins' : 'pin'} only ${list([...new Set(naming.flatMap((p) => p.usernames ?? []))])}, not ${username}`,
        );
      if (letThrough.length > 0)
        notes.push(
          `${list(letThrough.map((p) => describeRef(p.policy)))} ${letThrough.length === 1 ? 'lets' : 'let'} ${username} write another node's slices (evaluated on a slice naming another node, one for all nodes, one with a node selector, and an update and a delete of another node's slice)`,
        );
      if (unread.length > 0) for (const p of unread) notes.push(`${describeRef(p.policy)} is not counted: ${p.unreadCondition}`);
      const evidence: Evidence[] = [...grantsEvidence(ctx, h.grants), ...notes.map((text): Evidence => ({ type: 'note', text }))];
      out.push({
        subjects: [sa],
        objects: grantObjects(h.grants),
        message:
          `${describeSubject(sa)} runs on nodes and can ${[...new Set(mine.flatMap((e) => e.verbs))].join(', ')} ResourceSlices through ${describeGrants(ctx.engine, h.grants)}, ` +
          `and no bound ValidatingAdmissionPolicy pins its slice writes to its own node${notes.length > 0 ? ` (${notes.join('; ')})` : ''}. ` +
          `A compromised node can publish fake devices for other nodes and replace or delete their slices, steering tenants' claims to devices it controls.`,
        evidence,
        remediation:
          `Bind a policy that refuses slice writes by ${username} unless spec.nodeName is the node in its token (needs ServiceAccountTokenPodNodeInfo, on by default since 1.32):\n` +
          pinningPolicyYaml(sa),
      });
    }
    return out;
  },
};

function pinningPolicyYaml(sa: SubjectRef): string {
  const { policy, binding } = pinningPolicyOf(sa);
  return manifestYamlDocs(policy as unknown as YamlValue, binding as unknown as YamlValue);
}
