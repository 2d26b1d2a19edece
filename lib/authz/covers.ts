import type { PolicyRule } from '@/lib/k8s/types';

/** One indivisible permission: a resource atom or a non-resource URL atom. */
type Atom = { kind: 'resource'; verb: string; group: string; resource: string; name?: string } | { kind: 'url'; verb: string; url: string };

/**
 * component-helpers' Covers(owner, servant): every atom of every servant rule must be covered by
 * one owner rule. Enumerations never cover "*"; resource-only owners never cover URL atoms.
 * Returns the servant rules (by index) that are not fully covered.
 */
export function uncoveredRules(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): number[] {
  const missing: number[] = [];
  servant.forEach((rule, i) => {
    for (const atom of breakdownRule(rule)) {
      if (!owner.some((o) => ruleCoversAtom(o, atom))) {
        missing.push(i);
        return;
      }
    }
  });
  return missing;
}

export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): boolean {
  return uncoveredRules(owner, servant).length === 0;
}

function breakdownRule(rule: PolicyRule): Atom[] {
  const atoms: Atom[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if (rule.resourceNames && rule.resourceNames.length > 0) {
          for (const name of rule.resourceNames) atoms.push({ kind: 'resource', verb, group, resource, name });
        } else atoms.push({ kind: 'resource', verb, group, resource });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) atoms.push({ kind: 'url', verb, url });
  return atoms;
}

function has(list: readonly string[] | undefined | null, value: string): boolean {
  return !!list && (list.includes('*') || list.includes(value));
}

function ruleCoversAtom(owner: PolicyRule, atom: Atom): boolean {
  if (!has(owner.verbs, atom.verb)) return false;
  if (atom.kind === 'url') {
    for (const u of owner.nonResourceURLs ?? []) {
      if (u === '*' || u === atom.url) return true;
      if (u.endsWith('*') && atom.url.startsWith(u.replace(/\*+$/, ''))) return true;
    }
    return false;
  }
  if (!has(owner.apiGroups, atom.group)) return false;
  if (!resourceCovers(owner.resources ?? [], atom.resource)) return false;
  const names = owner.resourceNames ?? [];
  if (names.length === 0) return true;
  return atom.name !== undefined && names.includes(atom.name);
}

function resourceCovers(ownerResources: readonly string[], resource: string): boolean {
  for (const r of ownerResources) {
    if (r === '*' || r === resource) return true;
    // "*/sub" covers "<res>/sub"
    if (r.startsWith('*/')) {
      const slash = resource.indexOf('/');
      if (slash >= 0 && resource.slice(slash + 1) === r.slice(2)) return true;
    }
  }
  return false;
}
