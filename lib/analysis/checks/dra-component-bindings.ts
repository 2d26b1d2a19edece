import type { AnalysisContext } from '@/lib/analysis/context-types';
import { canonicalSubject, usernameOf } from '@/lib/analysis/context/identities';
import { oncePerAnalysis } from '@/lib/analysis/context/memo-per-analysis';
import { roleBindingSubjects, type CompiledRole, type SubjectEntry } from '@/lib/authz/rbac-index';
import { parseServiceAccountUsername } from '@/lib/authz/user-info';
import { refKey, toObjectRef } from '@/lib/k8s/refs';
import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';

/**
 * The bindings of `role` (in the index's order) with the DRA component service accounts each names
 * (canonical, in the binding's order), admin-equivalents left out (DRA001's); bindings naming none are
 * left out. What DRA009 read from the role's built bindings (boundRoles: a canonical subject and a key
 * string for each of ~100,000 binding subjects on the diverse bench cluster): a role no binding names
 * a component in is answered from componentIndex, and the others' subjects are tested by name.
 */
export function draComponentBindings(ctx: AnalysisContext, role: CompiledRole): { ref: ObjectRef; subjects: SubjectRef[] }[] {
  const out: { ref: ObjectRef; subjects: SubjectRef[] }[] = [];
  const { roleKeys, isComponent } = componentIndex(ctx);
  if (roleKeys && !roleKeys.has(role.key)) return out;
  for (const b of ctx.engine.rbac.bindingsByRole.get(role.key) ?? []) {
    let components: SubjectRef[] | undefined;
    for (const s of b.subjects) {
      if (s.kind === 'ServiceAccount') {
        if (!isComponent(s.namespace ?? '', s.name)) continue;
      } else if (s.kind === 'User') {
        // Undefined, with nothing made, for a name without the service-account prefix.
        const sa = parseServiceAccountUsername(s.name);
        if (!sa || !isComponent(sa.namespace, sa.name)) continue;
      } else continue;
      const c = canonicalSubject(s);
      if (!ctx.isAdminEquivalent(c)) (components ??= []).push(c);
    }
    if (components) out.push({ ref: toObjectRef(b.ref), subjects: components });
  }
  return out;
}

interface ComponentIndex {
  /** Keys of the roles some binding names a DRA component in; undefined: every role is read. */
  roleKeys?: Set<string>;
  /** ctx.isDraComponent of the service account. */
  isComponent(namespace: string, name: string): boolean;
}

/**
 * The roles some binding names a DRA component in, read from the engine's subject indexes (by
 * username, as they file ServiceAccount and User subjects) for the ~360 components rather than from
 * every binding of ~13,000 roles on the diverse bench cluster; and a test that asks the context only
 * about accounts of a namespace with a component. Both need the context's component list to name each
 * component exactly (each key it was parsed from gives it back, as every valid name does): otherwise
 * every role is read and every account asked.
 */
const componentIndex = oncePerAnalysis((ctx): ComponentIndex => {
  const components = ctx.draComponents;
  const isDraAccount = (namespace: string, name: string) => ctx.isDraComponent({ kind: 'ServiceAccount', namespace, name });
  const keys = new Set(components.map(refKey));
  if (keys.size !== components.length || components.some((c) => !ctx.isDraComponent(c))) return { isComponent: isDraAccount };
  const rbac = ctx.engine.rbac;
  const inRoleBindings = roleBindingSubjects(rbac);
  const roleKeys = new Set<string>();
  const add = (entries: readonly SubjectEntry[] | undefined) => {
    for (const e of entries ?? []) if (e.binding.role) roleKeys.add(e.binding.role.key);
  };
  for (const c of components) {
    const username = usernameOf(c);
    add(rbac.clusterBindings.byUser.get(username));
    for (const entries of inRoleBindings.byUser.get(username) ?? []) add(entries);
  }
  const namespaces = new Set(components.map((c) => c.namespace ?? ''));
  return { roleKeys, isComponent: (namespace, name) => namespaces.has(namespace) && isDraAccount(namespace, name) };
});
