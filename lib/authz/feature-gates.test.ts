import { describe, expect, it } from 'vitest';
import { FeatureGateSyntaxError, gateDefault, parseFeatureGates } from './feature-gates';
import { featuresForVersion } from './features';

// Defaults per release from kubernetes pkg/features (versioned specs) and reference/dra-facts.md §11.

describe('feature gate defaults per version', () => {
  it.each([
    // version, ConstrainedImpersonation, GranularStatusAuthorization, DRAAdminAccess, DRADeviceTaints, DRADeviceTaintRules
    ['v1.34.2', false, false, true, false, false],
    ['v1.35.2', false, false, true, false, false],
    ['v1.36.3', true, true, true, true, false],
    ['v1.37.0-alpha.1+abc', true, true, true, true, true],
    // Unknown: 1.36 (DESIGN §3).
    [undefined, true, true, true, true, false],
    ['not-a-version', true, true, true, true, false],
  ] as const)('%s', (version, ci, granular, admin, taints, taintRules) => {
    expect(gateDefault('ConstrainedImpersonation', version)).toBe(ci);
    expect(gateDefault('DRAResourceClaimGranularStatusAuthorization', version)).toBe(granular);
    expect(gateDefault('DRAAdminAccess', version)).toBe(admin);
    expect(gateDefault('DRADeviceTaints', version)).toBe(taints);
    expect(gateDefault('DRADeviceTaintRules', version)).toBe(taintRules);
  });

  it('DRAAdminAccess is alpha (off) in 1.32-1.33, and absent before', () => {
    expect(gateDefault('DRAAdminAccess', '1.33')).toBe(false);
    expect(gateDefault('DRAAdminAccess', '1.31')).toBe(false);
  });

  it('the authorizer model reads the same table', () => {
    expect(featuresForVersion('v1.35.2')).toEqual({ constrainedImpersonation: false, granularStatusAuthorization: false });
    expect(featuresForVersion('v1.36.0')).toEqual({ constrainedImpersonation: true, granularStatusAuthorization: true });
  });
});

describe('parseFeatureGates (kube-apiserver --feature-gates)', () => {
  it('reads several flags, spaces around names and values, Go booleans; a later value wins', () => {
    const gates = parseFeatureGates(['ConstrainedImpersonation=true, DRADeviceTaints = false', 'DRAAdminAccess=1,ConstrainedImpersonation=F', 'A=T,,B=0']);
    expect([...gates]).toEqual([
      ['ConstrainedImpersonation', false],
      ['DRADeviceTaints', false],
      ['DRAAdminAccess', true],
      ['A', true],
      ['B', false],
    ]);
  });

  it.each([
    ['ConstrainedImpersonation', 'missing bool value for ConstrainedImpersonation'],
    ['ConstrainedImpersonation=yes', 'invalid value of ConstrainedImpersonation: yes'],
    ['A=true, ,B=false', 'missing bool value for '],
    ['=true', 'missing gate name'],
  ])('%j is refused: %s', (value, message) => {
    expect(() => parseFeatureGates([value])).toThrow(FeatureGateSyntaxError);
    expect(() => parseFeatureGates([value])).toThrow(message);
  });
});
