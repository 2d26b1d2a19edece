import type { AnalysisContext } from '@/lib/analysis/context-types';
import { describeIndicator, indicatorsFor, type DeviceClassAnalysis } from '@/lib/analysis/zeroing/device-classes';
import type { Evidence } from '@/lib/analysis/types';
import { manifestYaml } from '@/lib/k8s/manifest-yaml';
import type { Check, FindingDraft } from './check-types';
import { list } from './check-helpers';
import { objectRef } from '@/lib/k8s/refs';

// DESIGN §4 ZERO001/ZERO002 (dra-facts §9): shared or accelerator DeviceClasses without any
// configured zeroing indicator. No real driver scrubs device memory on release, so the evidence is
// an organisation's convention, configured per driver in settings.zeroingIndicators.

function zeroingEvidence(ctx: AnalysisContext, dc: DeviceClassAnalysis): Evidence[] {
  const ev: Evidence[] = [{ type: 'field', object: objectRef('DeviceClass', dc.name), path: 'metadata.annotations', value: annotationsOf(ctx, dc.name) }];
  const { indicators } = indicatorsFor(dc.driver, ctx.settings);
  ev.push({
    type: 'note',
    text:
      dc.zeroing === 'unknown'
        ? `no zeroing indicator is configured for driver ${dc.driver ?? '(unknown)'} (settings.zeroingIndicators)`
        : `none of the configured zeroing indicators matched: ${indicators.map(describeIndicator).join('; ')}`,
  });
  return ev;
}

function annotationsOf(ctx: AnalysisContext, name: string): Record<string, string> {
  const dc = ctx.state.deviceClasses.find((d) => d.metadata.name === name);
  return { ...(dc?.metadata.annotations ?? {}) };
}

function remediation(ctx: AnalysisContext, dc: DeviceClassAnalysis): string {
  const { indicators } = indicatorsFor(dc.driver, ctx.settings);
  const annotation = indicators.find((i) => i.kind === 'deviceClassAnnotation' && i.key);
  const opaque = indicators.find((i) => i.kind === 'opaqueParameter' && i.path);
  const steps: string[] = [
    `Make sure devices of ${dc.name} are reset or scrubbed between tenants (for example a GPU reset, MIG reconfiguration or VFIO reassignment run by the platform), then record it on the DeviceClass so the posture shows it.`,
  ];
  if (annotation?.key) {
    steps.push(`Annotate the class:\n${manifestYaml({ metadata: { name: dc.name, annotations: { [annotation.key]: annotation.equals ?? 'true' } } })}`);
  } else if (opaque?.path) {
    steps.push(
      `Add a config entry for a driver name no real driver handles (real drivers reject unknown fields in their own config):\n` +
        manifestYaml({
          spec: {
            config: [
              {
                opaque: {
                  driver: opaque.driver ?? 'zeroing.platform.example.com',
                  parameters: { [opaque.path.replace(/^parameters\./, '')]: opaque.equals ?? 'true' },
                },
              },
            ],
          },
        }),
    );
  } else {
    steps.push('Configure a zeroing indicator for this driver in settings.zeroingIndicators.');
  }
  return steps.join('\n');
}

export const zero001: Check = {
  id: 'ZERO001',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const dc of ctx.deviceClasses) {
      if (dc.zeroing === 'configured') continue;
      const tenants = dc.usedByNamespaces.filter((ns) => ctx.isTenantNamespace(ns));
      if (tenants.length < 2) continue;
      out.push({
        subjects: [],
        objects: [objectRef('DeviceClass', dc.name), ...tenants.map((ns) => objectRef('Namespace', ns))],
        message: `DeviceClass ${dc.name}${dc.driver ? ` (driver ${dc.driver})` : ''} is used by tenant namespaces ${list(tenants)} and has no zeroing indicator (${dc.zeroing}): a device released by one tenant can be allocated to another with its memory intact.`,
        evidence: [...zeroingEvidence(ctx, dc), { type: 'note', text: `requested in tenant namespaces: ${tenants.join(', ')}` }],
        remediation: remediation(ctx, dc),
      });
    }
    return out;
  },
};

export const zero002: Check = {
  id: 'ZERO002',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const dc of ctx.deviceClasses) {
      if (dc.zeroing === 'configured' || dc.acceleratorReason === null) continue;
      out.push({
        subjects: [],
        objects: [objectRef('DeviceClass', dc.name)],
        message: `Accelerator DeviceClass ${dc.name}${dc.driver ? ` (driver ${dc.driver})` : ''} has no zeroing indicator (${dc.zeroing})${dc.usedByNamespaces.length > 0 ? `; it is requested in ${list(dc.usedByNamespaces)}` : ''}.`,
        evidence: [...zeroingEvidence(ctx, dc), { type: 'note', text: `accelerator: ${dc.acceleratorReason}` }],
        remediation: remediation(ctx, dc),
      });
    }
    return out;
  },
};

export const ZERO_CHECKS: Check[] = [zero001, zero002];
