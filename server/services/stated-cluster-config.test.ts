import { describe, expect, it } from 'vitest';
import { buildReport } from '@/lib/report/build-report';
import { loadDemo } from '@/server/sources/demo-source';
import { encodeStatedConfig, statedClusterConfig } from './stated-cluster-config';

// `serve --node-restriction on --feature-gates ... --authorizers ...` reaches the dashboard's process as
// one environment variable; the dashboard's report then applies it as the CLI's would.

describe('stated cluster configuration for the dashboard', () => {
  it('round-trips through the environment and is applied to the report, marked as stated', async () => {
    const text = encodeStatedConfig({ authorizationModes: ['Node', 'RBAC'], nodeRestriction: true, featureGates: new Map([['DRADeviceTaintRules', true]]) });
    const stated = statedClusterConfig(text)!;
    expect(stated).toEqual({ authorizationModes: ['Node', 'RBAC'], nodeRestriction: true, featureGates: new Map([['DRADeviceTaintRules', true]]) });
    const report = buildReport(await loadDemo(), { clusterConfig: stated });
    expect(report.clusterConfig?.nodeRestriction).toEqual({ enabled: true, source: 'cli' });
    expect(report.clusterConfig?.featureGates.DRADeviceTaintRules).toEqual({ enabled: true, source: 'cli' });
    expect(statedClusterConfig('')).toBeUndefined();
  });
});
