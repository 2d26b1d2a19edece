// ValidatingAdmissionPolicies and their bindings, normalised as normalize-object.ts describes.

import { normalizeLabelSelector, normalizeMeta } from './normalize-common';
import { copyUndeclared, enter, fields, leave, optObject, optObjectListCopy, optString, optStringArray, reqString, type RawObject } from './normalize-helpers';
import type { AdmissionResourceRule, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from './types';

// Admission policies are few and small, and their undeclared parts (variables, paramKind, paramRef,
// auditAnnotations) matter for "does a policy cover this", so those are copied as free-form JSON.
// These objects are always copied.
const VAP_SPEC_DECLARED = fields('failurePolicy', 'matchConstraints', 'matchConditions', 'validations');
const VAPB_SPEC_DECLARED = fields('policyName', 'validationActions', 'matchResources');
const MATCH_RESOURCES_DECLARED = fields('namespaceSelector', 'objectSelector');

// Copied into new arrays (optObjectListCopy) rather than normalised in place: admission policies
// never keep parsed parts, as said above.
function normalizeResourceRule(r: RawObject): AdmissionResourceRule {
  const rule: AdmissionResourceRule = {};
  const apiGroups = optStringArray(r.apiGroups, 'apiGroups');
  if (apiGroups !== undefined) rule.apiGroups = apiGroups;
  const apiVersions = optStringArray(r.apiVersions, 'apiVersions');
  if (apiVersions !== undefined) rule.apiVersions = apiVersions;
  const operations = optStringArray(r.operations, 'operations');
  if (operations !== undefined) rule.operations = operations;
  const resources = optStringArray(r.resources, 'resources');
  if (resources !== undefined) rule.resources = resources;
  const resourceNames = optStringArray(r.resourceNames, 'resourceNames');
  if (resourceNames !== undefined) rule.resourceNames = resourceNames;
  const scope = optString(r.scope, 'scope');
  if (scope !== undefined) rule.scope = scope;
  return rule;
}

function normalizeMatchCondition(e: RawObject): { name: string; expression: string } {
  const name = reqString(e.name, 'name');
  return { name, expression: reqString(e.expression, 'expression') };
}

function normalizeValidation(e: RawObject): { expression: string; message?: string; messageExpression?: string } {
  const entry: { expression: string; message?: string; messageExpression?: string } = { expression: reqString(e.expression, 'expression') };
  const message = optString(e.message, 'message');
  if (message !== undefined) entry.message = message;
  const messageExpression = optString(e.messageExpression, 'messageExpression');
  if (messageExpression !== undefined) entry.messageExpression = messageExpression;
  return entry;
}

export function normalizeValidatingAdmissionPolicy(o: RawObject, apiVersion: string): ValidatingAdmissionPolicy {
  const out: ValidatingAdmissionPolicy = { apiVersion, kind: 'ValidatingAdmissionPolicy', metadata: normalizeMeta(o.metadata) };
  const spec = optObject(o.spec, 'spec');
  if (spec === undefined) return out;
  enter('spec');
  const s: NonNullable<ValidatingAdmissionPolicy['spec']> = {};
  const failurePolicy = optString(spec.failurePolicy, 'failurePolicy');
  if (failurePolicy !== undefined) s.failurePolicy = failurePolicy;
  const constraints = optObject(spec.matchConstraints, 'matchConstraints');
  if (constraints !== undefined) {
    enter('matchConstraints');
    const c: NonNullable<NonNullable<ValidatingAdmissionPolicy['spec']>['matchConstraints']> = {};
    const resourceRules = optObjectListCopy(constraints.resourceRules, 'resourceRules', normalizeResourceRule);
    if (resourceRules !== undefined) c.resourceRules = resourceRules;
    const excludeResourceRules = optObjectListCopy(constraints.excludeResourceRules, 'excludeResourceRules', normalizeResourceRule);
    if (excludeResourceRules !== undefined) c.excludeResourceRules = excludeResourceRules;
    const matchPolicy = optString(constraints.matchPolicy, 'matchPolicy');
    if (matchPolicy !== undefined) c.matchPolicy = matchPolicy;
    const namespaceSelector = normalizeLabelSelector(constraints.namespaceSelector, 'namespaceSelector');
    if (namespaceSelector !== undefined) c.namespaceSelector = namespaceSelector;
    const objectSelector = normalizeLabelSelector(constraints.objectSelector, 'objectSelector');
    if (objectSelector !== undefined) c.objectSelector = objectSelector;
    s.matchConstraints = c;
    leave();
  }
  const matchConditions = optObjectListCopy(spec.matchConditions, 'matchConditions', normalizeMatchCondition);
  if (matchConditions !== undefined) s.matchConditions = matchConditions;
  const validations = optObjectListCopy(spec.validations, 'validations', normalizeValidation);
  if (validations !== undefined) s.validations = validations;
  copyUndeclared(spec, VAP_SPEC_DECLARED, s);
  out.spec = s;
  leave();
  return out;
}

export function normalizeValidatingAdmissionPolicyBinding(o: RawObject, apiVersion: string): ValidatingAdmissionPolicyBinding {
  const out: ValidatingAdmissionPolicyBinding = { apiVersion, kind: 'ValidatingAdmissionPolicyBinding', metadata: normalizeMeta(o.metadata) };
  const spec = optObject(o.spec, 'spec');
  if (spec === undefined) return out;
  enter('spec');
  const s: NonNullable<ValidatingAdmissionPolicyBinding['spec']> = {};
  const policyName = optString(spec.policyName, 'policyName');
  if (policyName !== undefined) s.policyName = policyName;
  const validationActions = optStringArray(spec.validationActions, 'validationActions');
  if (validationActions !== undefined) s.validationActions = validationActions;
  const matchResources = optObject(spec.matchResources, 'matchResources');
  if (matchResources !== undefined) {
    enter('matchResources');
    const m: NonNullable<NonNullable<ValidatingAdmissionPolicyBinding['spec']>['matchResources']> = {};
    const namespaceSelector = normalizeLabelSelector(matchResources.namespaceSelector, 'namespaceSelector');
    if (namespaceSelector !== undefined) m.namespaceSelector = namespaceSelector;
    const objectSelector = normalizeLabelSelector(matchResources.objectSelector, 'objectSelector');
    if (objectSelector !== undefined) m.objectSelector = objectSelector;
    copyUndeclared(matchResources, MATCH_RESOURCES_DECLARED, m);
    s.matchResources = m;
    leave();
  }
  copyUndeclared(spec, VAPB_SPEC_DECLARED, s);
  out.spec = s;
  leave();
  return out;
}
