import { aggregateClusterRoles } from '@/lib/authz/aggregate-cluster-roles';
import { serviceAccountUsername } from '@/lib/authz/user-info';
import type { RoleBinding, SubjectRef } from '@/lib/k8s/types';
import type { PermissionInputs } from './permission-inputs';

// Which subjects' DRA permissions can differ between two clusters. Drift asks each subject as itself
// with no groups, so RBAC answers it from the bindings naming it (a service account also under its
// username, `system:serviceaccount:ns:name`, which a User subject may spell) and their roles; the
// Node authorizer never answers such a user. So a subject whose bindings and roles are the same on
// both sides, under the same API server flags and version, has the same permission lines on both,
// and only the others need asking: a week's drift of a 40,000-identity cluster asks a handful.

export interface ChangedGrantees {
  /** The authorizer chain or version changed: every subject may answer differently. */
  all: boolean;
  /** Usernames (service accounts as `system:serviceaccount:ns:name`) named by a changed binding. */
  users: Set<string>;
  groups: Set<string>;
}

type Binding = PermissionInputs['clusterRoleBindings'][number] | RoleBinding;

const roleKey = (kind: string, namespace: string, name: string) => (kind === 'Role' ? `Role ${namespace}/${name}` : `ClusterRole ${name}`);

// What RBAC reads of a role or binding, as text: a role's effective rules (a ClusterRole's after
// aggregation, which another role's change can change), a binding's roleRef and subjects. Labels,
// annotations and the like cannot change an answer.
const opt = (x: string | undefined) => x ?? '\u0001';

// Per inputs object: a snapshot's digest kept in memory is compared again with the next one taken.
const roleTextsKept = new WeakMap<PermissionInputs, Map<string, string>>();
const bindingTextsKept = new WeakMap<PermissionInputs, Map<string, { binding: Binding; text: string }>>();

function roleTexts(inputs: PermissionInputs): Map<string, string> {
  let out = roleTextsKept.get(inputs);
  if (out) return out;
  out = new Map<string, string>();
  roleTextsKept.set(inputs, out);
  const effective = aggregateClusterRoles(inputs.clusterRoles).rules;
  for (const r of inputs.roles) out.set(roleKey('Role', r.metadata.namespace ?? '', r.metadata.name), JSON.stringify(r.rules ?? null));
  for (const r of inputs.clusterRoles) out.set(roleKey('ClusterRole', '', r.metadata.name), JSON.stringify(effective.get(r.metadata.name) ?? null));
  return out;
}

function bindingText(b: Binding): string {
  let text = `${opt(b.roleRef.apiGroup)}\u0000${b.roleRef.kind}\u0000${b.roleRef.name}`;
  for (const s of b.subjects ?? []) text += `\u0000${s.kind}\u0000${opt(s.apiGroup)}\u0000${opt(s.namespace)}\u0000${s.name}`;
  return text;
}

function bindingTexts(inputs: PermissionInputs): Map<string, { binding: Binding; text: string }> {
  let out = bindingTextsKept.get(inputs);
  if (out) return out;
  out = new Map<string, { binding: Binding; text: string }>();
  bindingTextsKept.set(inputs, out);
  for (const b of inputs.clusterRoleBindings) out.set(`ClusterRoleBinding ${b.metadata.name}`, { binding: b, text: bindingText(b) });
  for (const b of inputs.roleBindings) out.set(`RoleBinding ${b.metadata.namespace ?? ''}/${b.metadata.name}`, { binding: b, text: bindingText(b) });
  return out;
}

/** Keys whose text differs, including keys on one side only. */
function changedKeys(a: Map<string, string>, b: Map<string, string>): Set<string> {
  const out = new Set<string>();
  for (const [k, v] of a) if (b.get(k) !== v) out.add(k);
  for (const k of b.keys()) if (!a.has(k)) out.add(k);
  return out;
}

/** Reads what changedGrantees compares of one side ahead of time (a snapshot just taken is compared next). */
export function prepareChangedGrantees(inputs: PermissionInputs): void {
  roleTexts(inputs);
  bindingTexts(inputs);
}

export function changedGrantees(a: PermissionInputs, b: PermissionInputs): ChangedGrantees {
  const out: ChangedGrantees = { all: false, users: new Set(), groups: new Set() };
  if (a.kubernetesVersion !== b.kubernetesVersion || JSON.stringify(a.apiServerPods) !== JSON.stringify(b.apiServerPods)) {
    out.all = true;
    return out;
  }
  const roles = changedKeys(roleTexts(a), roleTexts(b));
  const before = bindingTexts(a);
  const after = bindingTexts(b);
  const mark = (binding: Binding) => {
    const namespace = binding.metadata.namespace ?? '';
    for (const s of binding.subjects ?? []) {
      if (s.kind === 'Group') out.groups.add(s.name);
      else if (s.kind === 'User') out.users.add(s.name);
      else if (s.kind === 'ServiceAccount') {
        // Both spellings of a subject without a namespace: the binding's, and none.
        out.users.add(serviceAccountUsername(s.namespace || namespace, s.name));
        out.users.add(serviceAccountUsername(s.namespace ?? '', s.name));
      }
    }
  };
  const roleOf = (b: Binding) => roleKey(b.roleRef.kind, b.metadata.namespace ?? '', b.roleRef.name);
  for (const [key, p] of before) {
    const q = after.get(key);
    if (q?.text === p.text && !roles.has(roleOf(p.binding))) continue;
    mark(p.binding);
    if (q) mark(q.binding);
  }
  for (const [key, q] of after) if (!before.has(key)) mark(q.binding);
  return out;
}

/** Whether the binding names a changed grantee (an authorizer for those grantees needs no other binding). */
export function bindsChangedGrantee(changed: ChangedGrantees, binding: Binding): boolean {
  if (changed.all) return true;
  const namespace = binding.metadata.namespace ?? '';
  return (binding.subjects ?? []).some((s) =>
    s.kind === 'Group'
      ? changed.groups.has(s.name)
      : s.kind === 'User'
        ? changed.users.has(s.name)
        : s.kind === 'ServiceAccount' &&
          (changed.users.has(serviceAccountUsername(s.namespace || namespace, s.name)) || changed.users.has(serviceAccountUsername(s.namespace ?? '', s.name))),
  );
}

/** The inputs with only the bindings that name a changed grantee: the same answers for those grantees, on a much smaller index. */
export function inputsForChangedGrantees(changed: ChangedGrantees, inputs: PermissionInputs): PermissionInputs {
  if (changed.all) return inputs;
  return {
    ...inputs,
    roleBindings: inputs.roleBindings.filter((b) => bindsChangedGrantee(changed, b)),
    clusterRoleBindings: inputs.clusterRoleBindings.filter((b) => bindsChangedGrantee(changed, b)),
  };
}

/** Whether the subject, asked as itself, may answer differently on the two sides. */
export function isChangedGrantee(changed: ChangedGrantees, s: SubjectRef): boolean {
  if (changed.all) return true;
  if (s.kind === 'Group') return changed.groups.has(s.name);
  return changed.users.has(s.kind === 'ServiceAccount' ? serviceAccountUsername(s.namespace ?? '', s.name) : s.name);
}
