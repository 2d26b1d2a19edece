import type { ResourceAttributes, UserInfo } from '@/lib/authz/types';
import { describeSubject, refKey } from '@/lib/k8s/refs';
import type { ClusterRole, ClusterRoleBinding, SubjectRef } from '@/lib/k8s/types';
import type { AnalysisContext } from './context-types';
import { Q } from './context/questions';
import { impersonatorsOf } from './impersonation-reach';
import { userForSubject } from './node-writers/subjects';

// Which identities hold full control of the cluster, and how: admin-equivalent access itself (`*` on
// `*` in every group, or system:masters), acting as such an identity by impersonation (legacy
// impersonation may name system:masters: authz-semantics §7), or making themselves one through RBAC's
// own escalation paths (authz-semantics §5): binding cluster-admin cluster-wide, writing a ClusterRole
// with every permission and binding it, or adding permissions to a ClusterRole already bound to them.
// Each path is decided by the engine (authorize, authorizeImpersonated, canCreate), never read off a
// role's name. Chains through more than one identity (impersonating someone who may bind) are not followed.

const RBAC = 'rbac.authorization.k8s.io';
const MASTERS: SubjectRef = { kind: 'Group', name: 'system:masters' };
/** The request only a `*` verb on `*` resources in `*` groups allows. */
const EVERYTHING: ResourceAttributes = { verb: '*', group: '*', resource: '*', subresource: '', namespace: '', name: '' };
const PROBE_ROLE = 'dra-posture-probe-full-control';

export class FullControlIndex {
  private readonly known = new Map<string, string | null>();
  private impersonators?: Map<string, string>;

  constructor(private readonly ctx: AnalysisContext) {}

  /** How the subject reaches full control of the cluster, in words after its name; undefined when it does not. */
  of(subject: SubjectRef): string | undefined {
    const key = refKey(subject);
    let how = this.known.get(key);
    if (how === undefined) this.known.set(key, (how = this.decide(subject) ?? null));
    return how ?? undefined;
  }

  private decide(subject: SubjectRef): string | undefined {
    if (this.ctx.isAdminEquivalent(subject))
      return subject.kind === 'Group' && subject.name === MASTERS.name ? 'is system:masters' : 'holds * on * in every API group (cluster-admin equivalent)';
    const impersonated = this.impersonatorIndex().get(refKey(subject));
    if (impersonated) return `may impersonate ${impersonated}`;
    return this.escalation(subject, userForSubject(subject));
  }

  /** Identities that may send any request as system:masters or as an admin-equivalent identity, with whom (masters first). */
  private impersonatorIndex(): Map<string, string> {
    if (this.impersonators) return this.impersonators;
    const out = new Map<string, string>();
    const holders = [MASTERS, ...this.ctx.access.rbacWhoCan(Q.adminProbe).map((e) => e.subject)];
    // The first holder an identity may impersonate is the one named: an identity already found is not
    // decided again for the next holders (on a large cluster ~50 holders share most of their ~240 impersonators).
    const found = (s: SubjectRef) => out.has(refKey(s));
    for (const holder of holders)
      for (const imp of impersonatorsOf(this.ctx, holder, { resource: EVERYTHING }, found))
        out.set(refKey(imp.subject), `${describeSubject(holder)} (${imp.decision.impersonation.mode} impersonation)`);
    return (this.impersonators = out);
  }

  /** RBAC escalation to `*` on `*`: bind cluster-admin, create and bind an all-powerful ClusterRole, or escalate a ClusterRole bound to it. */
  private escalation(subject: SubjectRef, user: UserInfo): string | undefined {
    const { engine } = this.ctx;
    // Both ways through a new ClusterRoleBinding start with its create, which canCreate authorizes first:
    // asked once here, so that the many identities without it skip the rest of both.
    const createsBindings = engine.authorize({ user, resource: CREATE_CLUSTER_ROLE_BINDINGS }).allowed;
    // Binding a role that does not exist grants nothing: cluster-admin only where the cluster has it.
    if (createsBindings && engine.rbac.clusterRoles.has('cluster-admin') && engine.canCreate(user, bindingTo(subject, 'cluster-admin')).allowed)
      return 'may bind ClusterRole cluster-admin to itself cluster-wide (create clusterrolebindings, bind)';
    if (createsBindings && engine.canCreate(user, EVERY_PERMISSION).allowed && engine.canCreate(user, bindingTo(subject, PROBE_ROLE)).allowed)
      return 'may create a ClusterRole with every permission and bind it to itself (escalate, bind)';
    const bound = new Set<string>();
    for (const g of engine.rulesFor(user, '')) if (g.binding.kind === 'ClusterRoleBinding') bound.add(g.role.name);
    for (const role of [...bound].sort())
      if (
        allowsOnClusterRole(this.ctx, user, 'escalate', role) &&
        (allowsOnClusterRole(this.ctx, user, 'update', role) || allowsOnClusterRole(this.ctx, user, 'patch', role))
      )
        return `may add any permission to ClusterRole ${role}, which is bound to it cluster-wide (update, escalate)`;
    return undefined;
  }
}

const CREATE_CLUSTER_ROLE_BINDINGS: ResourceAttributes = {
  verb: 'create',
  group: RBAC,
  resource: 'clusterrolebindings',
  subresource: '',
  namespace: '',
  name: '',
};

/** A ClusterRole with every permission: what the requester would create to escalate. */
const EVERY_PERMISSION: ClusterRole = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: PROBE_ROLE },
  rules: [
    { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    { verbs: ['*'], nonResourceURLs: ['*'] },
  ],
};

/** The ClusterRoleBinding of `role` to the subject, cluster-wide. */
function bindingTo(subject: SubjectRef, role: string): ClusterRoleBinding {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: PROBE_ROLE },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects: [{ kind: subject.kind, name: subject.name, ...(subject.kind === 'ServiceAccount' ? { namespace: subject.namespace } : { apiGroup: RBAC }) }],
  };
}

function allowsOnClusterRole(ctx: AnalysisContext, user: UserInfo, verb: string, name: string): boolean {
  return ctx.engine.authorize({ user, resource: { verb, group: RBAC, resource: 'clusterroles', subresource: '', namespace: '', name } }).allowed;
}
