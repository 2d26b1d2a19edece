import { describe, expect, it } from 'vitest';
import { clusterRole, crb, Group, pod, SA } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { SEVERITIES } from '@/lib/analysis/types';
import { contextOf, namespace, pluginPod, sliceWriter } from '../__fixtures__/builders';
import { CATALOG, CHECK_IDS } from '../catalog';
import { findingId } from '../finding-id';
import { CHECK_LIST, CHECKS, compareFindings, runChecks, sortFindings } from './registry';
import type { Finding } from '@/lib/analysis/types';
import type { SubjectRef } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';

type Parts = Partial<Omit<ClusterState, 'source' | 'warnings'>>;

const MINE = [
  'DRA001',
  'DRA002',
  'DRA003',
  'DRA004',
  'DRA005',
  'DRA006',
  'DRA007',
  'DRA008',
  'DRA009',
  'NODE001',
  'NODE002',
  'NODE003',
  'NODE004',
  'NODE005',
  'CLAIM001',
  'CLAIM002',
  'CLAIM003',
  'CLAIM004',
  'CLAIM005',
  'POD001',
  'POD002',
  'POD003',
  'POD004',
];

const writer = sliceWriter('drivers', 'plugin');
const parts: Parts = {
  namespaces: [namespace('drivers'), namespace('tenant-b', { 'dra-posture.io/role': 'tenant' })],
  pods: [
    pluginPod('drivers', 'gpu-plugin', 'a1', 'plugin', 'n1', { securityContext: { privileged: true } }),
    pluginPod('drivers', 'gpu-plugin', 'b2', 'plugin', 'n2', { securityContext: { privileged: true } }),
    pod('tenant-b', 'debug', {
      volumes: [{ name: 'p', hostPath: { path: '/var/lib/kubelet/plugins' } }],
      containers: [{ name: 'c', volumeMounts: [{ name: 'p', mountPath: '/p' }] }],
    }),
  ],
  clusterRoles: [writer.clusterRole, clusterRole('wild', [{ verbs: ['*'], apiGroups: ['resource.k8s.io'], resources: ['*'] }])],
  clusterRoleBindings: [writer.binding, crb('wild', { kind: 'ClusterRole', name: 'wild' }, [Group('gpu-ops'), SA('tenant-b', 'ci')])],
};

describe('registry', () => {
  it('keys every check by its stable, unique ID, one check per catalogue entry, in catalogue order', () => {
    const ids = CHECK_LIST.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(CHECK_IDS);
    for (const id of MINE) expect(CHECKS[id as keyof typeof CHECKS]?.id).toBe(id);
    for (const id of CHECK_IDS) {
      const entry = CATALOG[id];
      expect(SEVERITIES).toContain(entry.severity);
      expect(id.startsWith(entry.family)).toBe(true);
      for (const text of [entry.title, entry.description, entry.remediation]) expect(text.length).toBeGreaterThan(10);
    }
  });

  it('fills id, check, severity and title and sorts by severity, check ID, subjects, objects', () => {
    const findings = runChecks(
      contextOf(parts),
      CHECK_LIST.filter((c) => MINE.includes(c.id)),
    );
    expect(findings.map((f) => `${f.severity} ${f.check} ${f.subjects.map((s) => s.name).join(',')}`)).toEqual([
      'critical POD004 default',
      'high DRA002 gpu-ops,ci',
      'high DRA003 gpu-ops',
      'high DRA003 ci',
      'high DRA005 gpu-ops',
      'high DRA005 ci',
      'high DRA007 gpu-ops',
      'high DRA007 ci',
      'high POD001 plugin',
      'low POD003 plugin',
    ]);
    for (const f of findings) {
      expect(f.id).toBe(findingId(f.check, f.subjects, f.objects));
      expect(f.title).toBe(CATALOG[f.check].title);
      expect(f.severity).toBe(CATALOG[f.check].severity);
    }
    expect([...findings].sort(compareFindings)).toEqual(findings);
  });

  // sortFindings joins each finding's keys once; it must order exactly as sorting with compareFindings,
  // ties (same keys, same ID) kept in the order given.
  for (let seed = 1; seed <= 30; seed++) {
    it(`sorts as compareFindings does (random findings, seed ${seed})`, () => {
      const r = createRandom(seed);
      const refs: SubjectRef[] = [
        { kind: 'ServiceAccount', namespace: 'a', name: 'x' },
        { kind: 'ServiceAccount', namespace: 'a', name: 'x-1' },
        { kind: 'Group', name: 'a' },
        { kind: 'User', name: 'a\nb' },
        { kind: 'User', name: 'a' },
      ];
      const findings = Array.from({ length: 1 + r.int(80) }, (_, n) => ({
        id: r.pick(['f1', 'f2', 'f3']),
        check: r.pick(['DRA001', 'DRA002', 'NODE001']),
        severity: r.pick([...SEVERITIES, 'unknown']),
        subjects: Array.from({ length: r.int(3) }, () => r.pick(refs)),
        objects: Array.from({ length: r.int(3) }, () => ({ kind: 'ClusterRole', name: r.pick(['r', 'r2', 's']) })),
        n,
      })) as unknown as (Finding & { n: number })[];
      const plain = [...findings].sort(compareFindings).map((f) => f.n);
      const given = [...findings];
      expect(sortFindings(given).map((f) => f.n)).toEqual(plain);
      expect(given.map((f) => f.n)).toEqual(plain);
    });
  }

  it('gives the same findings when the cluster lists objects in another order', () => {
    const reversed: Parts = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, [...(v as unknown[])].reverse()]));
    const mine = CHECK_LIST.filter((c) => MINE.includes(c.id));
    expect(runChecks(contextOf(reversed), mine)).toStrictEqual(runChecks(contextOf(parts), mine));
  });
});
