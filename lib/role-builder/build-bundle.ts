import type { PolicyRule } from '@/lib/k8s/types';
import { checkInput, effectiveNamespace } from './check-input';
import { bindingSubject, describeIdentity, identityStem } from './identity';
import { nodeSlicePolicy } from './node-slice-policy';
import { PERSONAS } from './personas/registry';
import type { BuildInput, BundleObject, ReasonedRule, RoleBundle } from './types';

export const PERSONA_LABEL = 'dra-posture.io/persona';
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
const RBAC = 'rbac.authorization.k8s.io';
const RBAC_V1 = `${RBAC}/v1`;

export class BuildInputError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

const SYNTHETIC = ['resourceclaims/binding', 'resourceclaims/driver'];

/** Why some rules do nothing on older clusters, naming only what this bundle uses. */
function versionNotes(rules: readonly PolicyRule[]): string[] {
  const notes: string[] = [];
  const synthetic = SYNTHETIC.filter((sub) => rules.some((r) => (r.resources ?? []).includes(sub)));
  if (synthetic.length > 0) {
    notes.push(
      `Rules on ${synthetic.join(' and ')} are inert before Kubernetes 1.36: RBAC stores unknown subresources and verbs, but only ` +
        'DRAResourceClaimGranularStatusAuthorization (beta, on by default in 1.36) checks them. On 1.35 and earlier, update/patch on resourceclaims/status alone allows these writes; keep the rules so the upgrade does not break them.',
    );
  }
  if (rules.some((r) => r.verbs.some((v) => v.startsWith('impersonate:') || v.startsWith('impersonate-on:')))) {
    notes.push(
      'The impersonate:<mode> and impersonate-on:<mode>:<verb> verbs need constrained impersonation (KEP-5284): beta and on by default in 1.36, alpha and off by default in 1.35, absent before. ' +
        'Without it these rules grant nothing and the impersonated requests are refused.',
    );
  }
  return notes;
}

/** The bundle (YAML objects with reasons) for one persona and identity; pure and deterministic. */
export function buildBundle(input: BuildInput): RoleBundle {
  const problems = checkInput(input);
  if (problems.length > 0) throw new BuildInputError(problems);
  const persona = PERSONAS[input.persona];
  const { cluster, namespaced } = persona.rules(input);
  const stem = identityStem(input.identity);
  const name = `${stem}-${persona.id}`;
  const labels = { [MANAGED_BY_LABEL]: 'dra-posture', [PERSONA_LABEL]: persona.id };
  const subject = bindingSubject(input.identity);
  const who = describeIdentity(input.identity);
  const objects: BundleObject[] = [];

  if (input.identity.kind === 'ServiceAccount' && input.identity.create) {
    objects.push({
      reason: `the identity the ${persona.title.toLowerCase()} runs as (new)`,
      object: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: input.identity.name, namespace: input.identity.namespace, labels } },
    });
  }
  if (cluster.length > 0) {
    objects.push({
      reason: `rules that need cluster scope (cluster-scoped resources, every namespace, or checks made at cluster scope)`,
      object: { apiVersion: RBAC_V1, kind: 'ClusterRole', metadata: { name, labels }, rules: cluster.map((r) => r.rule) },
      rules: cluster,
    });
    objects.push({
      reason: `grants ClusterRole ${name} to ${who} in every namespace`,
      object: {
        apiVersion: RBAC_V1,
        kind: 'ClusterRoleBinding',
        metadata: { name, labels },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name },
        subjects: [subject],
      },
    });
  }
  const ns = effectiveNamespace(input);
  if (namespaced.length > 0 && ns) {
    objects.push({
      reason: `rules that one namespace (${ns}) is enough for: a Role, not a ClusterRole`,
      object: { apiVersion: RBAC_V1, kind: 'Role', metadata: { name, namespace: ns, labels }, rules: namespaced.map((r) => r.rule) },
      rules: namespaced,
    });
    objects.push({
      reason: `grants Role ${name} to ${who} in namespace ${ns} only`,
      object: {
        apiVersion: RBAC_V1,
        kind: 'RoleBinding',
        metadata: { name, namespace: ns, labels },
        roleRef: { apiGroup: RBAC, kind: 'Role', name },
        subjects: [subject],
      },
    });
  }
  if (persona.id === 'node-local-driver' && input.identity.kind === 'ServiceAccount') {
    objects.push(...nodeSlicePolicy(stem, input.identity.namespace, input.identity.name, labels));
  }

  const all: ReasonedRule[] = [...cluster, ...namespaced];
  return {
    input,
    persona: { id: persona.id, title: persona.title, summary: persona.summary },
    objects,
    versionNotes: versionNotes(all.map((r) => r.rule)),
    notes: [...(persona.notes ?? [])],
  };
}

/** The reasoned rules of a bundle by scope: cluster (ClusterRole) and per namespace (Role). */
export function bundleRules(bundle: RoleBundle): { cluster: ReasonedRule[]; namespaced: Map<string, ReasonedRule[]> } {
  const cluster: ReasonedRule[] = [];
  const namespaced = new Map<string, ReasonedRule[]>();
  for (const o of bundle.objects) {
    if (o.object.kind === 'ClusterRole') cluster.push(...(o.rules ?? []));
    if (o.object.kind === 'Role') {
      const ns = o.object.metadata.namespace ?? '';
      namespaced.set(ns, [...(namespaced.get(ns) ?? []), ...(o.rules ?? [])]);
    }
  }
  return { cluster, namespaced };
}
