import { describe, expect, it } from 'vitest';
import { clusterRole, crb, pod, SA, stateOf } from '@/lib/authz/__fixtures__/builders';
import { daemonSet, namespace, pluginPod, PLUGIN_MOUNTS, PLUGIN_VOLUMES, serviceAccount } from '@/lib/analysis/__fixtures__/builders';
import { refKey } from '@/lib/k8s/refs';
import { buildReport } from '@/lib/report/build-report';
import { fnv1a64 } from '@/lib/analysis/finding-id';
import type { KubeObject, PodSpec } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { workloadCopyKeys } from './workload-copies';

// A chart stamps the same workload into many namespaces: its hardening mistake is one issue, as the
// copies of one Role are (role-copies.ts). What tells copies apart is the pod spec, not where they run.

const NS = ['drv-a', 'drv-b', 'drv-c'];
const pluginSpec = { serviceAccountName: 'plugin', volumes: PLUGIN_VOLUMES, containers: [{ name: 'plugin', volumeMounts: PLUGIN_MOUNTS }] };

describe('workloadCopyKeys', () => {
  it('gives bare pods and workloads with one name and pod spec in several namespaces one key; a different spec or a single copy keeps its own', () => {
    const state = stateOf({
      pods: [
        pod('a', 'app', { nodeName: 'n1', containers: [{ name: 'c', image: 'img:1' }] }),
        pod('b', 'app', { nodeName: 'n2', containers: [{ name: 'c', image: 'img:1' }] }),
        pod('c', 'app', { nodeName: 'n1', containers: [{ name: 'c', image: 'img:2' }] }),
        pod('d', 'lonely', { containers: [{ name: 'c' }] }),
      ],
      daemonSets: NS.map((ns) => daemonSet(ns, 'plugin', pluginSpec)),
    });
    const keys = workloadCopyKeys(state);
    const key = (kind: string, namespace: string, name: string) => keys.get(refKey({ kind, namespace, name }));
    expect(key('Pod', 'a', 'app')).toBeDefined();
    expect(key('Pod', 'a', 'app')).toBe(key('Pod', 'b', 'app'));
    expect(key('Pod', 'c', 'app')).toBeUndefined();
    expect(key('Pod', 'd', 'lonely')).toBeUndefined();
    expect(new Set(NS.map((ns) => key('DaemonSet', ns, 'plugin'))).size).toBe(1);
    expect(key('DaemonSet', 'drv-a', 'plugin')).not.toBe(key('Pod', 'a', 'app'));
  });

  it('makes the copies of one kubelet-plugin DaemonSet one POD003 issue that says where they are', () => {
    const state = stateOf({
      namespaces: NS.map((ns) => namespace(ns)),
      serviceAccounts: NS.map((ns) => serviceAccount(ns, 'plugin')),
      daemonSets: NS.map((ns) => daemonSet(ns, 'plugin', pluginSpec)),
      pods: NS.map((ns, i) => pluginPod(ns, 'plugin', 'x', 'plugin', `n${i}`)),
      clusterRoles: [clusterRole('slices', [{ verbs: ['create', 'update'], apiGroups: ['resource.k8s.io'], resources: ['resourceslices'] }])],
      clusterRoleBindings: [
        crb(
          'slices',
          { kind: 'ClusterRole', name: 'slices' },
          NS.map((ns) => SA(ns, 'plugin')),
        ),
      ],
    });
    const issues = buildReport(state).issues.filter((i) => i.check === 'POD003');
    expect(issues).toHaveLength(1);
    expect(issues[0].title).toMatch(/DaemonSet plugin, the same pod spec in 3 namespaces/);
    expect(issues[0].rootCause.map((r) => r.namespace)).toEqual(NS);
    // The checked fix (POD003 has one) patches every copy.
    expect(issues[0].fix?.status).toBe('verified');
    expect(issues[0].fix!.changes.map((c) => (c.action === 'patch' ? c.target.namespace : '')).sort()).toEqual(NS);
  });
});

// The plain grouping: every namespaced bare pod and workload hashed and grouped, no name filter.
function plainCopyKeys(objects: { o: KubeObject; spec: PodSpec | undefined }[]): [string, string][] {
  const groups = new Map<string, string[]>();
  for (const { o, spec } of objects) {
    if (!o.metadata.namespace) continue;
    const { nodeName: _n, resourceClaims: _c, ...rest } = spec ?? {};
    const key = `${o.kind} */${o.metadata.name}#${spec ? fnv1a64(JSON.stringify(rest)) : ''}`;
    const ref = refKey({ kind: o.kind, namespace: o.metadata.namespace, name: o.metadata.name });
    groups.set(key, [...(groups.get(key) ?? []), ref]);
  }
  const out: [string, string][] = [];
  for (const [key, refs] of groups) if (refs.length > 1) for (const ref of refs) out.push([ref, key]);
  return out;
}

describe('workloadCopyKeys on random clusters', () => {
  for (let seed = 1; seed <= 40; seed++) {
    it(`seed ${seed}: equals hashing every bare pod and workload`, () => {
      const rnd = createRandom(seed);
      const specs: PodSpec[] = [
        { containers: [{ name: 'c', image: 'img:1' }] },
        { containers: [{ name: 'c', image: 'img:2' }] },
        { containers: [{ name: 'c', image: 'img:1' }], hostNetwork: true },
      ];
      const spec = () => ({ ...rnd.pick(specs), ...(rnd.int(2) ? { nodeName: `n${rnd.int(3)}` } : {}) });
      const namespaces = ['', 'a', 'b', 'c', 'd'];
      const names = ['app', 'web', 'plugin', 'x', 'y', 'z'];
      const seen = new Set<string>();
      const pods = [];
      for (let i = 0; i < 30; i++) {
        const ns = rnd.pick(namespaces);
        const name = rnd.pick(names);
        if (seen.has(`${ns}/${name}`)) continue;
        seen.add(`${ns}/${name}`);
        const p = pod(ns, name, spec());
        if (rnd.int(3) === 0) p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u' }];
        if (ns === '') delete p.metadata.namespace;
        pods.push(p);
      }
      const daemonSets = namespaces.filter((ns) => ns && rnd.int(2)).map((ns) => daemonSet(ns, rnd.pick(names), spec()));
      const state = stateOf({ pods, daemonSets });
      const objects = [
        ...state.pods.filter((p) => (p.metadata.ownerReferences ?? []).length === 0).map((p) => ({ o: p as KubeObject, spec: p.spec })),
        ...state.daemonSets.map((d) => ({ o: d as KubeObject, spec: d.spec?.template?.spec })),
      ];
      const expected = plainCopyKeys(objects);
      expect([...workloadCopyKeys(state)]).toEqual(expected);
      if (seed === 1) expect(expected.length).toBeGreaterThan(0);
    });
  }
});
