import type { PolicyRule, SubjectRef } from '@/lib/k8s/types';
import { flagList, visibleApiServers } from '@/lib/k8s/api-server-flags';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { mergeGrants, type AccessEntry, type AccessQuestion } from '@/lib/analysis/context/access';
import { isMastersGroup, isNodeIdentity } from '@/lib/analysis/context/identities';
import type { Evidence, NodeStatusWriter, StatusWriterMode } from '@/lib/analysis/types';
import { manifestYamlDocs } from '@/lib/k8s/manifest-yaml';
import type { Check, FindingDraft } from './check-types';
import { boundRoles } from './dra-shared';
import { clusterRoleBindingYaml, clusterRoleYaml, grantObjects, grantsEvidence, list, slug } from './check-helpers';
import { compareSubjects, describeRef, describeSubject, objectRef, refKey, sortRefs, sortSubjects, toObjectRef } from '@/lib/k8s/refs';
import { describeEvidence, describeGrants, describeRule, normaliseEvidence, plainRule, roleRuleEvidence } from '@/lib/analysis/evidence';
import { NODE_RULES } from '@/lib/authz/node-rules';
import { oncePerAnalysis } from '@/lib/analysis/context/memo-per-analysis';
import { uncoveredRules } from '@/lib/authz/covers';

/**
 * RBAC entries of identities NODE001-003 look at: not system:masters, not node identities
 * (system:node:* / system:nodes), not admin-equivalents (DESIGN §4), and not bootstrap system
 * identities (controller-manager controllers, scheduler): their node access is by design.
 */
function nonAdminEntries(ctx: AnalysisContext, q: AccessQuestion, skipSystem: boolean): AccessEntry[] {
  return ctx.access.whoCan(q).filter((e) => isNonAdminEntry(ctx, e, skipSystem));
}

function isNonAdminEntry(ctx: AnalysisContext, e: AccessEntry, skipSystem: boolean): boolean {
  return (
    e.via === 'rbac' &&
    !isMastersGroup(e.subject) &&
    !isNodeIdentity(e.subject) &&
    !ctx.isAdminEquivalent(e.subject) &&
    !(skipSystem && ctx.isSystemIdentity(e.subject))
  );
}

const roleRules = (grants: { role: { kind: string; name: string; namespace?: string }; ruleIndex: number }[]) =>
  list([...new Set(grants.map((g) => `${describeRef(g.role)} rule #${g.ruleIndex}`))]);

function constrainedNodeStatusYaml(subject: SubjectRef, verbs: { resource: string; verbs: string[] }[]): string {
  const base = slug(subject);
  return manifestYamlDocs(
    clusterRoleYaml(`${base}-node-impersonator`, [{ apiGroups: ['authentication.k8s.io'], resources: ['nodes'], verbs: ['impersonate:associated-node'] }]),
    clusterRoleYaml(
      `${base}-node-constrained`,
      verbs.map((v) => ({ apiGroups: [''], resources: [v.resource], verbs: v.verbs.map((verb) => `impersonate-on:associated-node:${verb}`) })),
    ),
    clusterRoleBindingYaml(`${base}-node-impersonator`, `${base}-node-impersonator`, subject),
    clusterRoleBindingYaml(`${base}-node-constrained`, `${base}-node-constrained`, subject),
  );
}

// ---------------------------------------------------------------- NODE001

const nodesQ: AccessQuestion = { verbs: ['update', 'patch'], group: '', resource: 'nodes', scope: 'cluster', names: 'unscoped' };

export const node001: Check = {
  id: 'NODE001',
  run(ctx) {
    const legacy = legacyImpersonators(ctx);
    const skip = (w: NodeStatusWriter) =>
      w.mode === 'node-authorizer' ||
      isMastersGroup(w.subject) ||
      isNodeIdentity(w.subject) ||
      ctx.isAdminEquivalent(w.subject) ||
      ctx.isSystemIdentity(w.subject) ||
      // Legacy impersonators that can act as anyone are NODE002's (critical); the rest are reported here.
      (w.mode === 'impersonation' && legacy.has(refKey(w.subject)));
    const bySubject = new Map<string, OtherNodeWriter>();
    const writerOf = (subject: SubjectRef) => {
      const key = refKey(subject);
      let w = bySubject.get(key);
      if (!w) bySubject.set(key, (w = { subject, modes: new Set(), via: [] }));
      return w;
    };
    // Writers of every node; a grant naming nodes (resourceNames) is a deliberate, bounded choice and is not reported.
    const { allNodes } = ctx.nodeStatusWriters;
    for (const w of allNodes) {
      if (skip(w)) continue;
      const entry = writerOf(w.subject);
      entry.modes.add(w.mode);
      entry.via.push(...w.via);
    }
    const out: FindingDraft[] = [];
    // Without NodeRestriction every kubelet writes every node's status: one finding for Group system:nodes,
    // which also names the identities that reach every node only by acting as their own node.
    const kubelets = allNodes.find((w) => w.mode === 'node-authorizer' && w.subject.kind === 'Group' && w.subject.name === 'system:nodes');
    const throughNodes: OtherNodeWriter[] = [];
    if (kubelets) {
      for (const [key, w] of bySubject) {
        if (!w.via.some(isNodeRestrictionOff) || w.via.some(isArbitraryNode)) continue;
        throughNodes.push(w);
        bySubject.delete(key);
      }
      out.push(unrestrictedKubelets(ctx, kubelets, throughNodes));
    }
    for (const w of [...bySubject.values()].sort((a, b) => compareSubjects(a.subject, b.subject))) {
      const via = normaliseEvidence(w.via);
      const grants = via.filter((e): e is Extract<Evidence, { type: 'grant' }> => e.type === 'grant');
      const own = [...ownNodes(ctx, w.subject)];
      out.push({
        subjects: [w.subject],
        objects: sortRefs(grants.flatMap((g) => [g.binding, g.role])),
        message:
          `${describeSubject(w.subject)} can write nodes/status of every node ${pathText(w.modes)}: ${via.map(describeEvidence).join('; ')}` +
          `${own.length > 0 ? `; its pods run on ${own.join(', ')}` : ''}. ` +
          `A compromise of any one of its credentials can mark any node Ready or NotReady and rewrite its conditions (readiness gates, taint controllers).`,
        evidence: via,
        remediation: otherNodeRemediation(w, grants),
      });
    }
    return out;
  },
};

const isNodeRestrictionOff = (e: Evidence) => e.type === 'note' && e.text.startsWith('NodeRestriction admission is off');
const isArbitraryNode = (e: Evidence) => e.type === 'note' && e.text.includes('any node identity (arbitrary-node)');

/** NODE001 for Group system:nodes when NodeRestriction is off, naming who acts as a node to get there. */
function unrestrictedKubelets(ctx: AnalysisContext, kubelets: NodeStatusWriter, through: readonly OtherNodeWriter[]): FindingDraft {
  const servers = visibleApiServers(ctx.state.pods);
  const objects = sortRefs(servers.map(({ pod }) => objectRef('Pod', pod.metadata.name, 'kube-system')));
  const names = [...through].sort((a, b) => compareSubjects(a.subject, b.subject)).map((w) => describeSubject(w.subject));
  return {
    subjects: [kubelets.subject],
    objects,
    message:
      `NodeRestriction admission is off, so every kubelet identity (Group system:nodes) can write nodes/status of every node, not only its own` +
      `${names.length > 0 ? `; so can every identity that can act as its own node: ${list(names)}` : ''}. ` +
      `One compromised node can mark any node Ready or NotReady and rewrite its conditions.`,
    evidence: normaliseEvidence([...kubelets.via, ...through.flatMap((w) => w.via)]),
    remediation:
      `Run kube-apiserver with NodeRestriction in --enable-admission-plugins (and not in --disable-admission-plugins)` +
      `${objects.length > 0 ? ` (${list(objects.map(describeRef))})` : ''}; with it, a node identity writes only its own Node and status.`,
  };
}

interface OtherNodeWriter {
  subject: SubjectRef;
  modes: Set<StatusWriterMode>;
  via: Evidence[];
}

/** The nodes an identity's own credentials are bound to: a service account's pods' nodes, a node user's own node. */
function ownNodes(ctx: AnalysisContext, subject: SubjectRef): readonly string[] {
  if (subject.kind === 'ServiceAccount') return ctx.podIndex.nodesOfServiceAccount(subject.namespace ?? '', subject.name);
  const node = subject.kind === 'User' && subject.name.startsWith('system:node:') ? subject.name.slice('system:node:'.length) : '';
  return node ? [node] : [];
}

const PATH_TEXT: Record<StatusWriterMode, string> = {
  rbac: 'through a plain RBAC grant',
  'constrained-impersonation': 'by constrained impersonation (it impersonates a node or another writer)',
  impersonation: 'by legacy impersonation of a writer',
  'node-authorizer': 'through the Node authorizer',
};

function pathText(modes: ReadonlySet<StatusWriterMode>): string {
  return list([...modes].sort().map((m) => PATH_TEXT[m]));
}

function otherNodeRemediation(w: OtherNodeWriter, grants: Extract<Evidence, { type: 'grant' }>[]): string {
  const rules = list([...new Set(grants.map((g) => `${describeRef(g.role)} rule #${g.ruleIndex}`))]);
  const fixes: string[] = [];
  if (w.modes.has('rbac'))
    fixes.push(
      `Remove nodes/status from the plain grant and use constrained impersonation, so each pod can only write the status of the node it runs on ` +
        `(the client impersonates system:node:<its node>; needs ConstrainedImpersonation, beta in 1.36):\n` +
        constrainedNodeStatusYaml(w.subject, [
          { resource: 'nodes', verbs: ['get'] },
          { resource: 'nodes/status', verbs: ['update', 'patch'] },
        ]),
    );
  if (w.modes.has('constrained-impersonation'))
    fixes.push(
      `Replace impersonate:arbitrary-node and impersonate-on:arbitrary-node:<verb> with impersonate:associated-node and impersonate-on:associated-node:<verb> ` +
        `(a pod's token then impersonates only the node it runs on), and remove grants that let it impersonate another writer.`,
    );
  if (w.modes.has('impersonation')) fixes.push('Remove the legacy impersonate grant that lets it act as a writer of nodes/status.');
  return `In ${rules}: ${fixes.join(' ')}`;
}

// ---------------------------------------------------------------- NODE002

const LEGACY: { what: string; q: AccessQuestion; dangerous(e: AccessEntry): boolean; everywhereOnly?: boolean }[] = [
  {
    what: 'users',
    q: { verbs: ['impersonate'], group: '', resource: 'users', scope: 'cluster', names: 'any' },
    // Any user, or a system:* user (system:node:<name>, system:kube-scheduler...).
    dangerous: (e) => e.names.some((n) => n === '*' || n.startsWith('system:')),
  },
  {
    what: 'groups',
    q: { verbs: ['impersonate'], group: '', resource: 'groups', scope: 'cluster', names: 'any' },
    dangerous: (e) => e.names.some((n) => n === '*' || n.startsWith('system:')),
  },
  {
    what: 'service accounts',
    // Cluster-wide only: the stock `edit`/`admin` roles grant impersonate on service accounts of their own namespace.
    q: { verbs: ['impersonate'], group: '', resource: 'serviceaccounts', scope: 'namespaced', names: 'any' },
    dangerous: (e) => e.everyNamespace,
    // So only the entries allowed everywhere are read (rbacEverywhere), not everyone's in some namespace.
    everywhereOnly: true,
  },
];

/**
 * Keys of the subjects NODE002 reports: legacy impersonation of any or system:* users and groups, or
 * of service accounts cluster-wide. Read once per analysis (NODE001 and DRA005 ask it; callers only
 * test membership).
 */
export const legacyImpersonators: (ctx: AnalysisContext) => ReadonlySet<string> = oncePerAnalysis(
  (ctx) => new Set([...legacyImpersonation(ctx).values()].map((s) => refKey(s.subject))),
);

interface LegacyImpersonator {
  subject: SubjectRef;
  parts: string[];
  entries: AccessEntry[];
}

// NODE001, NODE002 and DRA005 each read it: the service-account question's entries (one per namespace
// whose RoleBindings grant impersonate, tens of thousands) were filtered three times. Not changed once read.
const legacyImpersonation: (ctx: AnalysisContext) => ReadonlyMap<string, LegacyImpersonator> = oncePerAnalysis(readLegacyImpersonation);

function readLegacyImpersonation(ctx: AnalysisContext): Map<string, LegacyImpersonator> {
  const bySubject = new Map<string, LegacyImpersonator>();
  for (const l of LEGACY) {
    // Whether an entry is dangerous is decided first (a cheap test; most entries are not).
    for (const e of l.everywhereOnly ? ctx.access.rbacEverywhere(l.q) : ctx.access.whoCan(l.q)) {
      if (!l.dangerous(e) || !isNonAdminEntry(ctx, e, false)) continue;
      const key = `${e.subject.kind}/${e.subject.namespace ?? ''}/${e.subject.name}`;
      let s = bySubject.get(key);
      if (!s) bySubject.set(key, (s = { subject: e.subject, parts: [], entries: [] }));
      const names = e.names.includes('*') ? (l.what === 'service accounts' ? 'in every namespace' : '(any name)') : `(${e.names.join(', ')})`;
      s.parts.push(`${l.what} ${names}`);
      s.entries.push(e);
    }
  }
  return bySubject;
}

export const node002: Check = {
  id: 'NODE002',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const { subject, parts, entries } of legacyImpersonation(ctx).values()) {
      const grants = mergeGrants(entries);
      out.push({
        subjects: [subject],
        objects: grantObjects(grants),
        message:
          `${describeSubject(subject)} holds legacy impersonate on ${list(parts)} through ${describeGrants(ctx.engine, grants)}. ` +
          `Legacy impersonation is not tied to a node: it can act as system:node:<any node> (write any node's status, read its secrets), as other users, or as members of system:masters.`,
        evidence: grantsEvidence(ctx, grants),
        remediation:
          `Remove impersonate from ${roleRules(grants)}. If it acts for the node its pod runs on, use constrained impersonation (impersonate:associated-node plus ` +
          `impersonate-on:associated-node:<verb> for the exact requests); for a fixed service account use impersonate:serviceaccount with resourceNames. For example:\n` +
          constrainedNodeStatusYaml(subject, [{ resource: 'nodes/status', verbs: ['update', 'patch'] }]),
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- NODE003

export const node003: Check = {
  id: 'NODE003',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const e of nonAdminEntries(ctx, nodesQ, true)) {
      out.push({
        subjects: [e.subject],
        objects: grantObjects(e.grants),
        message:
          `${describeSubject(e.subject)} can ${e.verbs.join(', ')} nodes (labels, taints, spec) of every node through ${describeGrants(ctx.engine, e.grants)}. ` +
          `It can remove NoSchedule/NoExecute taints or change labels that node selectors and DeviceClass-aware scheduling rely on.`,
        evidence: grantsEvidence(ctx, e.grants),
        remediation:
          `Remove update/patch on nodes from ${roleRules(e.grants)} unless the component manages node labels by design. ` +
          `A node-local agent that labels its own node should use constrained impersonation instead:\n` +
          constrainedNodeStatusYaml(e.subject, [{ resource: 'nodes', verbs: ['get', 'patch'] }]),
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- NODE004

const AUDIENCE_VERB = 'request-serviceaccounts-token-audience';

/** Only rules naming the verb explicitly: a `*` verb is admin-style access reported elsewhere. */
function audienceProblem(rule: PolicyRule): string | undefined {
  if (!(rule.verbs ?? []).includes(AUDIENCE_VERB)) return undefined;
  if (!(rule.apiGroups ?? []).some((g) => g === '' || g === '*')) return undefined;
  const resources = rule.resources ?? [];
  if (resources.length === 0) return undefined;
  if (resources.includes('*')) return 'any audience (resources: ["*"])';
  if (!rule.resourceNames || rule.resourceNames.length === 0) return `audience ${resources.join(', ')} for every service account (no resourceNames)`;
  return undefined;
}

export const node004: Check = {
  id: 'NODE004',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const bound of boundRoles(ctx)) {
      const role = bound.role;
      const hits = role.rules.map((r, i) => ({ i, problem: audienceProblem(r.rule) })).filter((h) => h.problem !== undefined);
      if (hits.length === 0) continue;
      const bindings = bound.bindings;
      const roleRef = toObjectRef(role.ref);
      out.push({
        subjects: sortSubjects(bindings.flatMap((b) => b.subjects)),
        objects: sortRefs([roleRef, ...bindings.map((b) => b.ref)]),
        message:
          `${describeRef(roleRef)} grants ${AUDIENCE_VERB} for ${hits.map((h) => `${h.problem} in rule #${h.i} (${describeRule(role.rules[h.i].rule)})`).join('; ')}; ` +
          `bound by ${bindings.map((b) => `${describeRef(b.ref)} (${b.subjects.map(describeSubject).join(', ')})`).join('; ')}. ` +
          `Nodes holding it can request service-account tokens for audiences no pod on the node uses.`,
        evidence: bindings.flatMap((b) =>
          hits.map(({ i }): Evidence => {
            const ev: Evidence = { type: 'grant', binding: b.ref, role: roleRef, ruleIndex: i, rule: plainRule(role.rules[i].rule) };
            if (role.rules[i].from) ev.aggregatedFrom = role.rules[i].from;
            return ev;
          }),
        ),
        remediation:
          `List the exact audiences in resources and the service accounts in resourceNames, e.g.:\n` +
          manifestYamlDocs({
            rules: [{ apiGroups: [''], resources: ['<audience, e.g. vault.example.com>'], resourceNames: ['<service-account-name>'], verbs: [AUDIENCE_VERB] }],
          }),
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- NODE005

export const node005: Check = {
  id: 'NODE005',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const { pod, found, flags } of visibleApiServers(ctx.state.pods)) {
      const object = objectRef('Pod', pod.metadata.name, 'kube-system');
      const base = `spec.containers[${found.index}]`;
      const problems: string[] = [];
      const effects: string[] = [];
      const fixes: string[] = [];
      const evidence: Evidence[] = [];
      const authzConfig = flags.has('authorization-config');
      const modeFlag = flags.get('authorization-mode');
      const modes = flagList(modeFlag);
      if (!authzConfig && !modes.includes('Node')) {
        problems.push(
          modeFlag ? `--authorization-mode=${modes.join(',')} lacks Node` : '--authorization-mode is not set (default AlwaysAllow, no Node authorizer)',
        );
        effects.push(
          'kubelets are authorized by the remaining authorizers alone: bound to system:node (or allowed by AlwaysAllow) they read every secret and configmap, not only those of their own pods',
        );
        fixes.push(
          `--authorization-mode=${['Node', ...modes.filter((m) => m !== 'Node' && m !== 'AlwaysAllow'), ...(modes.includes('RBAC') ? [] : ['RBAC'])].join(',')}`,
        );
        evidence.push({
          type: 'field',
          object,
          path: modeFlag ? `${base}.${modeFlag.at}` : base,
          value: modeFlag ? `--authorization-mode=${modeFlag.values.join(',')}` : null,
        });
      }
      const enableFlag = flags.get('enable-admission-plugins');
      const disableFlag = flags.get('disable-admission-plugins');
      const enabled = flagList(enableFlag);
      const disabled = flagList(disableFlag);
      if (disabled.includes('NodeRestriction') || !enabled.includes('NodeRestriction')) {
        if (disabled.includes('NodeRestriction')) {
          problems.push('--disable-admission-plugins includes NodeRestriction');
          evidence.push({ type: 'field', object, path: `${base}.${disableFlag!.at}`, value: `--disable-admission-plugins=${disableFlag!.values.join(',')}` });
          fixes.push('NodeRestriction removed from --disable-admission-plugins');
        } else {
          problems.push(
            enableFlag
              ? `--enable-admission-plugins=${enabled.join(',')} lacks NodeRestriction (it is not on by default)`
              : '--enable-admission-plugins is not set (NodeRestriction is not on by default)',
          );
          evidence.push({
            type: 'field',
            object,
            path: enableFlag ? `${base}.${enableFlag.at}` : base,
            value: enableFlag ? `--enable-admission-plugins=${enableFlag.values.join(',')}` : null,
          });
        }
        if (!enabled.includes('NodeRestriction')) fixes.push(`--enable-admission-plugins=${[...enabled, 'NodeRestriction'].join(',')}`);
        effects.push('any kubelet credential can modify every Node object and the status of pods on other nodes, not only its own');
      }
      if (problems.length === 0) continue;
      if (authzConfig)
        evidence.push({
          type: 'note',
          text: '--authorization-config is set: the authorizer chain is configured in a file that is not visible, so whether the Node authorizer runs is unknown.',
        });
      out.push({
        subjects: [],
        objects: [object],
        message:
          `kube-apiserver in Pod kube-system/${pod.metadata.name}${pod.spec?.nodeName ? ` on ${pod.spec.nodeName}` : ''}: ${list(problems)}. ` +
          `So ${list(effects)}${authzConfig ? ' (the authorizer chain comes from --authorization-config and is not visible)' : ''}.`,
        evidence,
        remediation: `Start kube-apiserver with ${list(fixes)}${authzConfig ? ', and check that the --authorization-config file lists a Node authorizer before RBAC' : ''}; the static pod restarts when its manifest changes.`,
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- NODE006

/**
 * What every kubelet already holds through the Node authorizer (bootstrappolicy NodeRules and the
 * writes it allows for any object, which NodeRestriction then limits), without the resources the
 * Node authorizer grants only through its graph (secrets, configmaps, PVCs, PVs, pods read, claims,
 * tokens, leases, csinodes, volume attachments, its own Node and slices): an RBAC rule on those gives
 * every object, which is more. Token audiences are NODE004's.
 */
function nodeGrants(nodeRestriction: boolean): PolicyRule[] {
  const graphOnly = new Set([
    'secrets',
    'configmaps',
    'persistentvolumeclaims',
    'persistentvolumes',
    'persistentvolumeclaims/status',
    'volumeattachments',
    'serviceaccounts/token',
    'leases',
    'csinodes',
    'resourceclaims',
  ]);
  const rules: PolicyRule[] = [];
  for (const r of NODE_RULES) {
    const resources = (r.resources ?? []).filter((res) => !graphOnly.has(res));
    if (resources.length === 0) continue;
    // nodes: only the own Node may be read; any Node may be created (NodeRestriction: only its own).
    if (resources.includes('nodes') && r.verbs.includes('get')) rules.push({ ...r, verbs: ['create'], resources });
    // pods: read only those bound to the node (graph); create and delete are allowed for any (mirror pods).
    else if (resources.includes('pods') && r.verbs.includes('get')) continue;
    else rules.push({ ...r, resources });
  }
  rules.push(
    { verbs: ['create'], apiGroups: ['resource.k8s.io'], resources: ['resourceslices'] },
    { verbs: ['request-serviceaccounts-token-audience'], apiGroups: ['*'], resources: ['*'] },
    // kubeadm: a node renews its own client certificate.
    { verbs: ['create'], apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/selfnodeclient'] },
  );
  // NodeRestriction lets a node write only its own slices, whatever RBAC grants.
  if (nodeRestriction) rules.push({ verbs: ['get', 'update', 'patch', 'delete'], apiGroups: ['resource.k8s.io'], resources: ['resourceslices'] });
  return rules;
}

/** kubeadm binds system:nodes to read its kubelet-config and kubeadm-config ConfigMaps in kube-system. */
const KUBEADM_CONFIG: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['kubelet-config', 'kubeadm-config'] };

const isNodeSubject = (s: SubjectRef) => (s.kind === 'Group' && s.name === 'system:nodes') || (s.kind === 'User' && s.name.startsWith('system:node:'));

export const node006: Check = {
  id: 'NODE006',
  run(ctx) {
    const owner = nodeGrants(ctx.engine.config.nodeRestriction.enabled);
    const out: FindingDraft[] = [];
    for (const b of ctx.engine.rbac.bindings) {
      const role = b.role;
      const subjects = b.subjects.filter(isNodeSubject);
      if (!role || subjects.length === 0) continue;
      const ns = b.ref.kind === 'RoleBinding' ? (b.ref.namespace ?? '') : '';
      const rules = role.rules.map((r) => r.rule);
      const missing = uncoveredRules(ns === 'kube-system' ? [...owner, KUBEADM_CONFIG] : owner, rules);
      if (missing.length === 0) continue;
      const binding = toObjectRef(b.ref);
      const roleRef = toObjectRef(role.ref);
      out.push({
        subjects: sortSubjects(subjects),
        objects: sortRefs([binding, roleRef]),
        message:
          `${describeRef(binding)} grants ${subjects.map(describeSubject).join(', ')} ${missing.map((i) => `rule #${i} of ${describeRef(roleRef)} (${describeRule(rules[i])})`).join('; ')}` +
          `${ns ? ` in namespace ${ns}` : ''}. The Node authorizer gives a kubelet only the objects of its own pods and node; this grant holds for every kubelet, so one compromised node gets it for ${ns ? `the whole namespace` : 'the whole cluster'}.`,
        evidence: missing.map((i): Evidence => roleRuleEvidence(role, b.ref, i)),
        remediation: `Remove ${subjects.map(describeSubject).join(', ')} from ${describeRef(binding)} (or those rules from ${describeRef(roleRef)}): kubelets are authorized by the Node authorizer, which already gives each node what its own pods need.`,
      });
    }
    return out;
  },
};

export const NODE_CHECKS: Check[] = [node001, node002, node003, node004, node005, node006];
