import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixChange, FixProbe, Issue } from '../../lib/analysis/types';
import { buildClusterState } from '../../lib/k8s/build-cluster-state';
import { buildReport } from '../../lib/report/build-report';
import { loadDemo } from '../../server/sources/demo-source';
import { parseDocuments } from '../../server/sources/parse-documents';
import { startControlPlane, type ControlPlane } from '../kube/control-plane';
import { pathFor, readManifests, seedObjects } from '../kube/seed-manifests';

// Issue 24: every structured fix the report shows for the demo and for the real-driver fixtures,
// applied to a real kube-apiserver holding the same objects. Each change is first sent with
// dryRun=All (the server must accept it: validation, admission, RBAC escalation checks). Fixes that
// change RBAC are then applied for real: the requests the fix removes are refused
// (SubjectAccessReview as the holder), the requests the holder needs are still allowed; then they
// are undone. A workload patch's dry-run answer must carry the hardening it adds.

const ROOT = join(import.meta.dirname, '..', '..');
const DEMO = join(ROOT, 'demo', 'manifests');
const REAL = join(ROOT, 'lib', 'analysis', '__fixtures__', 'real-drivers');
const DRIVERS = ['amd-gpu', 'cpu', 'dra-example-driver', 'google-tpu', 'intel-gaudi', 'intel-gpu', 'intel-qat', 'nvidia-gpu', 'sriov'];
const REAL_FILES = [join(DEMO, '35-rbac-bootstrap.yaml'), join(REAL, '_base.yaml'), ...DRIVERS.map((d) => join(REAL, `${d}.yaml`))];
/** Fix cases neither the demo nor the fixtures show (a scoped driver controller, a stock role's binding, node-group bindings, bind). */
const CASES = join(ROOT, 'e2e', 'fixtures', 'fix-cases', 'fix-cases.yaml');

type Obj = { apiVersion: string; kind: string; metadata: Record<string, any>; [k: string]: unknown };

/**
 * The fixtures' objects as the server takes them: they carry what the analysis reads, so a container
 * written without an image gets a stand-in one (the server requires it; nothing here runs).
 */
function realDriverObjects(): Obj[] {
  const objects = REAL_FILES.flatMap((f) => parseDocuments(readFileSync(f), basename(f)).map((i) => structuredClone(i.value) as Obj)).filter(
    (o) => o && o.kind,
  );
  for (const o of objects) {
    const spec = (o.kind === 'Pod' ? o.spec : (o.spec as any)?.template?.spec) as any;
    for (const c of [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])]) c.image ??= 'registry.example/stand-in:1';
  }
  return objects;
}

function objectPath(c: Extract<FixChange, { action: 'patch' }>): string {
  return `${pathFor({ apiVersion: c.apiVersion, kind: c.target.kind, metadata: { namespace: c.target.namespace } })}/${c.target.name}`;
}

const CONTENT = { merge: 'application/merge-patch+json', strategic: 'application/strategic-merge-patch+json' } as const;

async function send(cp: ControlPlane, c: FixChange, dryRun: boolean) {
  const q = dryRun ? '?dryRun=All' : '';
  if (c.action === 'create') return cp.request('admin', `${pathFor(c.object as Obj)}${q}`, { method: 'POST', body: c.object });
  return cp.request('admin', `${objectPath(c)}${q}`, { method: 'PATCH', body: c.patch, contentType: CONTENT[c.patchType] });
}

async function allowed(cp: ControlPlane, probe: FixProbe): Promise<boolean> {
  const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: probe.review };
  const res = await cp.request('admin', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { method: 'POST', body });
  if (res.status !== 201) throw new Error(`SAR: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return !!res.body.status?.allowed;
}

/** The answer once the aggregation controller has caught up with a change (or the last answer after ~10 s). */
async function settled(cp: ControlPlane, probe: FixProbe, want: boolean): Promise<boolean> {
  let got = await allowed(cp, probe);
  for (let i = 0; i < 20 && got !== want; i++) {
    await new Promise((r) => setTimeout(r, 500));
    got = await allowed(cp, probe);
  }
  return got;
}

/** The fields a patch sets, for comparing with the object the server returns. */
function containersOf(patch: Record<string, any>): { field: string; name: string; securityContext: Record<string, unknown> }[] {
  const spec = patch.spec?.template?.spec ?? {};
  return ['containers', 'initContainers'].flatMap((field) =>
    (spec[field] ?? []).map((c: any) => ({ field, name: c.name, securityContext: c.securityContext })),
  );
}

async function checkFixes(cp: ControlPlane, issues: Issue[]): Promise<{ verified: number; rbac: number; probes: number }> {
  let verified = 0;
  let rbac = 0;
  let probes = 0;
  for (const issue of issues) {
    const fix = issue.fix;
    if (!fix || fix.status !== 'verified') continue;
    verified++;
    for (const c of fix.changes) {
      const res = await send(cp, c, true);
      expect(
        res.status,
        `${issue.title}: dry-run ${c.action} ${c.action === 'patch' ? c.target.name : (c.object.metadata as any).name}: ${JSON.stringify(res.body).slice(0, 400)}`,
      ).toBeLessThan(300);
      if (c.action === 'patch' && c.patchType === 'strategic') {
        const after = res.body.spec.template.spec;
        for (const { field, name, securityContext } of containersOf(c.patch)) {
          const got = (after[field] as any[]).find((x) => x.name === name).securityContext;
          expect(got, `${issue.title}: ${name}`).toMatchObject(securityContext);
        }
      }
    }
    if (fix.probes.length === 0) continue;
    rbac++;
    // Apply for real, check the probes, undo.
    const originals = new Map<string, any>();
    for (const c of fix.changes) if (c.action === 'patch') originals.set(objectPath(c), (await cp.request('admin', objectPath(c))).body);
    for (const c of fix.changes) expect((await send(cp, c, false)).status, `${issue.title}: apply`).toBeLessThan(300);
    for (const p of fix.probes) {
      probes++;
      expect(await settled(cp, p, p.expect === 'allowed'), `${issue.title}: ${p.text} should be ${p.expect}`).toBe(p.expect === 'allowed');
    }
    for (const c of fix.changes) {
      if (c.action === 'create') await cp.request('admin', `${pathFor(c.object as Obj)}/${(c.object.metadata as any).name}`, { method: 'DELETE' });
      else {
        const o = originals.get(objectPath(c));
        const back = Object.fromEntries(Object.keys(c.patch).map((k) => [k, o[k] ?? null]));
        expect((await send(cp, { ...c, patch: back }, false)).status, `${issue.title}: undo`).toBeLessThan(300);
      }
    }
    // Undone: what the fix refused is allowed again before the next fix is judged.
    for (const p of fix.probes.filter((x) => x.expect === 'denied')) expect(await settled(cp, p, true), `${issue.title}: undo ${p.text}`).toBe(true);
  }
  return { verified, rbac, probes };
}

describe.each([
  { name: 'demo', objects: () => readManifests(DEMO), report: async () => buildReport(await loadDemo()), runtimeConfig: undefined },
  {
    name: 'real-driver fixtures',
    objects: realDriverObjects,
    // The AMD chart still writes its DeviceClass as v1beta1.
    runtimeConfig: 'resource.k8s.io/v1beta1=true',
    report: async () =>
      buildReport(
        buildClusterState(
          REAL_FILES.flatMap((f) => parseDocuments(readFileSync(f), basename(f))),
          { kind: 'snapshot', name: 'real-drivers' },
          { onInvalid: 'fail' },
        ),
      ),
  },
  {
    name: 'extra fix cases',
    objects: () => parseDocuments(readFileSync(CASES), basename(CASES)).map((i) => structuredClone(i.value) as Obj),
    runtimeConfig: undefined,
    report: async () =>
      buildReport(buildClusterState(parseDocuments(readFileSync(CASES), basename(CASES)), { kind: 'snapshot', name: 'fix-cases' }, { onInvalid: 'fail' })),
  },
])('structured fixes of the $name on the real API server', ({ name, objects, report, runtimeConfig }) => {
  let cp: ControlPlane;
  let issues: Issue[];

  beforeAll(async () => {
    cp = await startControlPlane(runtimeConfig ? { runtimeConfig } : {});
    await seedObjects(cp, objects() as never);
    issues = (await report()).issues;
  }, 600_000);

  afterAll(async () => {
    await cp?.stop();
  });

  it('every verified fix is accepted with dryRun=All, removes what it says and keeps what the holders need', async () => {
    const counts = await checkFixes(cp, issues);
    console.log(`${name}: ${counts.verified} verified fixes applied, ${counts.rbac} RBAC fixes applied for real, ${counts.probes} requests checked`);
    expect(counts.verified).toBeGreaterThanOrEqual(3);
    expect(counts.rbac).toBeGreaterThanOrEqual(1);
    expect(counts.probes).toBeGreaterThanOrEqual(2);
  }, 300_000);

  it('a fix the engine could not verify carries no changes, and says why instead of printing YAML', () => {
    for (const i of issues.filter((x) => x.fix?.status === 'none')) {
      expect(i.fix!.changes).toEqual([]);
      expect(i.remediation).toMatch(/^No safe automatic fix: /);
      expect(i.remediation).not.toMatch(/^apiVersion:/m);
    }
  });
});
