import { isNamespacedResource } from './custom-rules';
import type { Persona } from './types';
import { commonDangerous, request } from './persona-helpers';

/** Rules the user writes; the builder still picks Role vs ClusterRole and validates them. */
export const custom: Persona = {
  id: 'custom',
  title: 'Custom',
  summary: 'Your own rules, one per line; namespaced resources go into a Role in the chosen namespace, the rest into a ClusterRole.',
  needsDrivers: false,
  serviceAccountOnly: false,
  namespaced: false,
  rules: (input) => {
    const rules = input.customRules ?? [];
    // resourceclaims/binding is checked at cluster scope: a Role could never grant it.
    const inNamespace = (r: (typeof rules)[number]) =>
      !!input.namespace && (r.rule.resources ?? []).every((res) => isNamespacedResource(res) && res !== 'resourceclaims/binding');
    return { cluster: rules.filter((r) => !inNamespace(r)), namespaced: rules.filter(inNamespace) };
  },
  intended: (ctx, input) =>
    (input.customRules ?? []).map((r) => {
      const [resource, sub = ''] = (r.rule.resources ?? [''])[0].split('/');
      const namespaced = isNamespacedResource(resource);
      const verb = r.rule.verbs[0];
      const name = r.rule.resourceNames?.[0] ?? (['create', 'list', 'watch', 'deletecollection'].includes(verb) ? '' : 'any');
      return request(`${verb} ${r.rule.resources?.[0]}${namespaced ? ` in ${ctx.namespace}` : ''}`, {
        verb,
        group: (r.rule.apiGroups ?? [''])[0],
        resource,
        subresource: sub,
        namespace: namespaced ? ctx.namespace : '',
        name,
      });
    }),
  dangerous: (ctx) => commonDangerous(ctx),
};
