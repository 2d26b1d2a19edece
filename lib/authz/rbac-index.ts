import { pushTo } from '@/lib/k8s/push-to';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { PolicyRule, RoleRef, Subject, SubjectRef } from '@/lib/k8s/types';
import { aggregateClusterRoles, type AggregatedRule } from './aggregate-cluster-roles';
import type { BindingRef, RoleRefResolved } from './types';
import { serviceAccountUsername } from './user-info';
import { compareStrings as cmp } from '@/lib/k8s/compare-strings';

export interface CompiledRole {
  ref: RoleRefResolved;
  key: string;
  rules: AggregatedRule[];
}

export interface IndexedBinding {
  ref: BindingRef;
  roleRef: RoleRef;
  /** undefined when the roleRef does not resolve (missing role, ClusterRoleBinding → Role, odd kind). */
  role: CompiledRole | undefined;
  /** Subjects that can ever match, normalised (ServiceAccount namespace filled in). */
  subjects: SubjectRef[];
}

export interface SubjectEntry {
  binding: IndexedBinding;
  subject: SubjectRef;
}

export interface SubjectIndex {
  /** Keyed by username: User subjects and ServiceAccount subjects (as `system:serviceaccount:ns:name`). */
  byUser: Map<string, SubjectEntry[]>;
  byGroup: Map<string, SubjectEntry[]>;
}

export interface RuleRef {
  role: CompiledRole;
  ruleIndex: number;
}

export interface RbacIndex {
  clusterRoles: Map<string, CompiledRole>;
  roles: Map<string, Map<string, CompiledRole>>;
  clusterBindings: SubjectIndex;
  namespaceBindings: Map<string, SubjectIndex>;
  /** Every binding, sorted (ClusterRoleBindings first, then RoleBindings by namespace/name). */
  bindings: IndexedBinding[];
  bindingsByRole: Map<string, IndexedBinding[]>;
  /** Resource rules by exact group and resource (or resource/subresource). */
  ruleBuckets: Map<string, RuleRef[]>;
  // Resource rules with a wildcard group, a wildcard resource or a "*" + "/sub" resource: checked for every question.
  wildcardRules: RuleRef[];
  nonResourceRules: RuleRef[];
  notes: string[];
}

export function roleKey(ref: RoleRefResolved): string {
  return ref.kind === 'ClusterRole' ? `ClusterRole/${ref.name}` : `Role/${ref.namespace}/${ref.name}`;
}

export function bucketKey(group: string, combinedResource: string): string {
  return `${group}\u0000${combinedResource}`;
}

export function buildRbacIndex(state: Pick<ClusterState, 'clusterRoles' | 'roles' | 'clusterRoleBindings' | 'roleBindings'>): RbacIndex {
  const notes: string[] = [];
  const aggregation = aggregateClusterRoles(state.clusterRoles);
  notes.push(...aggregation.notes);

  const clusterRoles = new Map<string, CompiledRole>();
  for (const [name, rules] of aggregation.rules) {
    const ref: RoleRefResolved = { kind: 'ClusterRole', name };
    clusterRoles.set(name, { ref, key: roleKey(ref), rules });
  }
  const roles = new Map<string, Map<string, CompiledRole>>();
  for (const role of state.roles) {
    const ns = role.metadata.namespace ?? '';
    let inNs = roles.get(ns);
    if (!inNs) roles.set(ns, (inNs = new Map()));
    const ref: RoleRefResolved = { kind: 'Role', name: role.metadata.name, namespace: ns };
    inNs.set(role.metadata.name, { ref, key: roleKey(ref), rules: (role.rules ?? []).map((rule) => ({ rule })) });
  }

  const bindings: IndexedBinding[] = [];
  const crbs = [...state.clusterRoleBindings].sort((a, b) => cmp(a.metadata.name, b.metadata.name));
  for (const crb of crbs) {
    const roleRef = crb.roleRef;
    // A ClusterRoleBinding only resolves ClusterRoles (a Role lookup at namespace "" finds nothing).
    const role = roleRef?.kind === 'ClusterRole' ? clusterRoles.get(roleRef.name) : undefined;
    bindings.push({
      ref: { kind: 'ClusterRoleBinding', name: crb.metadata.name },
      roleRef,
      role,
      subjects: normaliseSubjects(crb.subjects, ''),
    });
  }
  const rbs = [...state.roleBindings].sort((a, b) => cmp(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || cmp(a.metadata.name, b.metadata.name));
  for (const rb of rbs) {
    const ns = rb.metadata.namespace ?? '';
    const roleRef = rb.roleRef;
    let role: CompiledRole | undefined;
    if (roleRef?.kind === 'ClusterRole') role = clusterRoles.get(roleRef.name);
    else if (roleRef?.kind === 'Role') role = roles.get(ns)?.get(roleRef.name);
    bindings.push({
      ref: { kind: 'RoleBinding', name: rb.metadata.name, namespace: ns },
      roleRef,
      role,
      subjects: normaliseSubjects(rb.subjects, ns),
    });
  }

  const clusterBindings = emptySubjectIndex();
  const namespaceBindings = new Map<string, SubjectIndex>();
  const bindingsByRole = new Map<string, IndexedBinding[]>();
  for (const b of bindings) {
    if (b.role) pushTo(bindingsByRole, b.role.key, b);
    let target = clusterBindings;
    if (b.ref.kind === 'RoleBinding') {
      const ns = b.ref.namespace ?? '';
      let idx = namespaceBindings.get(ns);
      if (!idx) namespaceBindings.set(ns, (idx = emptySubjectIndex()));
      target = idx;
    }
    for (const subject of b.subjects) {
      const entry: SubjectEntry = { binding: b, subject };
      if (subject.kind === 'Group') pushTo(target.byGroup, subject.name, entry);
      else pushTo(target.byUser, subjectUsername(subject), entry);
    }
  }

  const ruleBuckets = new Map<string, RuleRef[]>();
  const wildcardRules: RuleRef[] = [];
  const nonResourceRules: RuleRef[] = [];
  const allRoles: CompiledRole[] = [...clusterRoles.values()];
  for (const inNs of roles.values()) allRoles.push(...inNs.values());
  for (const role of allRoles) {
    role.rules.forEach(({ rule }, ruleIndex) => {
      const ref: RuleRef = { role, ruleIndex };
      if (rule.nonResourceURLs && rule.nonResourceURLs.length > 0) nonResourceRules.push(ref);
      if (!rule.resources || rule.resources.length === 0 || !rule.apiGroups || rule.apiGroups.length === 0) return;
      if (isWildcardRule(rule)) {
        wildcardRules.push(ref);
        return;
      }
      const seen = new Set<string>();
      for (const g of rule.apiGroups) {
        for (const r of rule.resources) {
          const key = bucketKey(g, r);
          if (seen.has(key)) continue;
          seen.add(key);
          pushTo(ruleBuckets, key, ref);
        }
      }
    });
  }

  return { clusterRoles, roles, clusterBindings, namespaceBindings, bindings, bindingsByRole, ruleBuckets, wildcardRules, nonResourceRules, notes };
}

function isWildcardRule(rule: PolicyRule): boolean {
  if (rule.apiGroups!.includes('*')) return true;
  for (const r of rule.resources!) if (r === '*' || r.startsWith('*/')) return true;
  return false;
}

/**
 * Subjects exactly as the RBAC authorizer matches them: kinds other than User/Group/ServiceAccount
 * match nothing, and a ServiceAccount without a namespace takes the binding's (none in a
 * ClusterRoleBinding: it matches nothing).
 */
function normaliseSubjects(subjects: Subject[] | null | undefined, bindingNamespace: string): SubjectRef[] {
  const out: SubjectRef[] = [];
  for (const s of subjects ?? []) {
    if (s.kind === 'User' || s.kind === 'Group') out.push({ kind: s.kind, name: s.name });
    else if (s.kind === 'ServiceAccount') {
      const namespace = s.namespace || bindingNamespace;
      if (namespace === '') continue;
      out.push({ kind: 'ServiceAccount', name: s.name, namespace });
    }
  }
  return out;
}

export function subjectUsername(subject: SubjectRef): string {
  return subject.kind === 'ServiceAccount' ? serviceAccountUsername(subject.namespace ?? '', subject.name) : subject.name;
}

function emptySubjectIndex(): SubjectIndex {
  return { byUser: new Map(), byGroup: new Map() };
}
