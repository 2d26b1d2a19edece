import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { AnalysisSettings, ZeroingIndicator } from '@/lib/analysis/settings';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { DeviceClass, ResourceClaimSpec } from '@/lib/k8s/types';
import type { DeviceClassReport } from '@/lib/analysis/types';
import { compareStrings } from '@/lib/k8s/refs';
import { acceleratorReason, memoryDevicesByDriver } from './accelerators';
import { claimRequestsByNamespace } from '@/lib/analysis/context/claim-requests';
import { pushTo } from '@/lib/k8s/push-to';

// DESIGN §4 zeroing indicators / dra-facts §9: no real driver exposes "zero on release", so the
// evidence is configurable per driver (settings.zeroingIndicators; "*" applies to every driver).
// A class is `configured` when an indicator matches, `missing` when indicators apply to it but none
// matches, `unknown` when no indicator applies at all.

export interface DeviceClassAnalysis extends DeviceClassReport {
  /** The indicators that matched (for evidence), as short descriptions. */
  matchedIndicators: string[];
  /** Where the driver name came from. */
  driverSource: 'selector' | 'allocation' | 'slice' | null;
  /** Why the class counts as an accelerator for zeroing (ZERO002), or null (see accelerators.ts). */
  acceleratorReason: string | null;
}

/** The report's view of the context's DeviceClass analysis. */
export function deviceClassReports(ctx: AnalysisContext): DeviceClassReport[] {
  return ctx.deviceClasses.map(({ name, driver, zeroing, usedByNamespaces }) => ({ name, driver, zeroing, usedByNamespaces }));
}

/** Every DeviceClass with its driver, zeroing state and the namespaces using it (read through ctx.deviceClasses). */
export function analyseDeviceClasses(ctx: Pick<AnalysisContext, 'state' | 'settings'>): DeviceClassAnalysis[] {
  const state = ctx.state;
  const usedBy = namespacesByClass(state);
  const allocatedDrivers = allocatedDriversByClass(state);
  const sliceDrivers = new Set(state.resourceSlices.map((s) => s.spec?.driver).filter((d): d is string => !!d));
  const memoryDevices = memoryDevicesByDriver(state.resourceSlices);

  const out: DeviceClassAnalysis[] = [];
  for (const dc of [...state.deviceClasses].sort((a, b) => compareStrings(a.metadata.name, b.metadata.name))) {
    const name = dc.metadata.name;
    let driver: string | null = driverFromSelectors(dc);
    let driverSource: DeviceClassAnalysis['driverSource'] = driver ? 'selector' : null;
    if (!driver) {
      const fromClaims = [...(allocatedDrivers.get(name) ?? [])].sort();
      if (fromClaims.length === 1) {
        driver = fromClaims[0];
        driverSource = 'allocation';
      } else if (sliceDrivers.has(name)) {
        // Convention of the reference drivers: the class carries the driver's name.
        driver = name;
        driverSource = 'slice';
      }
    }
    const { zeroing, matched } = zeroingState(dc, driver, ctx.settings);
    out.push({
      name,
      driver,
      zeroing,
      usedByNamespaces: usedBy.get(name)?.sort() ?? [],
      matchedIndicators: matched,
      driverSource,
      acceleratorReason: acceleratorReason({ name, driver }, memoryDevices, ctx.settings),
    });
  }
  return out;
}

// ------------------------------------------------------------------ driver

const DRIVER_EQ = /device\s*\.\s*driver\s*==\s*(?:"([^"\\]*)"|'([^'\\]*)')|(?:"([^"\\]*)"|'([^'\\]*)')\s*==\s*device\s*\.\s*driver/g;

/** The driver a class's CEL selectors pin (`device.driver == "x"`), when they name exactly one. */
export function driverFromSelectors(dc: DeviceClass): string | null {
  const found = new Set<string>();
  for (const sel of dc.spec?.selectors ?? []) {
    const expr = sel?.cel?.expression;
    if (typeof expr !== 'string') continue;
    for (const m of expr.matchAll(DRIVER_EQ)) {
      const d = m[1] ?? m[2] ?? m[3] ?? m[4];
      if (d) found.add(d);
    }
  }
  return found.size === 1 ? [...found][0] : null;
}

/** Drivers of allocation results whose request (or subrequest) used the class. */
function allocatedDriversByClass(state: ClusterState): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const claim of state.resourceClaims) {
    // Most claims of a large cluster are pending or have no results to read: no map of their requests.
    if (!claim.status?.allocation?.devices?.results?.length) continue;
    const classOfRequest = new Map<string, string>();
    for (const r of claim.spec?.devices?.requests ?? []) {
      if (r.exactly) classOfRequest.set(r.name, r.exactly.deviceClassName);
      for (const sub of r.firstAvailable ?? []) classOfRequest.set(`${r.name}/${sub.name}`, sub.deviceClassName);
    }
    for (const result of claim.status?.allocation?.devices?.results ?? []) {
      const cls = classOfRequest.get(result.request);
      if (!cls || !result.driver) continue;
      let set = out.get(cls);
      if (!set) out.set(cls, (set = new Set()));
      set.add(result.driver);
    }
  }
  return out;
}

// ------------------------------------------------------------------ usage

/** Device classes a claim spec requests, including firstAvailable subrequests. */
export function classesOfSpec(spec: ResourceClaimSpec | undefined): string[] {
  const out = new Set<string>();
  for (const r of spec?.devices?.requests ?? []) {
    if (r.exactly?.deviceClassName) out.add(r.exactly.deviceClassName);
    for (const sub of r.firstAvailable ?? []) if (sub.deviceClassName) out.add(sub.deviceClassName);
  }
  return [...out];
}

/** The namespaces whose claims or templates request each class (as classesOfSpec reads a spec). */
function namespacesByClass(state: ClusterState): Map<string, string[]> {
  const out = new Map<string, string[]>();
  // A namespace's classes are distinct keys, so each namespace is added to a class once.
  for (const [ns, { classes }] of claimRequestsByNamespace(state)) for (const cls of classes) pushTo(out, cls, ns);
  return out;
}

// ------------------------------------------------------------------ zeroing

export function indicatorsFor(driver: string | null, settings: AnalysisSettings): { indicators: ZeroingIndicator[]; defined: boolean } {
  const table = settings.zeroingIndicators ?? {};
  const own = driver !== null && Object.hasOwn(table, driver) ? table[driver] : undefined;
  const any = Object.hasOwn(table, '*') ? table['*'] : undefined;
  return { indicators: [...(own ?? []), ...(any ?? [])], defined: own !== undefined || any !== undefined };
}

export function zeroingState(dc: DeviceClass, driver: string | null, settings: AnalysisSettings): { zeroing: DeviceClassReport['zeroing']; matched: string[] } {
  const { indicators, defined } = indicatorsFor(driver, settings);
  const matched = indicators.filter((i) => indicatorMatches(dc, i)).map(describeIndicator);
  if (matched.length > 0) return { zeroing: 'configured', matched: [...new Set(matched)] };
  return { zeroing: defined ? 'missing' : 'unknown', matched: [] };
}

export function indicatorMatches(dc: DeviceClass, indicator: ZeroingIndicator): boolean {
  if (indicator.kind === 'deviceClassAnnotation') {
    if (!indicator.key) return false;
    const annotations = dc.metadata.annotations ?? {};
    if (!Object.hasOwn(annotations, indicator.key)) return false;
    return indicator.equals === undefined || annotations[indicator.key] === indicator.equals;
  }
  if (indicator.kind === 'opaqueParameter') {
    if (!indicator.path) return false;
    for (const cfg of dc.spec?.config ?? []) {
      const opaque = cfg?.opaque;
      if (!opaque) continue;
      if (indicator.driver !== undefined && opaque.driver !== indicator.driver) continue;
      const value =
        lookup(opaque.parameters, indicator.path) ??
        (indicator.path.startsWith('parameters.') ? lookup(opaque.parameters, indicator.path.slice('parameters.'.length)) : undefined);
      if (value === undefined) continue;
      if (indicator.equals === undefined || scalarText(value) === indicator.equals) return true;
    }
    return false;
  }
  return false;
}

export function describeIndicator(i: ZeroingIndicator): string {
  if (i.kind === 'deviceClassAnnotation') return `annotation ${i.key}${i.equals !== undefined ? `=${i.equals}` : ''}`;
  if (i.kind === 'opaqueParameter')
    return `opaque parameter ${i.path}${i.equals !== undefined ? `=${i.equals}` : ''}${i.driver ? ` (driver ${i.driver})` : ''}`;
  return String((i as { kind?: unknown }).kind);
}

/** A dotted path into parsed JSON, own keys only. */
function lookup(root: unknown, path: string): unknown {
  let cur: unknown = root;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function scalarText(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}
