import { describe, expect, it } from 'vitest';

import { compileLabelSelector, isValidLabelKey, isValidLabelValue, matchesLabelSelector } from './label-selector';
import type { LabelSelector } from './types';

const gpuTenant = { app: 'trainer', tier: 'gpu', 'dra-posture.io/role': 'tenant' };

describe('matchesLabelSelector', () => {
  const cases: [string, LabelSelector | null | undefined, Record<string, string> | undefined, boolean][] = [
    ['nil selector matches nothing', undefined, gpuTenant, false],
    ['null selector matches nothing', null, gpuTenant, false],
    ['empty selector matches everything', {}, gpuTenant, true],
    ['empty selector matches an object without labels', {}, undefined, true],
    ['empty matchLabels and matchExpressions match everything', { matchLabels: {}, matchExpressions: [] }, { a: 'b' }, true],
    ['matchLabels equal', { matchLabels: { app: 'trainer' } }, gpuTenant, true],
    ['matchLabels different value', { matchLabels: { app: 'server' } }, gpuTenant, false],
    ['matchLabels missing key', { matchLabels: { team: 'a' } }, gpuTenant, false],
    ['matchLabels is case-sensitive', { matchLabels: { app: 'Trainer' } }, gpuTenant, false],
    ['matchLabels with a prefixed key', { matchLabels: { 'dra-posture.io/role': 'tenant' } }, gpuTenant, true],
    ['matchLabels all must hold', { matchLabels: { app: 'trainer', tier: 'cpu' } }, gpuTenant, false],
    ['In matches', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['cpu', 'gpu'] }] }, gpuTenant, true],
    ['In value not listed', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['cpu'] }] }, gpuTenant, false],
    ['In needs the key', { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }, gpuTenant, false],
    ['NotIn value not listed', { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['cpu'] }] }, gpuTenant, true],
    ['NotIn value listed', { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['gpu'] }] }, gpuTenant, false],
    ['NotIn matches an object without the key', { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, gpuTenant, true],
    ['NotIn matches an object with no labels at all', { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, undefined, true],
    ['Exists with the key', { matchExpressions: [{ key: 'app', operator: 'Exists' }] }, gpuTenant, true],
    ['Exists with an empty value', { matchExpressions: [{ key: 'x', operator: 'Exists' }] }, { x: '' }, true],
    ['Exists without the key', { matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, gpuTenant, false],
    ['DoesNotExist without the key', { matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, gpuTenant, true],
    ['DoesNotExist with the key', { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }, gpuTenant, false],
    [
      'matchLabels and matchExpressions are ANDed (both hold)',
      { matchLabels: { app: 'trainer' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['gpu'] }] },
      gpuTenant,
      true,
    ],
    [
      'matchLabels and matchExpressions are ANDed (one fails)',
      { matchLabels: { app: 'trainer' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['gpu'] }] },
      gpuTenant,
      false,
    ],
    ['unknown operator matches nothing', { matchExpressions: [{ key: 'app', operator: 'Equals', values: ['trainer'] }] }, gpuTenant, false],
    ['Gt is not a LabelSelector operator', { matchExpressions: [{ key: 'n', operator: 'Gt', values: ['1'] }] }, { n: '5' }, false],
    ['operators are case-sensitive', { matchExpressions: [{ key: 'app', operator: 'in', values: ['trainer'] }] }, gpuTenant, false],
    ['In without values is invalid', { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] }, gpuTenant, false],
    ['NotIn without values is invalid', { matchExpressions: [{ key: 'app', operator: 'NotIn' }] }, gpuTenant, false],
    ['Exists with values is invalid', { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['trainer'] }] }, gpuTenant, false],
    ['DoesNotExist with values is invalid', { matchExpressions: [{ key: 'zone', operator: 'DoesNotExist', values: ['a'] }] }, gpuTenant, false],
    [
      'an invalid requirement poisons the whole selector',
      { matchLabels: { app: 'trainer' }, matchExpressions: [{ key: 'bad key', operator: 'Exists' }] },
      gpuTenant,
      false,
    ],
    ['an invalid matchLabels key matches nothing', { matchLabels: { 'no spaces': 'x' } }, { 'no spaces': 'x' }, false],
    ['an invalid matchLabels value matches nothing', { matchLabels: { app: 'has space' } }, { app: 'has space' }, false],
    ['inherited properties are not labels', { matchExpressions: [{ key: 'constructor', operator: 'Exists' }] }, {}, false],
  ];
  it.each(cases)('%s', (_name, selector, labels, expected) => {
    expect(matchesLabelSelector(selector, labels)).toBe(expected);
  });

  it('a compiled selector gives the same answers on many objects', () => {
    const match = compileLabelSelector({ matchLabels: { tier: 'gpu' }, matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] });
    const objects: (Record<string, string> | undefined)[] = [
      { tier: 'gpu', app: 'trainer' },
      { tier: 'gpu', app: 'web' },
      { tier: 'gpu' },
      { tier: 'cpu' },
      undefined,
    ];
    expect(objects.map((labels) => match(labels))).toEqual([true, false, true, false, false]);
  });
});

describe('label key and value syntax', () => {
  it.each([
    ['app', true],
    ['app.kubernetes.io/name', true],
    ['resource.kubernetes.io/admin-access', true],
    ['a_b-c.d', true],
    ['', false],
    ['-app', false],
    ['app-', false],
    ['Example.com/app', false],
    ['example.com/', false],
    ['/app', false],
    ['a'.repeat(63), true],
    ['a'.repeat(64), false],
  ])('key %j valid=%s', (key, valid) => {
    expect(isValidLabelKey(key)).toBe(valid);
  });

  it.each([
    ['', true],
    ['true', true],
    ['v1.36.3', true],
    ['has space', false],
    ['trailing-', false],
    ['x'.repeat(64), false],
  ])('value %j valid=%s', (value, valid) => {
    expect(isValidLabelValue(value)).toBe(valid);
  });
});
