import type { AnalysisContext } from '@/lib/analysis/context-types';
import { Q } from '@/lib/analysis/context/questions';
import { ADMIN_ACCESS_LABEL, claim004 } from '@/lib/analysis/checks/claim-checks';
import { list } from '@/lib/analysis/checks/check-helpers';
import type { Finding, FixChange, FixProbe } from '@/lib/analysis/types';
import { NAME_LABEL } from '@/lib/admission/cluster-policies';
import { compareStrings, describeSubject } from '@/lib/k8s/refs';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '@/lib/k8s/types';
import { holderOf } from './holder';
import type { Proposed } from './verify-fix';
import { decideWrite, writeProbe, type StateLists } from './write-probes';
import { tenantAllowedClasses, unzeroedAccelerators } from '@/lib/analysis/zeroing/tenant-classes';

/** A class the guard allows, and why (for the probe that must still be admitted). */
interface AllowedClass {
  name: string;
  why: 'zeroed' | 'non-accelerator';
}

// CLAIM004: nothing refuses a tenant's v1 claim (or template) that asks for adminAccess or for an
// accelerator DeviceClass whose devices are not zeroed between tenants. The fix adds a
// ValidatingAdmissionPolicy and a binding (Deny) for the tenant namespaces, every namespace but the
// platform's: a request may not set adminAccess, and every request and subrequest names a DeviceClass
// with zeroing configured or one that is not an accelerator (tenant-classes.ts: leaving those out
// would refuse a ComputeDomain's channel templates or a NIC claim and break that driver). It
// matches v1 with matchPolicy Equivalent, so a beta request is converted to v1 before it is judged.
// CREATE only: a claim's and a template's spec cannot change after it, and an UPDATE (a finalizer, the
// reservedFor list) of a claim made before the policy must still pass. Checked by the evaluator
// (lib/admission): CLAIM004 run again on the cluster with the policy finds nothing, and, as a
// tenant that can create claims today, a claim with adminAccess or a class without zeroing is refused
// while a claim of a zeroed class is still accepted.

const ADMISSION_API = 'admissionregistration.k8s.io/v1';
const POLICY = 'dra-posture-tenant-claims';
/** Tenant namespaces looked at for a user who can create claims today (the probes' writer). */
const PROBE_SEARCH = 50;

function guardPolicy(name: string, allowed: readonly string[]): ValidatingAdmissionPolicy {
  return {
    apiVersion: ADMISSION_API,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        matchPolicy: 'Equivalent',
        resourceRules: [
          { apiGroups: ['resource.k8s.io'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['resourceclaims', 'resourceclaimtemplates'] },
        ],
      },
      variables: [
        {
          name: 'requests',
          expression: "(request.resource.resource == 'resourceclaimtemplates' ? object.spec.spec : object.spec).?devices.?requests.orValue([])",
        },
        { name: 'allowedClasses', expression: `[${allowed.map((c) => `'${c}'`).join(', ')}]` },
      ],
      validations: [
        {
          expression: 'variables.requests.all(r, !has(r.exactly) || !has(r.exactly.adminAccess) || !r.exactly.adminAccess)',
          reason: 'Forbidden',
          message: 'adminAccess is for platform namespaces only',
        },
        {
          expression:
            'variables.requests.all(r, has(r.exactly) ? r.exactly.deviceClassName in variables.allowedClasses : has(r.firstAvailable) && r.firstAvailable.all(s, s.deviceClassName in variables.allowedClasses))',
          reason: 'Forbidden',
          message: `tenant claims may use only DeviceClasses whose devices are zeroed between tenants or are not accelerators: ${allowed.join(', ')}`,
        },
      ],
    },
  };
}

function guardBinding(name: string, platform: readonly string[]): ValidatingAdmissionPolicyBinding {
  return {
    apiVersion: ADMISSION_API,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: {
      policyName: name,
      validationActions: ['Deny'],
      ...(platform.length > 0
        ? { matchResources: { namespaceSelector: { matchExpressions: [{ key: NAME_LABEL, operator: 'NotIn', values: [...platform] }] } } }
        : {}),
    },
  };
}

function claimObject(namespace: string, name: string, deviceClassName: string, adminAccess: boolean): Record<string, unknown> {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name, namespace },
    spec: {
      devices: { requests: [{ name: 'r', exactly: { deviceClassName, allocationMode: 'ExactCount', count: 1, ...(adminAccess ? { adminAccess } : {}) } }] },
    },
  };
}

/** A tenant that can create claims in `namespace` today (bound there), or undefined. */
function creatorIn(ctx: AnalysisContext, namespace: string) {
  const entry = ctx.access.grantedInNamespace(Q.claimCreate, namespace).find((e) => e.via === 'rbac' && !ctx.isAdminEquivalent(e.subject));
  return entry && holderOf(ctx, entry.subject);
}

/** Claims the policy must refuse (adminAccess, an accelerator class without zeroing) and admit (an allowed class), as a tenant the cluster lets create them today. */
function claimProbes(ctx: AnalysisContext, tenants: readonly string[], allowed: readonly AllowedClass[], unzeroed: readonly string[]): FixProbe[] {
  const labelled = new Set(ctx.state.namespaces.filter((n) => n.metadata.labels?.[ADMIN_ACCESS_LABEL] === 'true').map((n) => n.metadata.name));
  // An adminAccess claim is accepted today only in a labelled namespace: look there first.
  const order = [...tenants.filter((ns) => labelled.has(ns)), ...tenants.filter((ns) => !labelled.has(ns))].slice(0, PROBE_SEARCH);
  for (const ns of order) {
    const h = creatorIn(ctx, ns);
    if (!h) continue;
    const who = describeSubject(h.subject);
    const acceptedToday = (probe: FixProbe) => {
      const today = decideWrite(ctx.engine, probe);
      return 'allowed' in today && today.allowed;
    };
    const unzeroedProbe = (cls: string) =>
      writeProbe(
        'denied',
        `${who}: create a claim of the accelerator DeviceClass ${cls} (no zeroing) in ${ns}`,
        h.user,
        'CREATE',
        claimObject(ns, 'fix-check-unzeroed', cls, false),
      );
    // Only what the cluster accepts today decides the fix (a write refused already is not its doing):
    // of the classes without zeroing, the first one a claim of is accepted today.
    const probes = [
      writeProbe(
        'allowed',
        `${who}: create a claim of the ${allowed[0].why} DeviceClass ${allowed[0].name} in ${ns}`,
        h.user,
        'CREATE',
        claimObject(ns, 'fix-check-zeroed', allowed[0].name, false),
      ),
      writeProbe('denied', `${who}: create a claim with adminAccess in ${ns}`, h.user, 'CREATE', claimObject(ns, 'fix-check-admin', allowed[0].name, true)),
    ].filter(acceptedToday);
    const unzeroedAccepted = unzeroed.slice(0, PROBE_SEARCH).map(unzeroedProbe).find(acceptedToday);
    return unzeroedAccepted ? [...probes, unzeroedAccepted] : probes;
  }
  return [];
}

/** A claim spec's requests, as far as the guard reads them. */
type GuardedRequests =
  readonly { exactly?: { deviceClassName: string; adminAccess?: boolean }; firstAvailable?: readonly { deviceClassName: string }[] }[] | undefined;

/**
 * Whether the guard's validations refuse these requests: adminAccess, or a class off the allow-list
 * (a request's exactly when set, else each firstAvailable subrequest; as the policy's CEL reads them).
 * Plain loops: it reads every claim of the cluster (100,000 on the bench cluster).
 */
function refusesRequests(requests: GuardedRequests, allowed: ReadonlySet<string>): boolean {
  if (!requests) return false;
  for (let i = 0; i < requests.length; i++) {
    const r = requests[i];
    const exactly = r.exactly;
    if (exactly) {
      if (exactly.adminAccess === true || !allowed.has(exactly.deviceClassName)) return true;
      continue;
    }
    const subs = r.firstAvailable;
    if (subs) for (let j = 0; j < subs.length; j++) if (!allowed.has(subs[j].deviceClassName)) return true;
  }
  return false;
}

/** compareStrings(`${kind} ${ns}/${name}`, text), read without writing the first (UTF-16 code units, as `<` compares). */
export function compareObjectText(kind: string, ns: string, name: string, text: string): number {
  let at = 0;
  for (let part = 0; part < 5; part++) {
    const s = part === 0 ? kind : part === 1 ? ' ' : part === 2 ? ns : part === 3 ? '/' : name;
    for (let i = 0; i < s.length; i++, at++) {
      if (at === text.length) return 1;
      const d = s.charCodeAt(i) - text.charCodeAt(at);
      if (d !== 0) return d < 0 ? -1 : 1;
    }
  }
  return at === text.length ? 0 : -1;
}

/**
 * The tenant claims and templates of today that the allow-list would refuse if they were created
 * again: the first `max` by name (kept without sorting every claim of a large cluster), and how many.
 */
export function refusedToday(ctx: AnalysisContext, allowed: ReadonlySet<string>, max: number): { first: string[]; count: number } {
  const first: string[] = [];
  let count = 0;
  const tenant = new Map<string, boolean>();
  const consider = (o: { kind: string; metadata: { name: string; namespace?: string } }, requests: GuardedRequests) => {
    if (!refusesRequests(requests, allowed)) return;
    const ns = o.metadata.namespace ?? '';
    let isTenant = tenant.get(ns);
    if (isTenant === undefined) tenant.set(ns, (isTenant = ctx.isTenantNamespace(ns)));
    if (!isTenant) return;
    count++;
    // Most are counted only: the text is written for those among the first so far.
    if (first.length === max && compareObjectText(o.kind, ns, o.metadata.name, first[max - 1]) >= 0) return;
    first.push(`${o.kind} ${ns}/${o.metadata.name}`);
    first.sort(compareStrings);
    if (first.length > max) first.pop();
  };
  for (const t of ctx.state.resourceClaimTemplates) consider(t, t.spec?.spec?.devices?.requests);
  for (const c of ctx.state.resourceClaims) consider(c, c.spec?.devices?.requests);
  return { first, count };
}

export function proposeClaimGuard(ctx: AnalysisContext, _findings: readonly Finding[]): Proposed {
  // A zeroed class first: the probe that must still be admitted names the class the allow-list is about.
  const allowed: AllowedClass[] = tenantAllowedClasses(ctx.deviceClasses)
    .map((c): AllowedClass => ({ name: c.name, why: c.zeroing === 'configured' ? 'zeroed' : 'non-accelerator' }))
    .sort((a, b) => (a.why === b.why ? 0 : a.why === 'zeroed' ? -1 : 1));
  const allowedNames = allowed.map((c) => c.name).sort(compareStrings);
  if (allowedNames.length === 0)
    return {
      none: 'every DeviceClass is an accelerator without a zeroing indicator, so an allow-list of classes whose devices are zeroed between tenants would refuse every tenant claim; record zeroing first (ZERO001, ZERO002)',
    };
  const unzeroed = unzeroedAccelerators(ctx.deviceClasses).map((c) => c.name);
  const platform = [...new Set([...ctx.namespaces, 'kube-system', 'kube-public', 'kube-node-lease'])].filter((ns) => ctx.isPlatformNamespace(ns)).sort();
  const taken = new Set(ctx.state.validatingAdmissionPolicies.map((p) => p.metadata.name));
  const takenBindings = new Set(ctx.state.validatingAdmissionPolicyBindings.map((b) => b.metadata.name));
  let name = POLICY;
  for (let i = 2; taken.has(name) || takenBindings.has(name); i++) name = `${POLICY}-${i}`;
  const policy = guardPolicy(name, allowedNames);
  const binding = guardBinding(name, platform);
  const stateLists: StateLists = {
    validatingAdmissionPolicies: [...ctx.state.validatingAdmissionPolicies, policy],
    validatingAdmissionPolicyBindings: [...ctx.state.validatingAdmissionPolicyBindings, binding],
  };
  const changes: FixChange[] = [
    {
      action: 'create',
      object: policy as unknown as Record<string, unknown>,
      why: `refuses a new claim or template that sets adminAccess or names a DeviceClass other than ${list(allowedNames)} (zeroing configured, or not an accelerator)`,
    },
    {
      action: 'create',
      object: binding as unknown as Record<string, unknown>,
      why: `turns it on (Deny) in every namespace but the platform's${platform.length > 0 ? ` (${list(platform)})` : ''}`,
    },
  ];
  const tenants = ctx.namespaces.filter((ns) => ctx.isTenantNamespace(ns));
  const refused = refusedToday(ctx, new Set(allowedNames), 10);
  const shownRefused = refused.count > 10 ? `${refused.first.join(', ')} and ${refused.count - 10} more` : list(refused.first);
  return {
    holders: [],
    otherChanges: changes,
    probes: claimProbes(ctx, tenants, allowed, unzeroed),
    stateLists,
    after: () => {
      // CLAIM004 itself, on the cluster with the policy: every tenant namespace refuses its probes.
      const after = Object.create(ctx, { state: { value: { ...ctx.state, ...stateLists } } }) as AnalysisContext;
      return claim004.run(after).length > 0 ? ['CLAIM004 would still find tenant namespaces where such a claim is admitted'] : [];
    },
    checks: [
      'CLAIM004 run again on the cluster with the policy: in every tenant namespace, a v1 claim and template with adminAccess or an accelerator DeviceClass without zeroing is refused (the admission evaluator)',
      "a tenant's claim of an allowed DeviceClass is still admitted; platform namespaces are not matched; no RBAC changes",
    ],
    summary: `Add a ValidatingAdmissionPolicy and binding that refuse tenant claims with adminAccess or an accelerator DeviceClass without zeroing (allowed: ${list(allowedNames)})`,
    leftover:
      `an accelerator's class belongs on the allow-list only when its devices are zeroed between tenants; add one to allowedClasses when it is` +
      (refused.count > 0 ? `. It refuses new claims like these of today (a pod's claim made from a template included): ${shownRefused}` : ''),
  };
}
