import type { Pod, PolicyRule, SubjectRef } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { mergeGrants, type AccessEntry, type AccessQuestion } from '@/lib/analysis/context/access';
import { isMastersGroup, isNodeIdentity } from '@/lib/analysis/context/identities';
import type { Evidence } from '@/lib/analysis/types';
import { manifestYamlDocs } from '@/lib/k8s/manifest-yaml';
import type { Check, FindingDraft } from './check-types';
import { boundRoles } from './dra-shared';
import { clusterRoleBindingYaml, clusterRoleYaml, grantObjects, grantsEvidence, list, slug } from './check-helpers';
import { describeRef, describeSubject, objectRef, sortRefs, sortSubjects, toObjectRef } from '@/lib/k8s/refs';
import { describeGrants, describeRule, plainRule } from '@/lib/analysis/evidence';

/**
 * RBAC entries of identities NODE001-003 look at: not system:masters, not node identities
 * (system:node:* / system:nodes), not admin-equivalents (DESIGN §4), and not bootstrap system
 * identities (controller-manager controllers, scheduler): their node access is by design.
 */
function nonAdminEntries(ctx: AnalysisContext, q: AccessQuestion, skipSystem: boolean): AccessEntry[] {
  return ctx.access
    .whoCan(q)
    .filter(
      (e) =>
        e.via === 'rbac' &&
        !isMastersGroup(e.subject) &&
        !isNodeIdentity(e.subject) &&
        !ctx.isAdminEquivalent(e.subject) &&
        !(skipSystem && ctx.isSystemIdentity(e.subject)),
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

const nodeStatusQ: AccessQuestion = { verbs: ['update', 'patch'], group: '', resource: 'nodes', subresource: 'status', scope: 'cluster', names: 'unscoped' };
const nodesQ: AccessQuestion = { verbs: ['update', 'patch'], group: '', resource: 'nodes', scope: 'cluster', names: 'unscoped' };

export const node001: Check = {
  id: 'NODE001',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const e of nonAdminEntries(ctx, nodeStatusQ, true)) {
      const nodes = e.subject.kind === 'ServiceAccount' ? ctx.podIndex.nodesOfServiceAccount(e.subject.namespace ?? '', e.subject.name) : [];
      out.push({
        subjects: [e.subject],
        objects: grantObjects(e.grants),
        message:
          `${describeSubject(e.subject)} can ${e.verbs.join(', ')} nodes/status of every node through ${describeGrants(ctx.engine, e.grants)}` +
          `${nodes.length > 0 ? `; its pods run on ${nodes.join(', ')}` : ''}. ` +
          `A compromise of any one of its pods can mark any node Ready or NotReady and rewrite its conditions (readiness gates, taint controllers).`,
        evidence: grantsEvidence(ctx, e.grants),
        remediation:
          `Remove nodes/status from ${roleRules(e.grants)} and use constrained impersonation, so each pod can only write the status of the node it runs on ` +
          `(the client impersonates system:node:<its node>; needs ConstrainedImpersonation, beta in 1.36):\n` +
          constrainedNodeStatusYaml(e.subject, [
            { resource: 'nodes', verbs: ['get'] },
            { resource: 'nodes/status', verbs: e.verbs },
          ]),
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- NODE002

const LEGACY: { what: string; q: AccessQuestion; dangerous(e: AccessEntry): boolean }[] = [
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
  },
];

export const node002: Check = {
  id: 'NODE002',
  run(ctx) {
    const bySubject = new Map<string, { subject: SubjectRef; parts: string[]; entries: AccessEntry[] }>();
    for (const l of LEGACY) {
      for (const e of nonAdminEntries(ctx, l.q, false)) {
        if (!l.dangerous(e)) continue;
        const key = `${e.subject.kind}/${e.subject.namespace ?? ''}/${e.subject.name}`;
        let s = bySubject.get(key);
        if (!s) bySubject.set(key, (s = { subject: e.subject, parts: [], entries: [] }));
        const names = e.names.includes('*') ? (l.what === 'service accounts' ? 'in every namespace' : '(any name)') : `(${e.names.join(', ')})`;
        s.parts.push(`${l.what} ${names}`);
        s.entries.push(e);
      }
    }
    const out: FindingDraft[] = [];
    for (const { subject, parts, entries } of bySubject.values()) {
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

interface ApiServerArgs {
  index: number;
  /** Each argument with where it sits (`command[2]`, `args[0]`); shell strings are split on spaces. */
  argv: { value: string; at: string }[];
}

function apiServerContainer(pod: Pod): ApiServerArgs | undefined {
  const containers = pod.spec?.containers ?? [];
  for (let index = 0; index < containers.length; index++) {
    const c = containers[index];
    const argv: { value: string; at: string }[] = [];
    for (const field of ['command', 'args'] as const) {
      (c[field] ?? []).forEach((a, i) => {
        // `sh -c "kube-apiserver --a=b ..."`: split the shell string into words.
        const words = /^\s*(\S*\/)?kube-apiserver(\s|$)/.test(a) || /\s--/.test(a) ? a.trim().split(/\s+/) : [a];
        for (const value of words) argv.push({ value, at: `${field}[${i}]` });
      });
    }
    if (argv.some((a) => a.value === 'kube-apiserver' || a.value.endsWith('/kube-apiserver'))) return { index, argv };
  }
  return undefined;
}

interface Flag {
  values: string[];
  at: string;
}

function parseFlags(argv: { value: string; at: string }[]): Map<string, Flag> {
  const flags = new Map<string, Flag>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i].value;
    const at = argv[i].at;
    if (!a.startsWith('--')) continue;
    const eq = a.indexOf('=');
    let name = a.slice(2);
    let value = '';
    if (eq >= 0) {
      name = a.slice(2, eq);
      value = a.slice(eq + 1);
    } else if (argv[i + 1] !== undefined && !argv[i + 1].value.startsWith('--')) {
      value = argv[++i].value;
    }
    const flag = flags.get(name);
    if (flag) flag.values.push(value);
    else flags.set(name, { values: [value], at });
  }
  return flags;
}

/** kube-system kube-apiserver-* pods whose command line shows the API server, by name, with their flags. */
export function visibleApiServers(pods: readonly Pod[]): { pod: Pod; found: ApiServerArgs; flags: Map<string, Flag> }[] {
  return pods
    .filter((p) => p.metadata.namespace === 'kube-system' && p.metadata.name.startsWith('kube-apiserver'))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))
    .flatMap((pod) => {
      const found = apiServerContainer(pod);
      return found ? [{ pod, found, flags: parseFlags(found.argv) }] : [];
    });
}

const csv = (flag: Flag | undefined) =>
  (flag?.values ?? [])
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);

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
      const modes = csv(modeFlag);
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
      const enabled = csv(enableFlag);
      const disabled = csv(disableFlag);
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

export const NODE_CHECKS: Check[] = [node001, node002, node003, node004, node005];
