import { nodeUser } from '@/lib/authz/user-info';
import { describeRef, describeSubject } from '@/lib/k8s/refs';
import type { ClusterRole, ClusterRoleBinding } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { capability } from '@/lib/analysis/capabilities';
import type { Finding, FixProbe } from '@/lib/analysis/types';
import { list, rbacSubject, slug } from '@/lib/analysis/checks/check-helpers';
import { otherNodeOf, res, reviewOf, type Holder } from './holder';
import type { ObservedRequests } from './holder-needs';
import { holdersOfIssue, proposeRemoveAccess } from './propose-remove-access';
import type { Proposed } from './verify-fix';

// NODE003: update/patch of every Node object; NODE001: of every node's status (nodes/status), the
// same fix on the subresource. The verbs come out of the granting rules. A holder
// whose pods run on nodes (a DaemonSet: its token names its node) keeps exactly the verbs it had on
// its own Node through constrained impersonation (impersonate:associated-node plus
// impersonate-on:associated-node:<verb>). Impersonation applies only to requests that carry the
// Impersonate-User header: a plugin that labels its node with Nodes().Update as itself (the NVIDIA
// kubelet plugin's chart does) is refused once the rule goes, until it sends its Node writes as
// system:node:<its node>. The fix says so (leftover); RBAC cannot limit a plain write to the writer's
// own node. A service account with no node (a controller Deployment) has no associated node to act
// as, and a controller's role grants the Node writes it may well use by design (labels, taints): only
// an audit log showing it never writes Nodes lets the verbs go; otherwise there is no safe automatic
// fix. Users and groups (people) lose the verbs.

const MODIFY = ['update', 'patch'] as const;

/** What the fix takes away: the Node object itself ('') or its status. */
export type NodePart = '' | 'status';

const SPEC = {
  '': { resource: 'nodes', capability: 'write-node-objects', what: 'Node writes', objects: 'Node objects', never: 'Nodes', roleSuffix: 'own-node-writes' },
  status: {
    resource: 'nodes/status',
    capability: 'write-other-node-status',
    what: 'Node status writes',
    objects: 'Node status',
    never: 'node status',
    roleSuffix: 'own-node-status-writes',
  },
} as const;

function heldVerbs(ctx: AnalysisContext, h: Holder, part: NodePart): string[] {
  const other = otherNodeOf(ctx, h);
  return MODIFY.filter((verb) => ctx.engine.authorize({ user: h.user, resource: res(verb, '', 'nodes', { name: other, subresource: part }) }).allowed);
}

export function proposeNodeWrites(ctx: AnalysisContext, findings: readonly Finding[], observed?: ObservedRequests, part: NodePart = ''): Proposed {
  const spec = SPEC[part];
  const holders = holdersOfIssue(ctx, findings);
  const nodeLocal = holders.filter((h) => h.node !== undefined && ctx.isNodeLocalIdentity(h.subject));
  for (const h of holders) {
    if (nodeLocal.includes(h) || h.subject.kind !== 'ServiceAccount') continue;
    const seen = observed?.get(h.user.name);
    const writesNodes = seen?.some((a) => a.group === '' && a.resource === 'nodes' && a.subresource === part && (MODIFY as readonly string[]).includes(a.verb));
    if (seen && !writesNodes) continue;
    return {
      none:
        `${describeSubject(h.subject)} runs no pod on a node of its own (a controller), so constrained impersonation (associated-node) cannot limit its ${spec.what} to one node, ` +
        (seen
          ? `and the audit log shows it updating ${spec.objects}`
          : `and a controller's role grants the ${spec.what} it may use by design (${part === '' ? 'labels, taints' : 'conditions'}); an audit log (--audit) showing it never writes ${spec.never} would let the verbs go`) +
        `. Limit the rule with resourceNames to the nodes it manages, or remove update/patch on ${spec.resource} if it does not ${part === '' ? 'label or taint nodes' : 'write node conditions'}`,
    };
  }
  if (nodeLocal.length > 0 && !ctx.engine.features.constrainedImpersonation)
    return {
      none: `${list(nodeLocal.map((h) => describeSubject(h.subject)))} write${nodeLocal.length === 1 ? 's' : ''} ${spec.objects} from node-local pods, and constrained impersonation (ConstrainedImpersonation, beta and on by default from 1.36) is off on this cluster: no rule limits those writes to the pod's own node`,
    };
  const removal = proposeRemoveAccess(ctx, findings, {
    remove: { group: '', resources: [spec.resource], verbs: MODIFY },
    capabilities: [capability(spec.capability)],
    refused: (h) => heldVerbs(ctx, h, part).map((verb) => res(verb, '', 'nodes', { name: otherNodeOf(ctx, h), subresource: part })),
  });
  if ('none' in removal || nodeLocal.length === 0) return removal;
  // Own-node writes through constrained impersonation, with the verbs each holder had.
  const probes: FixProbe[] = [];
  for (const h of nodeLocal) {
    const verbs = heldVerbs(ctx, h, part);
    const base = slug(h.subject);
    const identity: ClusterRole = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: `${base}-node-impersonator` },
      rules: [{ apiGroups: ['authentication.k8s.io'], resources: ['nodes'], verbs: ['impersonate:associated-node'] }],
    };
    const actions: ClusterRole = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: `${base}-${spec.roleSuffix}` },
      rules: [{ apiGroups: [''], resources: [spec.resource], verbs: ['get', ...verbs].map((v) => `impersonate-on:associated-node:${v}`) }],
    };
    for (const role of [identity, actions]) {
      const binding: ClusterRoleBinding = {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: role.metadata.name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role.metadata.name },
        subjects: [rbacSubject(h.subject) as never],
      };
      removal.edits!.create(role, `${describeSubject(h.subject)} acts as the node its pod runs on (constrained impersonation)`);
      removal.edits!.create(binding, `binds ${describeRef({ kind: 'ClusterRole', name: role.metadata.name })} to ${describeSubject(h.subject)}`);
    }
    const who = describeSubject(h.subject);
    probes.push({
      expect: 'allowed',
      text: `${who} may impersonate the node its token is bound to (identity check)`,
      review: reviewOf(h.user, res('impersonate:associated-node', 'authentication.k8s.io', 'nodes', { name: '*' })),
    });
    for (const verb of verbs)
      probes.push({
        expect: 'allowed',
        text: `${who} may ${verb} its own ${part === '' ? 'Node' : 'Node status'} ${h.node} as that node (action check)`,
        review: reviewOf(h.user, res(`impersonate-on:associated-node:${verb}`, '', 'nodes', { name: h.node!, subresource: part })),
      });
  }
  return {
    ...removal,
    probes: [...removal.probes, ...probes],
    // End to end: the pod's token, impersonating its own node, may still write that Node.
    after: (fixed) =>
      nodeLocal.flatMap((h) =>
        heldVerbs(ctx, h, part)
          .filter(
            (verb) =>
              !fixed
                .engine()
                .authorizeImpersonated(h.user, { user: nodeUser(h.node!).name }, { resource: res(verb, '', 'nodes', { name: h.node!, subresource: part }) })
                .allowed,
          )
          .map(
            (verb) =>
              `${describeSubject(h.subject)} could no longer ${verb} its own ${part === '' ? 'Node' : 'Node status'} ${h.node} through associated-node impersonation`,
          ),
      ),
    checks: [
      ...removal.checks,
      `${list(nodeLocal.map((h) => describeSubject(h.subject)))} keep${nodeLocal.length === 1 ? 's' : ''} its ${spec.what} on its own node only, as that node (associated-node impersonation)`,
    ],
    summary: `${removal.summary}, and let ${list(nodeLocal.map((h) => describeSubject(h.subject)))} write only the ${part === '' ? 'Node' : 'Node status'} its pod runs on, by constrained impersonation`,
    leftover: [removal.leftover, impersonationLeftover(nodeLocal, part)].filter(Boolean).join('. '),
  };
}

/** What the component must change for the impersonated writes to be the ones it sends. */
function impersonationLeftover(nodeLocal: readonly Holder[], part: NodePart): string {
  const who = list(nodeLocal.map((h) => describeSubject(h.subject)));
  const writes = part === '' ? 'Node writes' : 'Node status writes';
  return (
    `before applying it, make sure ${who} sends ${nodeLocal.length === 1 ? 'its' : 'their'} ${writes} as the node its pod runs on: with the header Impersonate-User: system:node:<that node> ` +
    `(client-go: rest.Config Impersonate.UserName, the node name from the downward API's spec.nodeName). The same writes sent without that header, as the service account itself, are refused once the rule is removed`
  );
}
