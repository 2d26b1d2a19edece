import { z } from 'zod';
import { fieldRequirementsFromSar, parseFieldSelector } from './field-selector';
import type { AuthzRequest, Decision } from './types';

const str = z.string();
const optStr = z.string().optional();

export const SubjectAccessReviewSchema = z.looseObject({
  apiVersion: z.literal('authorization.k8s.io/v1', { message: 'apiVersion must be authorization.k8s.io/v1' }).optional(),
  kind: z.literal('SubjectAccessReview', { message: 'kind must be SubjectAccessReview' }).optional(),
  spec: z
    .looseObject({
      user: optStr,
      uid: optStr,
      groups: z.array(str).optional(),
      extra: z.record(str, z.array(str)).optional(),
      resourceAttributes: z
        .looseObject({
          namespace: optStr,
          verb: optStr,
          group: optStr,
          version: optStr,
          resource: optStr,
          subresource: optStr,
          name: optStr,
          fieldSelector: z
            .looseObject({
              rawSelector: optStr,
              requirements: z.array(z.looseObject({ key: str, operator: str, values: z.array(str).optional() })).optional(),
            })
            .optional(),
          labelSelector: z.unknown().optional(),
        })
        .optional(),
      nonResourceAttributes: z.looseObject({ path: optStr, verb: optStr }).optional(),
    })
    .refine((s) => !!s.resourceAttributes !== !!s.nonResourceAttributes, {
      message: 'exactly one of resourceAttributes and nonResourceAttributes must be set',
    })
    .refine((s) => !!(s.user || (s.groups && s.groups.length > 0)), { message: 'at least one of user or groups must be set' }),
});

export type SubjectAccessReview = z.infer<typeof SubjectAccessReviewSchema>;

/** The authorizer attributes kube-apiserver derives from a SubjectAccessReview spec (no groups added). */
export function requestFromSubjectAccessReview(sar: SubjectAccessReview): AuthzRequest {
  const spec = sar.spec;
  const user = { name: spec.user ?? '', groups: spec.groups ?? [], ...(spec.uid ? { uid: spec.uid } : {}), ...(spec.extra ? { extra: spec.extra } : {}) };
  if (spec.nonResourceAttributes) {
    return { user, nonResource: { verb: spec.nonResourceAttributes.verb ?? '', path: spec.nonResourceAttributes.path ?? '' } };
  }
  const ra = spec.resourceAttributes!;
  const fs = ra.fieldSelector;
  let fieldSelector;
  if (fs?.rawSelector && fs.requirements?.length) throw new Error('fieldSelector: rawSelector and requirements are mutually exclusive');
  if (fs?.rawSelector) fieldSelector = parseFieldSelector(fs.rawSelector);
  else if (fs?.requirements?.length) fieldSelector = fieldRequirementsFromSar(fs.requirements);
  return {
    user,
    resource: {
      verb: ra.verb ?? '',
      group: ra.group ?? '',
      resource: ra.resource ?? '',
      subresource: ra.subresource ?? '',
      namespace: ra.namespace ?? '',
      name: ra.name ?? '',
      ...(fieldSelector ? { fieldSelector } : {}),
    },
  };
}

/** The SAR as the API would return it: the same object with status.allowed and status.reason set. */
export function withSarStatus<T extends object>(sar: T, decision: Decision): T & { status: { allowed: boolean; reason: string } } {
  return { ...sar, status: { allowed: decision.allowed, reason: decision.reason } };
}

export function formatZodIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.length ? issue.path.join('.') : '(object)';
  return `${path}: ${issue.message}`;
}
