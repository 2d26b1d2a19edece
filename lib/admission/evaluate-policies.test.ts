import { describe, expect, it } from 'vitest';
import type { KubeObject, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '@/lib/k8s/types';
import { admissionEvaluator, type AdmissionLookups } from './evaluate-policies';
import type { AdmissionRequest } from './types';
import { claimRequest } from './__fixtures__/claim-request';

// Each part of ValidatingAdmissionPolicy evaluation, written from the admissionregistration.k8s.io/v1
// API reference (matching, paramRef, matchConditions, failurePolicy, validationActions).

type Spec = NonNullable<ValidatingAdmissionPolicy['spec']>;
const policy = (spec: Spec, name = 'p'): ValidatingAdmissionPolicy => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec,
});
const binding = (
  spec: Partial<NonNullable<ValidatingAdmissionPolicyBinding['spec']>> = {},
  name = 'b',
  policyName = 'p',
): ValidatingAdmissionPolicyBinding => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name },
  spec: { policyName, validationActions: ['Deny'], ...spec },
});
const claimRule = { apiGroups: ['resource.k8s.io'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['resourceclaims'] };
const noAdmin = { expression: '!object.spec.devices.requests.exists(r, has(r.exactly.adminAccess) && r.exactly.adminAccess)', message: 'no adminAccess' };

const params: KubeObject[] = [
  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'limits', namespace: 'tenant-a', labels: { kind: 'limit' } } },
  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'other', namespace: 'tenant-a', labels: { kind: 'limit' } } },
];
const lookups = (served: string[] = ['v1']): AdmissionLookups => ({
  namespaceLabels: (n) => ({ 'tenant-a': { role: 'tenant' }, platform: { role: 'platform' } })[n],
  namespaceObject: (n) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: n } }),
  servedVersions: () => served,
  params: (k) => (k.kind === 'ServiceAccount' ? { objects: params, namespaced: true } : { unknown: `${k.kind} not read` }),
});

const claim = (adminAccess = false, labels: Record<string, string> = {}, apiVersion = 'resource.k8s.io/v1') => ({
  apiVersion,
  kind: 'ResourceClaim',
  metadata: { name: 'c', namespace: 'tenant-a', labels },
  spec: {
    devices: {
      requests: [{ name: 'r', exactly: { deviceClassName: 'gpu', allocationMode: 'ExactCount', count: 1, ...(adminAccess ? { adminAccess } : {}) } }],
    },
  },
});
const request = claimRequest;
const outcome = (p: ValidatingAdmissionPolicy[], b: ValidatingAdmissionPolicyBinding[], r: AdmissionRequest, l = lookups()) =>
  admissionEvaluator(p, b, l).admit(r).outcome;

describe('validations and validationActions', () => {
  const p = policy({ matchConstraints: { resourceRules: [claimRule] }, validations: [noAdmin] });
  it('a false validation denies with its message in the API server’s words; true admits', () => {
    const out = admissionEvaluator([p], [binding()], lookups()).admit(request(claim(true)));
    expect(out).toMatchObject({ outcome: 'deny', message: "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: no adminAccess" });
    expect(outcome([p], [binding()], request(claim(false)))).toBe('admit');
  });
  it('only Deny refuses: Warn and Audit admit (Warn with a warning); an unbound policy does nothing', () => {
    const warn = admissionEvaluator([p], [binding({ validationActions: ['Warn', 'Audit'] })], lookups()).admit(request(claim(true)));
    expect(warn.outcome).toBe('admit');
    expect(warn.warnings).toHaveLength(1);
    expect(outcome([p], [], request(claim(true)))).toBe('admit');
  });
  it('messageExpression is evaluated; without message the failed expression is named', () => {
    const m = policy({
      matchConstraints: { resourceRules: [claimRule] },
      validations: [{ ...noAdmin, messageExpression: "'claim ' + object.metadata.name + ' asks for admin'" }],
    });
    expect(admissionEvaluator([m], [binding()], lookups()).admit(request(claim(true)))).toMatchObject({
      message: expect.stringMatching(/denied request: claim c asks for admin$/),
    });
    const bare = policy({ matchConstraints: { resourceRules: [claimRule] }, validations: [{ expression: 'false' }] });
    expect(admissionEvaluator([bare], [binding()], lookups()).admit(request(claim()))).toMatchObject({
      message: expect.stringMatching(/failed expression: false$/),
    });
  });
});

describe('matching', () => {
  const withRules = (rules: Spec['matchConstraints']) => policy({ matchConstraints: rules, validations: [{ expression: 'false' }] });
  const denies = (rules: Spec['matchConstraints'], r: AdmissionRequest, l = lookups()) => outcome([withRules(rules)], [binding()], r, l) === 'deny';
  it('resource rules: group, version, operation, resource and subresource forms, resourceNames, scope', () => {
    expect(denies({ resourceRules: [claimRule] }, request(claim()))).toBe(true);
    expect(denies({ resourceRules: [{ ...claimRule, operations: ['UPDATE'] }] }, request(claim()))).toBe(false);
    expect(denies({ resourceRules: [{ ...claimRule, apiGroups: ['*'], apiVersions: ['*'], operations: ['*'] }] }, request(claim()))).toBe(true);
    const status = request(claim(), { subresource: 'status', operation: 'UPDATE', oldObject: claim() });
    expect(denies({ resourceRules: [{ ...claimRule, resources: ['resourceclaims'] }] }, status)).toBe(false);
    expect(denies({ resourceRules: [{ ...claimRule, resources: ['resourceclaims/status'] }] }, status)).toBe(true);
    expect(denies({ resourceRules: [{ ...claimRule, resources: ['*/status'] }] }, status)).toBe(true);
    expect(denies({ resourceRules: [{ ...claimRule, resources: ['resourceclaims/*'] }] }, request(claim()))).toBe(true);
    expect(denies({ resourceRules: [{ ...claimRule, resources: ['*'] }] }, status)).toBe(false);
    expect(denies({ resourceRules: [{ ...claimRule, resourceNames: ['other'] }] }, request(claim()))).toBe(false);
    expect(denies({ resourceRules: [{ ...claimRule, scope: 'Cluster' }] }, request(claim()))).toBe(false);
    expect(denies({ resourceRules: [{ ...claimRule, scope: 'Namespaced' }] }, request(claim()))).toBe(true);
  });
  it('excludeResourceRules, namespaceSelector (cluster-scoped objects always pass), objectSelector (new or old labels)', () => {
    expect(denies({ resourceRules: [claimRule], excludeResourceRules: [{ ...claimRule, resourceNames: ['c'] }] }, request(claim()))).toBe(false);
    expect(denies({ resourceRules: [claimRule], namespaceSelector: { matchLabels: { role: 'tenant' } } }, request(claim()))).toBe(true);
    expect(denies({ resourceRules: [claimRule], namespaceSelector: { matchLabels: { role: 'tenant' } } }, request(claim(), { namespace: 'platform' }))).toBe(
      false,
    );
    const sliceRule = { ...claimRule, resources: ['resourceslices'] };
    expect(
      denies(
        { resourceRules: [sliceRule], namespaceSelector: { matchLabels: { role: 'tenant' } } },
        request({}, { resource: 'resourceslices', kind: 'ResourceSlice', namespace: '' }),
      ),
    ).toBe(true);
    const sel = { resourceRules: [claimRule], objectSelector: { matchLabels: { guarded: 'yes' } } };
    expect(denies(sel, request(claim()))).toBe(false);
    expect(denies(sel, request(claim(false, { guarded: 'yes' })))).toBe(true);
    expect(denies(sel, request(claim(), { operation: 'UPDATE', oldObject: claim(false, { guarded: 'yes' }) }))).toBe(true);
  });
  it('matchPolicy Equivalent reaches a rule on another served version, with the object converted to it; Exact does not', () => {
    const beta = { resourceRules: [{ ...claimRule, apiVersions: ['v1beta1'] }] };
    const flat = policy({
      matchConstraints: beta,
      validations: [{ expression: "object.apiVersion == 'resource.k8s.io/v1beta1' && object.spec.devices.requests[0].deviceClassName == 'gpu'" }],
    });
    expect(outcome([flat], [binding()], request(claim()), lookups(['v1']))).toBe('admit');
    // Served: the v1 request is converted to v1beta1 (flat requests) and passes only in that shape.
    expect(outcome([flat], [binding()], request(claim()), lookups(['v1', 'v1beta1']))).toBe('admit');
    expect(denies(beta, request(claim()), lookups(['v1']))).toBe(false);
    expect(denies(beta, request(claim()), lookups(['v1', 'v1beta1']))).toBe(true);
    expect(denies({ ...beta, matchPolicy: 'Exact' }, request(claim()), lookups(['v1', 'v1beta1']))).toBe(false);
  });
  it('the binding’s matchResources narrows the policy’s', () => {
    const p = withRules({ resourceRules: [claimRule] });
    expect(outcome([p], [binding({ matchResources: { namespaceSelector: { matchLabels: { role: 'platform' } } } })], request(claim()))).toBe('admit');
    expect(outcome([p], [binding({ matchResources: { namespaceSelector: { matchLabels: { role: 'tenant' } } } })], request(claim()))).toBe('deny');
  });
});

describe('matchConditions, variables and failurePolicy', () => {
  const base: Spec = { matchConstraints: { resourceRules: [claimRule] }, validations: [noAdmin] };
  it('a false matchCondition skips the policy; all true evaluates it', () => {
    const p = (expr: string) => policy({ ...base, matchConditions: [{ name: 'm', expression: expr }] });
    expect(outcome([p("request.userInfo.username == 'bob'")], [binding()], request(claim(true)))).toBe('admit');
    expect(outcome([p("'tenants' in request.userInfo.groups")], [binding()], request(claim(true)))).toBe('deny');
  });
  it('an error (a missing field) denies under failurePolicy Fail (the default) and is ignored under Ignore; a false condition wins over an error', () => {
    const err = { expression: 'object.spec.missing == 1' };
    expect(outcome([policy({ ...base, validations: [err] })], [binding()], request(claim()))).toBe('deny');
    expect(outcome([policy({ ...base, validations: [err], failurePolicy: 'Ignore' })], [binding()], request(claim()))).toBe('admit');
    const conds = [
      { name: 'e', expression: 'object.nope' },
      { name: 'f', expression: 'false' },
    ];
    expect(outcome([policy({ ...base, matchConditions: conds })], [binding()], request(claim(true)))).toBe('admit');
    expect(outcome([policy({ ...base, matchConditions: [conds[0]] })], [binding()], request(claim()))).toBe('deny');
  });
  it('variables are read through variables.<name>, each seeing the ones before it', () => {
    const p = policy({
      ...base,
      variables: [
        { name: 'reqs', expression: 'object.spec.devices.requests' },
        { name: 'admin', expression: 'variables.reqs.exists(r, has(r.exactly.adminAccess) && r.exactly.adminAccess)' },
      ],
      validations: [{ expression: '!variables.admin' }],
    });
    expect(outcome([p], [binding()], request(claim(true)))).toBe('deny');
    expect(outcome([p], [binding()], request(claim(false)))).toBe('admit');
  });
  it('namespaceObject and oldObject are bound', () => {
    const p = policy({ ...base, validations: [{ expression: "namespaceObject.metadata.name == 'tenant-a' && oldObject == null" }] });
    expect(outcome([p], [binding()], request(claim()))).toBe('admit');
  });
});

describe('unknown: never admit, never deny', () => {
  const base: Spec = { matchConstraints: { resourceRules: [claimRule] } };
  it('a function the evaluator lacks, the authorizer, a variable built on either', () => {
    expect(outcome([policy({ ...base, validations: [{ expression: "object.metadata.name.find('c') == 'c'" }] })], [binding()], request(claim()))).toBe(
      'unknown',
    );
    expect(
      outcome(
        [policy({ ...base, validations: [{ expression: "authorizer.group('').resource('pods').check('get').allowed()" }] })],
        [binding()],
        request(claim()),
      ),
    ).toBe('unknown');
    const viaVariable = policy({ ...base, variables: [{ name: 'x', expression: "isQuantity('1')" }], validations: [{ expression: 'variables.x' }] });
    expect(outcome([viaVariable], [binding()], request(claim()))).toBe('unknown');
  });
  it('a definite deny of another policy still decides; a Warn-only binding cannot refuse, so it admits', () => {
    const lacking = policy({ ...base, validations: [{ expression: "object.metadata.name.find('c') == 'c'" }] }, 'a');
    const refusing = policy({ ...base, validations: [{ expression: 'false' }] }, 'z');
    expect(outcome([lacking, refusing], [binding({}, 'a', 'a'), binding({}, 'z', 'z')], request(claim()))).toBe('deny');
    expect(outcome([lacking], [binding({ validationActions: ['Warn'] }, 'a', 'a')], request(claim()))).toBe('admit');
  });
});

describe('paramRef', () => {
  const base: Spec = {
    matchConstraints: { resourceRules: [claimRule] },
    paramKind: { apiVersion: 'v1', kind: 'ServiceAccount' },
    validations: [{ expression: "params.metadata.name == 'limits'" }],
  };
  it('by name in the request’s namespace, by selector (every param must pass)', () => {
    expect(outcome([policy(base)], [binding({ paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } })], request(claim()))).toBe('admit');
    expect(outcome([policy(base)], [binding({ paramRef: { name: 'other', parameterNotFoundAction: 'Deny' } })], request(claim()))).toBe('deny');
    expect(
      outcome([policy(base)], [binding({ paramRef: { selector: { matchLabels: { kind: 'limit' } }, parameterNotFoundAction: 'Deny' } })], request(claim())),
    ).toBe('deny');
  });
  it('no params found: Allow admits, Deny goes to failurePolicy; no paramRef is a configuration error', () => {
    const missing = { name: 'absent' };
    expect(outcome([policy(base)], [binding({ paramRef: { ...missing, parameterNotFoundAction: 'Allow' } })], request(claim()))).toBe('admit');
    expect(outcome([policy(base)], [binding({ paramRef: { ...missing, parameterNotFoundAction: 'Deny' } })], request(claim()))).toBe('deny');
    expect(
      outcome([policy({ ...base, failurePolicy: 'Ignore' })], [binding({ paramRef: { ...missing, parameterNotFoundAction: 'Deny' } })], request(claim())),
    ).toBe('admit');
    expect(outcome([policy(base)], [binding()], request(claim()))).toBe('deny');
  });
  it('params of a kind whose fields are not kept are unknown', () => {
    const cm = policy({ ...base, paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } });
    expect(outcome([cm], [binding({ paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } })], request(claim()))).toBe('unknown');
  });
});
