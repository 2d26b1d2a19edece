import { describe, expect, it } from 'vitest';
import { clusterRole, crb, pod, SA, stateOf } from '@/lib/authz/__fixtures__/builders';
import { daemonSet, namespace, pluginPod, PLUGIN_MOUNTS, PLUGIN_VOLUMES, serviceAccount } from '@/lib/analysis/__fixtures__/builders';
import { refKey } from '@/lib/k8s/refs';
import { buildReport } from '@/lib/report/build-report';
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
