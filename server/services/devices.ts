import 'server-only';
import { analyseDeviceClassesDetailed, type DeviceClassAnalysis } from '@/lib/analysis/zeroing/device-classes';
import { strictSingleNode } from '@/lib/authz/dra-status';
import type { ResourceClaim } from '@/lib/k8s/types';
import { getAnalysis } from './get-report';

export interface DeviceClaimUse {
  namespace: string;
  name: string;
  tenant: boolean;
  allocated: boolean;
  /** Devices allocated to the requests that use this class. */
  devices: number;
  node: string | null;
  adminAccess: boolean;
}

export interface DeviceClassView extends DeviceClassAnalysis {
  /** usedByNamespaces that are tenant namespaces. */
  tenants: string[];
  claims: DeviceClaimUse[];
  /** Opaque config entries and zeroing-related annotations of the class, as shown evidence. */
  config: { driver: string; parameters: string }[];
  annotations: { key: string; value: string }[];
  findingIds: { id: string; check: string; severity: string }[];
}

const ZERO_HINT = /zero|reset|wipe|scrub/i;

// Scanning every claim for every class takes seconds on a large cluster: once per analysis.
const cache = new WeakMap<object, DeviceClassView[]>();

/** DeviceClasses with their zeroing state and evidence, the tenants sharing them and the claims using them. */
export async function getDeviceClassViews(): Promise<DeviceClassView[]> {
  const analysis = await getAnalysis();
  let views = cache.get(analysis.report);
  if (!views) {
    views = buildDeviceClassViews(analysis);
    cache.set(analysis.report, views);
  }
  return views;
}

function buildDeviceClassViews({ context, report, state }: Awaited<ReturnType<typeof getAnalysis>>): DeviceClassView[] {
  const classes = analyseDeviceClassesDetailed(context);
  const byName = new Map(state.deviceClasses.map((dc) => [dc.metadata.name, dc]));
  return classes.map((c) => {
    const dc = byName.get(c.name);
    const claims = state.resourceClaims.flatMap((claim) => claimUse(claim, c.name, context.isTenantNamespace.bind(context)));
    claims.sort((a, b) => cmp(a.namespace, b.namespace) || cmp(a.name, b.name));
    return {
      ...c,
      tenants: c.usedByNamespaces.filter((ns) => context.isTenantNamespace(ns)),
      claims,
      config: (dc?.spec?.config ?? []).flatMap((entry) =>
        entry.opaque ? [{ driver: entry.opaque.driver, parameters: JSON.stringify(entry.opaque.parameters ?? {}, null, 2) }] : [],
      ),
      annotations: Object.entries(dc?.metadata.annotations ?? {})
        .filter(([k, v]) => ZERO_HINT.test(k) || ZERO_HINT.test(v))
        .map(([key, value]) => ({ key, value })),
      findingIds: report.findings
        .filter((f) => f.objects.some((o) => o.kind === 'DeviceClass' && o.name === c.name))
        .map((f) => ({ id: f.id, check: f.check, severity: f.severity })),
    };
  });
}

function claimUse(claim: ResourceClaim, className: string, isTenant: (ns: string) => boolean): DeviceClaimUse[] {
  const requests = new Set<string>();
  let adminAccess = false;
  for (const r of claim.spec?.devices?.requests ?? []) {
    if (r.exactly?.deviceClassName === className) {
      requests.add(r.name);
      if (r.exactly.adminAccess) adminAccess = true;
    }
    for (const sub of r.firstAvailable ?? []) if (sub.deviceClassName === className) requests.add(`${r.name}/${sub.name}`);
  }
  if (requests.size === 0) return [];
  const alloc = claim.status?.allocation;
  const results = alloc?.devices?.results ?? [];
  const devices = results.filter((res) => requests.has(res.request)).length;
  const namespace = claim.metadata.namespace ?? '';
  return [
    {
      namespace,
      name: claim.metadata.name,
      tenant: isTenant(namespace),
      allocated: !!alloc,
      devices,
      node: alloc ? (strictSingleNode(alloc.nodeSelector) ?? null) : null,
      adminAccess,
    },
  ];
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
