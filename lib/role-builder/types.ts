import type { KubeObject } from '@/lib/k8s/types';
import type { BuildInput, PersonaId, ReasonedRule } from '@/lib/personas/types';

// The persona vocabulary lives in lib/personas (the checks' remediations use it too).
export * from '@/lib/personas/types';

export interface BundleObject {
  object: KubeObject & Record<string, unknown>;
  /** One line: why this object is in the bundle. */
  reason: string;
  /** For Role/ClusterRole: the reasoned rules, index-aligned with object.rules. */
  rules?: ReasonedRule[];
}

export interface RoleBundle {
  input: BuildInput;
  persona: { id: PersonaId; title: string; summary: string };
  objects: BundleObject[];
  versionNotes: string[];
  notes: string[];
}
