import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttackStep, Report } from '../../lib/analysis/types';
import { buildReport } from '../../lib/report/build-report';
import { loadDemo } from '../../server/sources/demo-source';
import { startControlPlane, type ControlPlane } from '../kube/control-plane';
import { readManifests, seedObjects } from '../kube/seed-manifests';

// Issue 13: the attack paths of the demo's highest-risk issues, checked step by step against a real
// kube-apiserver seeded with the same demo: every request step's SubjectAccessReview is allowed there,
// and the same review for an identity without the grant is denied (the check can fail).

const DEMO = join(import.meta.dirname, '..', '..', 'demo', 'manifests');

let cp: ControlPlane;
let report: Report;

beforeAll(async () => {
  cp = await startControlPlane();
  await seedObjects(cp, readManifests(DEMO));
  report = buildReport(await loadDemo());
}, 600_000);

afterAll(async () => {
  await cp?.stop();
});

async function serverAllows(review: NonNullable<AttackStep['review']>): Promise<boolean> {
  const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: review };
  const res = await cp.request('admin', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { method: 'POST', body });
  if (res.status !== 201) throw new Error(`SAR: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return !!res.body.status?.allowed;
}

/** The aggregation controller fills aggregated roles shortly after seeding: ask again for a while before calling it denied. */
async function settledAllows(review: NonNullable<AttackStep['review']>): Promise<boolean> {
  for (let i = 0; i < 20; i++) {
    if (await serverAllows(review)) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

describe('attack paths on the real API server', () => {
  it('the demo has paths for its top issues, each from a foothold to an impact', () => {
    expect(report.attackPaths.length).toBeGreaterThanOrEqual(5);
    const ranked = new Map(report.issues.map((i, n) => [i.id, n]));
    for (const p of report.attackPaths) {
      expect(ranked.get(p.issueId)).toBeLessThan(10);
      expect(p.steps.at(-1)!.review, `${p.issueId} ends in a request`).toBeDefined();
    }
    // The top issue (the Intel driver bound to cluster-admin) starts on any node its DaemonSet runs on.
    expect(report.attackPaths[0].issueId).toBe(report.issues[0].id);
    expect(report.attackPaths[0].foothold).toMatch(/^a compromised node/);
  });

  it('every request step is allowed by the server, and denied for an identity without the grant', async () => {
    let steps = 0;
    for (const p of report.attackPaths) {
      for (const step of p.steps) {
        if (!step.review) continue;
        steps++;
        expect(await settledAllows(step.review), `${p.impact} as ${step.review.user}`).toBe(true);
        expect(await serverAllows({ ...step.review, user: 'dra-posture-nobody', groups: ['system:authenticated'], extra: {} })).toBe(false);
      }
    }
    expect(steps).toBeGreaterThanOrEqual(5);
  }, 120_000);
});
