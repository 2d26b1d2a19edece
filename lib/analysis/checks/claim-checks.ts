import type { DeviceRequest, ObjectRef, ResourceClaim, ResourceClaimTemplate, SubjectRef, ValidatingAdmissionPolicy } from '@/lib/k8s/types';
import { tenantAllowedClasses, unzeroedAccelerators } from '@/lib/analysis/zeroing/tenant-classes';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Evidence } from '@/lib/analysis/types';
import { subjectsApplyingTo, type AccessEntry, type AccessQuestion } from '@/lib/analysis/context/access';
import { isMastersGroup, isNodeIdentity, subjectAppliesTo } from '@/lib/analysis/context/identities';
import { Q } from '@/lib/analysis/context/questions';
import { manifestYamlDocs } from '@/lib/k8s/manifest-yaml';
import type { Check, FindingDraft } from './check-types';
import { grantObjects, grantsEvidence, list } from './check-helpers';
import { compareStrings, describeRef, describeSubject, objectRef, refKey, sortRefs } from '@/lib/k8s/refs';
import { describeGrants } from '@/lib/analysis/evidence';
import { pushTo } from '@/lib/k8s/push-to';
import { clusterPolicies, namespaceEquivalence } from '@/lib/admission/cluster-policies';
import type { AdmissionRequest } from '@/lib/admission/types';

export const ADMIN_ACCESS_LABEL = 'resource.kubernetes.io/admin-access';
export const LEGACY_ADMIN_ACCESS_LABEL = 'resource.k8s.io/admin-access';
const POD_CLAIM_NAME_ANNOTATION = 'resource.kubernetes.io/pod-claim-name';

const labelPath = (key: string) => `metadata.labels["${key}"]`;

// ---------------------------------------------------------------- CLAIM001

export const claim001: Check = {
  id: 'CLAIM001',
  run(ctx) {
    const out: FindingDraft[] = [];
    let adminClaims: Map<string, ObjectRef[]> | undefined;
    for (const ns of [...ctx.state.namespaces].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))) {
      const name = ns.metadata.name;
      if (ns.metadata.labels?.[ADMIN_ACCESS_LABEL] !== 'true' || !ctx.isTenantNamespace(name)) continue;
      const object = objectRef('Namespace', name);
      const users = (adminClaims ??= adminClaimsByNamespace(ctx)).get(name) ?? [];
      out.push({
        subjects: [],
        objects: [object],
        message:
          `Tenant namespace ${name} is labelled ${ADMIN_ACCESS_LABEL}="true": anyone who can create ResourceClaims or ResourceClaimTemplates in it can request adminAccess, ` +
          `which the scheduler does not count as a device use, so the claim can reach devices already allocated to other tenants` +
          `${users.length > 0 ? ` (in use by ${users.map(describeRef).join(', ')})` : ''}.`,
        evidence: [{ type: 'field', object, path: labelPath(ADMIN_ACCESS_LABEL), value: 'true' }],
        remediation:
          `Remove the label: kubectl label namespace ${name} ${ADMIN_ACCESS_LABEL}- ` +
          `and run monitoring that needs adminAccess from a platform namespace. If ${name} really is a platform namespace, label it dra-posture.io/role=platform. ` +
          `Restrict who can update/patch Namespace objects (see CLAIM003).`,
      });
    }
    return out;
  },
};

/**
 * Claims and templates whose requests use adminAccess, by namespace (templates first, each in the
 * state's order): one pass, where each labelled namespace read every claim of the cluster.
 */
function adminClaimsByNamespace(ctx: AnalysisContext): Map<string, ObjectRef[]> {
  const out = new Map<string, ObjectRef[]>();
  for (const t of ctx.state.resourceClaimTemplates)
    if (t.metadata.namespace !== undefined && hasAdminRequest(t.spec?.spec?.devices?.requests))
      pushTo(out, t.metadata.namespace, objectRef('ResourceClaimTemplate', t.metadata.name, t.metadata.namespace));
  for (const c of ctx.state.resourceClaims)
    if (c.metadata.namespace !== undefined && hasAdminRequest(c.spec?.devices?.requests))
      pushTo(out, c.metadata.namespace, objectRef('ResourceClaim', c.metadata.name, c.metadata.namespace));
  return out;
}

function hasAdminRequest(requests: DeviceRequest[] | undefined): boolean {
  return requests?.some((r) => r.exactly?.adminAccess === true) ?? false;
}

function adminRequests(requests: DeviceRequest[] | undefined): number[] {
  return (requests ?? []).map((r, i) => (r.exactly?.adminAccess === true ? i : -1)).filter((i) => i >= 0);
}

// ---------------------------------------------------------------- CLAIM002

/** The pod a claim was generated for from a ResourceClaimTemplate, if any. */
function generatedFor(c: ResourceClaim | ResourceClaimTemplate): string | undefined {
  if (c.kind !== 'ResourceClaim' || c.metadata.annotations?.[POD_CLAIM_NAME_ANNOTATION] === undefined) return undefined;
  return (c.metadata.ownerReferences ?? []).find((o) => o.kind === 'Pod')?.name;
}

export const claim002: Check = {
  id: 'CLAIM002',
  run(ctx) {
    const out: FindingDraft[] = [];
    // Whether each namespace name carries the label, as a search of the list finds it (its first
    // object of that name): searching 20,000 namespaces again for each admin-access claim, and two
    // arrays per claim to find none, were most of this check on a large cluster.
    const labelledNs = new Map<string, boolean>();
    for (const n of ctx.state.namespaces)
      if (!labelledNs.has(n.metadata.name)) labelledNs.set(n.metadata.name, n.metadata.labels?.[ADMIN_ACCESS_LABEL] === 'true');
    const report = (obj: ResourceClaim | ResourceClaimTemplate, requests: DeviceRequest[] | undefined, base: string) => {
      if (!hasAdminRequest(requests)) return;
      const ns = obj.metadata.namespace ?? '';
      if (!ctx.isTenantNamespace(ns)) return;
      const idx = adminRequests(requests);
      const object = objectRef(obj.kind, obj.metadata.name, ns);
      const labelled = labelledNs.get(ns) === true;
      const reqs = idx.map((i) => requests![i]);
      const live = obj.kind === 'ResourceClaim' ? (obj.status?.allocation?.devices?.results ?? []).filter((r) => r.adminAccess === true) : [];
      out.push({
        subjects: [],
        objects: [object],
        message:
          `${describeRef(object)}${generatedFor(obj) ? ` (generated for Pod ${ns}/${generatedFor(obj)})` : ''} in tenant namespace ${ns} requests adminAccess for ${reqs.map((r) => `request ${r.name} (DeviceClass ${r.exactly?.deviceClassName}${r.exactly?.allocationMode === 'All' ? ', allocationMode All' : ''})`).join(', ')}. ` +
          `Admin-access claims are ignored by the scheduler's in-use accounting and can reach devices already allocated to other tenants` +
          `${labelled ? ` (the namespace carries ${ADMIN_ACCESS_LABEL}=true, so the API server admits it)` : ` (the namespace lacks ${ADMIN_ACCESS_LABEL}=true, so creating it again would be refused)`}.` +
          (live.length > 0
            ? ` It is allocated with admin access to ${live.length} device${live.length === 1 ? '' : 's'}: ${live.map((r) => `${r.driver}/${r.pool}/${r.device}`).join(', ')}.`
            : ''),
        evidence: idx.map((i): Evidence => ({ type: 'field', object, path: `${base}[${i}].exactly.adminAccess`, value: true })),
        remediation:
          `Remove adminAccess from ${describeRef(object)} (or delete it) and run device monitoring that needs admin access from a platform namespace; ` +
          `guard claim creation with a ValidatingAdmissionPolicy that rejects adminAccess outside platform namespaces (see CLAIM004).`,
      });
    };
    for (const t of ctx.state.resourceClaimTemplates) report(t, t.spec?.spec?.devices?.requests, 'spec.spec.devices.requests');
    for (const c of ctx.state.resourceClaims) report(c, c.spec?.devices?.requests, 'spec.devices.requests');
    return out;
  },
};

// ---------------------------------------------------------------- CLAIM003

function isMemberOf(ctx: AnalysisContext, subject: SubjectRef, namespace: string): boolean {
  if (subject.kind === 'ServiceAccount' && subject.namespace === namespace) return true;
  if (subject.kind === 'Group' && subject.name === `system:serviceaccounts:${namespace}`) return true;
  return ctx.roleBindingMembers.namesIn(namespace, subject);
}

/**
 * The namespaces `subject` is an identity of (as isMemberOf), found without testing every namespace;
 * `naming` holds the RoleBinding namespaces of the subjects asked (Membership.namespacesNaming).
 */
function namespacesOfMember(naming: ReadonlyMap<string, ReadonlySet<string>>, subject: SubjectRef): string[] {
  const out = [...(naming.get(refKey(subject)) ?? [])];
  if (subject.kind === 'ServiceAccount' && subject.namespace) out.push(subject.namespace);
  const SA_GROUP = 'system:serviceaccounts:';
  if (subject.kind === 'Group' && subject.name.startsWith(SA_GROUP)) out.push(subject.name.slice(SA_GROUP.length));
  return out;
}

const NS_WRITE: AccessQuestion = { verbs: ['update', 'patch'], group: '', resource: 'namespaces', scope: 'namespaced', names: 'any' };

/**
 * Tenant namespaces worth the exact per-namespace question: those with a RoleBinding that may grant
 * namespace writes, and those where a member may write some Namespace through a ClusterRoleBinding.
 * Not only the names the cluster-wide answer lists: it lists, per verb, the names of the first rule
 * that matches, and a later rule of the same role may cover every name.
 */
function candidateNamespaces(ctx: AnalysisContext, writers: readonly ClusterWriter[]): string[] {
  const out = new Set(ctx.access.roleBindingNamespaces(NS_WRITE));
  const known = new Set(ctx.namespaces);
  for (const { entry, namespaces } of writers) {
    if (entry.via !== 'rbac') continue;
    for (const ns of namespaces) if (known.has(ns)) out.add(ns);
  }
  return [...out].filter((ns) => ctx.isTenantNamespace(ns)).sort();
}

interface ClusterWriter {
  entry: AccessEntry;
  /** The namespaces it is a member of (namespacesOfMember). */
  namespaces: string[];
}

/**
 * Whoever may write some Namespace through a ClusterRoleBinding (and system:masters, node
 * identities), with the namespaces each is a member of: the RoleBindings read once for all of them.
 */
function clusterNamespaceWriters(ctx: AnalysisContext): ClusterWriter[] {
  const entries = ctx.access.whoCan({ ...NS_WRITE, scope: 'cluster' });
  const naming = ctx.roleBindingMembers.namespacesNaming(entries.map((e) => e.subject));
  return entries.map((entry) => ({ entry, namespaces: namespacesOfMember(naming, entry.subject) }));
}

/** The cluster-wide Namespace writers by each namespace they are a member of. */
function clusterWritersByNamespace(writers: readonly ClusterWriter[]): Map<string, SubjectRef[]> {
  const out = new Map<string, SubjectRef[]>();
  for (const { entry, namespaces } of writers) for (const ns of namespaces) pushTo(out, ns, entry.subject);
  return out;
}

/**
 * The identities of `ns` that can be reported there: its RoleBindings' subjects, and those that may
 * write Namespaces through a ClusterRoleBinding and are members of `ns`. Anyone else is not an
 * identity of the namespace, so its entry would be skipped.
 */
function membersToAsk(ctx: AnalysisContext, ns: string, clusterWriters: Map<string, SubjectRef[]>): SubjectRef[] {
  const out: SubjectRef[] = [];
  for (const b of ctx.access.bindingsByNamespace().get(ns) ?? []) out.push(...b.subjects);
  out.push(...(clusterWriters.get(ns) ?? []));
  return out;
}

/** The policy that keeps the admin-access label for platform administrators: the same text for every finding, made once. */
const PROTECT_LABEL_POLICY_YAML = manifestYamlDocs(
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'protect-dra-admin-access-label' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['namespaces'] }] },
      matchConditions: [{ name: 'not-platform-admin', expression: "!('system:masters' in request.userInfo.groups)" }],
      validations: [
        {
          expression:
            `(has(object.metadata.labels) && '${ADMIN_ACCESS_LABEL}' in object.metadata.labels ? object.metadata.labels['${ADMIN_ACCESS_LABEL}'] : '') == ` +
            `(oldObject != null && has(oldObject.metadata.labels) && '${ADMIN_ACCESS_LABEL}' in oldObject.metadata.labels ? oldObject.metadata.labels['${ADMIN_ACCESS_LABEL}'] : '')`,
          message: `only platform administrators may change ${ADMIN_ACCESS_LABEL}`,
        },
      ],
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'protect-dra-admin-access-label' },
    spec: { policyName: 'protect-dra-admin-access-label', validationActions: ['Deny'] },
  },
);

export const claim003: Check = {
  id: 'CLAIM003',
  run(ctx) {
    const out: FindingDraft[] = [];
    const writers = clusterNamespaceWriters(ctx);
    const clusterWriters = clusterWritersByNamespace(writers);
    for (const ns of candidateNamespaces(ctx, writers)) {
      const q: AccessQuestion = { ...NS_WRITE, namespaces: [ns], names: [ns] };
      // One object per question and namespace: the index keeps what it derives per question object.
      const claimCreate: AccessQuestion = { ...Q.claimCreate, namespaces: [ns] };
      const templateCreate: AccessQuestion = { ...Q.templateCreate, namespaces: [ns] };
      // Asked of the namespace's members only, through the engine's subject index: asking the whole
      // question built, for each namespace, the entries of everyone allowed everywhere.
      for (const e of ctx.access.whoCanAmong(q, membersToAsk(ctx, ns, clusterWriters))) {
        if (e.via !== 'rbac' || isMastersGroup(e.subject) || isNodeIdentity(e.subject)) continue;
        if (ctx.isAdminEquivalent(e.subject) || ctx.isSystemIdentity(e.subject)) continue;
        if (!isMemberOf(ctx, e.subject, ns)) continue;
        const object = objectRef('Namespace', ns);
        // Whether it may create claims there, itself or through a group it carries. Every entry of a
        // question asked in this namespace holds there (a ClusterRoleBinding's or one of its
        // RoleBindings'): whether there is one is enough.
        const applying = subjectsApplyingTo(e.subject).filter((s) => subjectAppliesTo(s, e.subject));
        const canClaim = ctx.access.someAmong(claimCreate, applying) || ctx.access.someAmong(templateCreate, applying);
        const roles = [...new Set(e.grants.map((g) => `${describeRef(g.role)} rule #${g.ruleIndex}`))];
        out.push({
          subjects: [e.subject],
          objects: sortRefs([object, ...grantObjects(e.grants)]),
          message:
            `${describeSubject(e.subject)}, an identity of tenant namespace ${ns}, can ${e.verbs.join(', ')} Namespace ${ns} through ${describeGrants(ctx.engine, e.grants)}. ` +
            `It can set ${ADMIN_ACCESS_LABEL}=true on its own namespace, after which ` +
            `${canClaim ? 'it (and every other claim creator there)' : 'every claim creator there'} can request adminAccess to devices in use by other tenants (kubernetes/kubernetes#141293).`,
          evidence: grantsEvidence(ctx, e.grants),
          remediation:
            `Remove update/patch on namespaces from ${list(roles)} (tenants rarely need to edit their Namespace object). If self-service labelling is required, ` +
            `block the admin-access label for everyone but platform administrators:\n` +
            PROTECT_LABEL_POLICY_YAML,
        });
      }
    }
    return out;
  },
};

// ---------------------------------------------------------------- CLAIM004

const CLAIM_RESOURCES = ['resourceclaims', 'resourceclaimtemplates'] as const;
type ClaimResource = (typeof CLAIM_RESOURCES)[number];
const KIND_OF: Record<ClaimResource, 'ResourceClaim' | 'ResourceClaimTemplate'> = {
  resourceclaims: 'ResourceClaim',
  resourceclaimtemplates: 'ResourceClaimTemplate',
};
// A namespace no policy selector has seen: probed when the cluster has no tenant namespace yet.
const PROBE_NAMESPACE = 'dra-posture-probe-tenant';
const PROBE_USER = { username: 'tenant-user@dra-posture.probe', groups: ['system:authenticated'] };

function policyCovers(policy: ValidatingAdmissionPolicy, resource: string): boolean {
  return (policy.spec?.matchConstraints?.resourceRules ?? []).some(
    (r) =>
      (r.operations ?? []).some((o) => o === 'CREATE' || o === '*') &&
      (r.apiGroups ?? []).some((g) => g === 'resource.k8s.io' || g === '*') &&
      (r.resources ?? []).some((x) => x === resource || x === '*' || x === '*/*'),
  );
}

interface ClaimProbe {
  /** What the probe asks for, in words. */
  what: string;
  request: DeviceRequest;
}

/** A v1 claim (or template) as the API server hands it to admission: defaults applied, namespace set. */
function probeRequest(resource: ClaimResource, namespace: string, request: DeviceRequest): AdmissionRequest {
  const kind = KIND_OF[resource];
  const claimSpec = { devices: { requests: [request] } };
  const name = `dra-posture-probe-${request.name}`;
  return {
    operation: 'CREATE',
    group: 'resource.k8s.io',
    version: 'v1',
    resource,
    subresource: '',
    kind,
    namespace,
    name,
    object: {
      apiVersion: 'resource.k8s.io/v1',
      kind,
      metadata: { name, namespace },
      spec: kind === 'ResourceClaim' ? claimSpec : { spec: claimSpec },
    },
    oldObject: null,
    userInfo: PROBE_USER,
  };
}

/** The claims a guard must refuse: one with adminAccess, one per accelerator DeviceClass without a zeroing indicator. */
function claimProbes(ctx: AnalysisContext): ClaimProbe[] {
  const exactly = (deviceClassName: string, adminAccess?: boolean) => ({
    deviceClassName,
    allocationMode: 'ExactCount' as const,
    count: 1,
    ...(adminAccess ? { adminAccess } : {}),
  });
  const zeroing = ctx.deviceClasses.filter((c) => c.zeroing === 'configured').map((c) => c.name);
  const allowed = tenantAllowedClasses(ctx.deviceClasses).map((c) => c.name);
  const unzeroed = unzeroedAccelerators(ctx.deviceClasses).map((c) => c.name);
  // adminAccess on a class the guard may allow, so that what is refused is the adminAccess.
  const adminClass = zeroing[0] ?? allowed[0] ?? unzeroed[0] ?? 'probe.dra-posture.io';
  return [
    { what: `adminAccess (DeviceClass ${adminClass})`, request: { name: 'admin', exactly: exactly(adminClass, true) } as DeviceRequest },
    ...unzeroed.map((c, i) => ({
      what: `accelerator DeviceClass ${c} (no zeroing indicator)`,
      request: { name: `class-${i}`, exactly: exactly(c) } as DeviceRequest,
    })),
  ];
}

/** What the probes are evaluated against: the tenant namespaces, the cluster's policies and which namespaces they cannot tell apart. */
interface ProbeScope {
  tenants: string[];
  evaluator: ReturnType<typeof clusterPolicies>;
  /** The namespaces probed (the tenants, or a new namespace when there are none) and, at the same index, the key of those the policies cannot tell apart. */
  probed: string[];
  keys: string[];
}

/**
 * Read once per run: both resources are probed in the same namespaces under the same policies, so a
 * namespace's key (its labels read by every selector; 20,000 tenant namespaces on the bench cluster)
 * is computed once for both.
 */
function probeScope(ctx: AnalysisContext): ProbeScope {
  const tenants = ctx.state.namespaces
    .map((n) => n.metadata.name)
    .filter((n) => ctx.isTenantNamespace(n))
    .sort(compareStrings);
  const state =
    tenants.length > 0
      ? ctx.state
      : { ...ctx.state, namespaces: [...ctx.state.namespaces, { apiVersion: 'v1', kind: 'Namespace' as const, metadata: { name: PROBE_NAMESPACE } }] };
  const keyOf = namespaceEquivalence(state);
  const probed = tenants.length > 0 ? tenants : [PROBE_NAMESPACE];
  return { tenants, evaluator: clusterPolicies(state), probed, keys: probed.map(keyOf) };
}

/** For one resource: the probes some tenant namespace lets through (or cannot decide), with where. */
function leaks(
  { tenants, evaluator, probed, keys }: ProbeScope,
  resource: ClaimResource,
  probes: ClaimProbe[],
): { through: Map<string, string[]>; unknown: Map<string, string> } {
  // Namespaces the policies cannot tell apart get the same answers: evaluated once per key and probe.
  const answers = new Map<string, ReturnType<typeof evaluator.admit>[]>();
  const through = new Map<string, string[]>();
  const unknown = new Map<string, string>();
  for (let n = 0; n < probed.length; n++) {
    const namespace = probed[n];
    const key = keys[n];
    let outcomes = answers.get(key);
    if (!outcomes) answers.set(key, (outcomes = probes.map((probe) => evaluator.admit(probeRequest(resource, namespace, probe.request)))));
    for (let i = 0; i < probes.length; i++) {
      const out = outcomes[i];
      if (out.outcome === 'deny') continue;
      pushTo(through, probes[i].what, tenants.length > 0 ? namespace : 'a new namespace');
      if (out.outcome === 'unknown') unknown.set(`${out.by.policy.name}`, out.reason);
    }
  }
  return { through, unknown };
}

export const claim004: Check = {
  id: 'CLAIM004',
  run(ctx) {
    const s = ctx.state;
    if (s.deviceClasses.length + s.resourceSlices.length + s.resourceClaims.length + s.resourceClaimTemplates.length === 0) return [];
    const denyBound = new Set(
      s.validatingAdmissionPolicyBindings.filter((b) => (b.spec?.validationActions ?? []).includes('Deny')).map((b) => b.spec?.policyName ?? ''),
    );
    const probes = claimProbes(ctx);
    let scope: ProbeScope | undefined;
    const notes: Evidence[] = [];
    const uncovered: string[] = [];
    const leaky: string[] = [];
    const unbound = new Map<string, ObjectRef>();
    for (const resource of CLAIM_RESOURCES) {
      const covering = s.validatingAdmissionPolicies.filter((p) => policyCovers(p, resource));
      const bound = covering.filter((p) => denyBound.has(p.metadata.name));
      if (bound.length > 0) {
        // Bound: it counts only if it refuses v1 probes with adminAccess or an unzeroed class, in every tenant namespace.
        const { through, unknown } = leaks((scope ??= probeScope(ctx)), resource, probes);
        if (through.size === 0) continue;
        leaky.push(resource);
        for (const [what, where] of through)
          notes.push({
            type: 'note',
            text: `A v1 ${KIND_OF[resource]} requesting ${what} is admitted in ${list(where)} by ${list(bound.map((p) => p.metadata.name))}.`,
          });
        for (const [policy, reason] of unknown)
          notes.push({ type: 'note', text: `ValidatingAdmissionPolicy ${policy} is not counted: its outcome is unknown (${reason}).` });
        continue;
      }
      uncovered.push(resource);
      for (const p of covering) {
        unbound.set(p.metadata.name, objectRef('ValidatingAdmissionPolicy', p.metadata.name));
        const bindings = s.validatingAdmissionPolicyBindings.filter((b) => b.spec?.policyName === p.metadata.name);
        notes.push({
          type: 'note',
          text:
            bindings.length === 0
              ? `ValidatingAdmissionPolicy ${p.metadata.name} covers CREATE of ${resource} but no ValidatingAdmissionPolicyBinding references it.`
              : `ValidatingAdmissionPolicy ${p.metadata.name} covers CREATE of ${resource} but its bindings (${bindings.map((b) => b.metadata.name).join(', ')}) do not use validationActions Deny.`,
        });
      }
    }
    if (uncovered.length === 0 && leaky.length === 0) return [];
    const classes = s.deviceClasses.map((c) => c.metadata.name).sort();
    // Only classes whose devices are zeroed between tenants, or that are not accelerators, belong on a tenant allow-list.
    const tenantClasses = tenantAllowedClasses(ctx.deviceClasses).map((c) => c.name);
    const allowed = `[${tenantClasses.map((c) => `'${c}'`).join(', ')}]`;
    const existing = [...unbound.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const bindExisting =
      existing.length === 0
        ? ''
        : `Bind the existing ${existing.length === 1 ? 'policy' : 'policies'} ${list(existing.map((e) => e.name))} with validationActions [Deny], limited to tenant namespaces:\n` +
          manifestYamlDocs(
            ...existing.map((e) => ({
              apiVersion: 'admissionregistration.k8s.io/v1',
              kind: 'ValidatingAdmissionPolicyBinding',
              metadata: { name: e.name },
              spec: {
                policyName: e.name,
                validationActions: ['Deny'],
                matchResources: { namespaceSelector: { matchExpressions: [{ key: 'dra-posture.io/role', operator: 'NotIn', values: ['platform'] }] } },
              },
            })),
          ) +
          `\nOr add one policy for both resources that `;
    const sentences = [
      uncovered.length > 0 ? `No ValidatingAdmissionPolicy bound with validationActions Deny covers CREATE of ${list(uncovered)} (resource.k8s.io).` : '',
      leaky.length > 0
        ? `The bound policies on ${list(leaky)} do not refuse, in every tenant namespace, a v1 object that requests adminAccess or an accelerator DeviceClass without a zeroing indicator (evaluated on such objects).`
        : '',
      `Any identity that can create claims can pick any DeviceClass (${classes.length} in the cluster) and, in a namespace with ${ADMIN_ACCESS_LABEL}=true, request adminAccess.`,
    ];
    return [
      {
        subjects: [],
        objects: existing,
        message: sentences.filter(Boolean).join(' '),
        evidence:
          notes.length > 0
            ? notes
            : [
                {
                  type: 'note',
                  text: `${s.validatingAdmissionPolicies.length} ValidatingAdmissionPolicies checked; none covers CREATE of ${list(uncovered)}.`,
                },
              ],
        remediation:
          `${bindExisting || 'Add a policy that '}rejects adminAccess outside platform namespaces and allow-lists DeviceClasses whose devices are zeroed between tenants or are not accelerators (${tenantClasses.length > 0 ? `here: ${list(tenantClasses)}` : 'here every class is an accelerator without a zeroing indicator, so the list is empty until one has one'}; edit the list per tenant):\n` +
          manifestYamlDocs(
            {
              apiVersion: 'admissionregistration.k8s.io/v1',
              kind: 'ValidatingAdmissionPolicy',
              metadata: { name: 'dra-claim-guard' },
              spec: {
                failurePolicy: 'Fail',
                matchConstraints: {
                  resourceRules: [
                    {
                      apiGroups: ['resource.k8s.io'],
                      apiVersions: ['*'],
                      operations: ['CREATE', 'UPDATE'],
                      resources: ['resourceclaims', 'resourceclaimtemplates'],
                    },
                  ],
                },
                variables: [
                  {
                    name: 'requests',
                    expression:
                      "object.kind == 'ResourceClaimTemplate' ? (has(object.spec.spec.devices) && has(object.spec.spec.devices.requests) ? object.spec.spec.devices.requests : []) : (has(object.spec.devices) && has(object.spec.devices.requests) ? object.spec.devices.requests : [])",
                  },
                ],
                validations: [
                  {
                    expression: '!variables.requests.exists(r, has(r.exactly) && has(r.exactly.adminAccess) && r.exactly.adminAccess)',
                    message: 'adminAccess is reserved for platform namespaces',
                  },
                  {
                    expression: `variables.requests.all(r, has(r.exactly) ? r.exactly.deviceClassName in ${allowed} : r.firstAvailable.all(s, s.deviceClassName in ${allowed}))`,
                    message: 'this DeviceClass is not allowed in this namespace',
                  },
                ],
              },
            },
            {
              apiVersion: 'admissionregistration.k8s.io/v1',
              kind: 'ValidatingAdmissionPolicyBinding',
              metadata: { name: 'dra-claim-guard' },
              spec: {
                policyName: 'dra-claim-guard',
                validationActions: ['Deny'],
                matchResources: { namespaceSelector: { matchExpressions: [{ key: 'dra-posture.io/role', operator: 'NotIn', values: ['platform'] }] } },
              },
            },
          ),
      },
    ];
  },
};

// ---------------------------------------------------------------- CLAIM005

export const claim005: Check = {
  id: 'CLAIM005',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const ns of [...ctx.state.namespaces].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))) {
      const value = ns.metadata.labels?.[LEGACY_ADMIN_ACCESS_LABEL];
      if (value === undefined) continue;
      const object = objectRef('Namespace', ns.metadata.name);
      const active = ns.metadata.labels?.[ADMIN_ACCESS_LABEL];
      out.push({
        subjects: [],
        objects: [object],
        message:
          `Namespace ${ns.metadata.name} carries the legacy label ${LEGACY_ADMIN_ACCESS_LABEL}="${value}", which only Kubernetes 1.33 honoured; since 1.34 only ${ADMIN_ACCESS_LABEL} counts` +
          `${active !== undefined ? ` (also set here: "${active}")` : ' (not set here, so adminAccess claims are refused)'}.`,
        evidence: [{ type: 'field', object, path: labelPath(LEGACY_ADMIN_ACCESS_LABEL), value }],
        remediation:
          `Remove the stale label (kubectl label namespace ${ns.metadata.name} ${LEGACY_ADMIN_ACCESS_LABEL}-); ` +
          `if the namespace needs admin access on 1.34+, set ${ADMIN_ACCESS_LABEL}="true" deliberately (platform namespaces only).`,
      });
    }
    return out;
  },
};

export const CLAIM_CHECKS: Check[] = [claim001, claim002, claim003, claim004, claim005];
