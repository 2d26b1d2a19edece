import { describe, expect, it } from 'vitest';
import { stateOf } from '@/lib/authz/__fixtures__/builders';
import { compareStrings } from '@/lib/k8s/refs';
import type { DeviceRequest, ResourceClaim, ResourceClaimTemplate } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { classesOfSpec } from '@/lib/analysis/zeroing/device-classes';
import { claimRequestsByNamespace, specOf, usersByClass, type ClaimObject } from './claim-requests';

const CLASSES = ['a', 'b', 'c', 'gpu.example.com'];

function randomState(seed: number) {
  const r = createRandom(seed);
  const cls = () => (r.chance(0.1) ? '' : r.pick(CLASSES));
  const requests = (): DeviceRequest[] =>
    Array.from({ length: r.int(3) }, (_, j): DeviceRequest =>
      r.chance(0.6)
        ? { name: `r${j}`, exactly: { deviceClassName: cls() } }
        : { name: `r${j}`, firstAvailable: Array.from({ length: 1 + r.int(3) }, (_, k) => ({ name: `s${k}`, deviceClassName: cls() })) },
    );
  const claims: ResourceClaim[] = [];
  const templates: ResourceClaimTemplate[] = [];
  // Names drawn at random (unique per kind), so the state's order is not the namespace's sorted order.
  const names = Array.from({ length: 40 }, (_, i) => `o${i}`).sort(() => (r.chance(0.5) ? 1 : -1));
  for (const name of names) {
    const metadata = { name, namespace: r.chance(0.05) ? undefined : `ns-${r.int(4)}` };
    if (r.chance(0.3))
      templates.push({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', metadata, spec: { spec: { devices: { requests: requests() } } } });
    else
      claims.push({
        apiVersion: 'resource.k8s.io/v1',
        kind: 'ResourceClaim',
        metadata,
        spec: r.chance(0.1) ? {} : { devices: { requests: requests() } },
      });
  }
  return { claims, templates, state: stateOf({ resourceClaims: claims, resourceClaimTemplates: templates }) };
}

describe('claimRequestsByNamespace on random claims and templates', () => {
  // The plain readings: a namespace's objects are its claims and templates sorted by kind, then name;
  // its classes those their specs name (classesOfSpec), each once, sorted.
  for (let seed = 0; seed < 40; seed++) {
    it(`seed ${seed}: objects and classes as the plain reading`, () => {
      const { claims, templates, state } = randomState(4100 + seed);
      const all: ClaimObject[] = [...claims, ...templates];
      const namespaces = [...new Set(all.map((o) => o.metadata.namespace ?? ''))].sort();
      const got = claimRequestsByNamespace(state);
      expect([...got.keys()].sort()).toEqual(namespaces);
      for (const ns of namespaces) {
        const objects = all
          .filter((o) => (o.metadata.namespace ?? '') === ns)
          .sort((x, y) => compareStrings(x.kind, y.kind) || compareStrings(x.metadata.name, y.metadata.name));
        const here = got.get(ns)!;
        expect(here.objects).toEqual(objects);
        const classes = [...new Set(objects.flatMap((o) => classesOfSpec(specOf(o))))].sort();
        expect(here.classes).toEqual(classes);
        // What QUOTA002 reads again for a namespace with a finding names the same classes.
        expect([...usersByClass(here.objects).keys()].sort()).toEqual(here.classes);
      }
    });
  }

  it('shares a class list only between namespaces naming the same classes', () => {
    const claim = (ns: string, deviceClassNames: string[]): ResourceClaim => ({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: `c-${deviceClassNames.length}`, namespace: ns },
      spec: { devices: { requests: deviceClassNames.map((deviceClassName, i) => ({ name: `r${i}`, exactly: { deviceClassName } })) } },
    });
    const got = claimRequestsByNamespace(stateOf({ resourceClaims: [claim('x', ['a\nb']), claim('y', ['a', 'b']), claim('z', ['b', 'a'])] }));
    expect(got.get('x')!.classes).toEqual(['a\nb']);
    expect(got.get('y')!.classes).toEqual(['a', 'b']);
    expect(got.get('z')!.classes).toBe(got.get('y')!.classes);
  });

  it('is read once per state, and afresh for a new state', () => {
    const { state } = randomState(7);
    expect(claimRequestsByNamespace(state)).toBe(claimRequestsByNamespace(state));
    const next = { ...state, resourceClaims: [] };
    expect(claimRequestsByNamespace(next)).not.toBe(claimRequestsByNamespace(state));
    expect([...claimRequestsByNamespace(next).values()].every((n) => n.objects.every((o) => o.kind === 'ResourceClaimTemplate'))).toBe(true);
  });
});
