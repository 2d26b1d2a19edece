import { PERSONAS } from './personas/registry';
import type { BuildInput } from './types';

// DNS-1123 label (namespaces) and subdomain (service accounts, driver names).
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Problems with a build input, each naming the field; empty when the input can be built. */
export function checkInput(input: BuildInput): string[] {
  const problems: string[] = [];
  const persona = PERSONAS[input.persona];
  if (!persona) return [`persona: unknown persona "${input.persona}"`];
  const id = input.identity;
  if (id.kind === 'ServiceAccount') {
    if (id.namespace === '') problems.push('identity.namespace: the service account’s namespace is required');
    else if (!DNS_LABEL.test(id.namespace) || id.namespace.length > 63) problems.push(`identity.namespace: "${id.namespace}" is not a valid namespace name`);
    if (id.name === '') problems.push('identity.name: the service account’s name is required');
    else if (!DNS_SUBDOMAIN.test(id.name) || id.name.length > 253) problems.push(`identity.name: "${id.name}" is not a valid service account name`);
  } else {
    if (id.name.trim() === '' || id.name !== id.name.trim()) problems.push(`identity.name: a ${id.kind} name must be non-empty without surrounding spaces`);
    else if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(id.name))
      problems.push(`identity.name: a ${id.kind} name may not contain line breaks or control characters`);
    if (id.kind === 'Group' && (id.name === 'system:masters' || id.name === 'system:authenticated' || id.name === 'system:unauthenticated')) {
      problems.push(`identity.name: refusing to bind group "${id.name}"`);
    }
    if (persona.serviceAccountOnly)
      problems.push(`identity: the ${persona.id} persona needs a ServiceAccount (node-bound tokens exist only for service accounts)`);
  }
  if (persona.needsDrivers && input.drivers.length === 0)
    problems.push(`drivers: the ${persona.id} persona needs at least one driver name (e.g. gpu.example.com)`);
  for (const d of input.drivers)
    if (!DNS_SUBDOMAIN.test(d) || d.length > 63) problems.push(`drivers: "${d}" is not a valid driver name (a DNS subdomain of at most 63 characters)`);
  if (new Set(input.drivers).size !== input.drivers.length) problems.push('drivers: a driver name is listed twice');
  if (input.namespace !== undefined && (!DNS_LABEL.test(input.namespace) || input.namespace.length > 63))
    problems.push(`namespace: "${input.namespace}" is not a valid namespace name`);
  if (persona.namespaced && id.kind !== 'ServiceAccount' && !input.namespace)
    problems.push(`namespace: the ${persona.id} persona needs a namespace for a ${id.kind}`);
  if (persona.id === 'custom' && (input.customRules ?? []).length === 0) problems.push('customRules: the custom persona needs at least one rule');
  if (persona.id !== 'custom' && (input.customRules ?? []).length > 0) problems.push(`customRules: only the custom persona takes rules`);
  return problems;
}

/** The namespace of the namespaced part: the explicit one, else the service account's. */
export function effectiveNamespace(input: BuildInput): string | undefined {
  return input.namespace ?? (input.identity.kind === 'ServiceAccount' ? input.identity.namespace : undefined);
}
