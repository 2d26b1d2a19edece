import 'server-only';
import { z } from 'zod';
import { PERSONA_IDS } from '@/lib/role-builder/types';

const Identity = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('ServiceAccount'), namespace: z.string().max(63), name: z.string().max(253) }),
  z.strictObject({ kind: z.literal('User'), name: z.string().min(1).max(256) }),
  z.strictObject({ kind: z.literal('Group'), name: z.string().min(1).max(256) }),
]);

/** What the page sends to build a role: the wizard's answers; custom rules as text, one per line. */
export const BuildRequestSchema = z.strictObject({
  persona: z.enum(PERSONA_IDS),
  identity: Identity,
  drivers: z.array(z.string().max(63)).max(16).default([]),
  namespace: z.string().min(1).max(63).optional(),
  customRules: z.string().max(20_000).optional(),
});
export type BuildRequest = z.infer<typeof BuildRequestSchema>;

export const DecisionRequestSchema = z.strictObject({
  build: BuildRequestSchema,
  /** The digest of the YAML the approver reviewed: the decision is refused if the YAML has changed since. */
  yamlSha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be a lower-case hex SHA-256'),
  /** The fingerprint of the cluster the YAML was reviewed on (the build's sourceFingerprint): refused once the cluster changed. */
  sourceFingerprint: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'must be a lower-case hex SHA-256')
    .optional(),
  decision: z.enum(['approve', 'reject']),
  // Without sign-in the approver types a name; signed in, the server takes the authenticated user.
  approver: z.string().trim().min(1, 'the approver’s name is required').max(120).optional(),
  comment: z.string().max(2000).default(''),
});
