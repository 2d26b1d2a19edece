import { describe, expect, it } from 'vitest';
import type { Pod } from './types';
import { visibleApiServers } from './api-server-flags';

const apiServerPod = (name: string, flags: string[]): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'kube-system' },
  spec: { containers: [{ name: 'kube-apiserver', command: ['kube-apiserver', ...flags] }] },
});
const tenantPod = (name: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'tenant' }, spec: { containers: [{ name: 'c' }] } });
const names = (pods: readonly Pod[]) => visibleApiServers(pods).map((s) => [s.pod.metadata.name, s.flags.get('authorization-mode')?.values]);

// visibleApiServers reads one pods array once: each array still gets its own servers, and a list that
// grew since it was read is read again.
describe('visibleApiServers', () => {
  it('answers each pods array from its own pods, and again once the array has grown', () => {
    const a = [
      tenantPod('x'),
      apiServerPod('kube-apiserver-b', ['--authorization-mode=RBAC']),
      apiServerPod('kube-apiserver-a', ['--authorization-mode=Node,RBAC']),
    ];
    const b = [apiServerPod('kube-apiserver-c', ['--authorization-mode=AlwaysAllow'])];
    expect(names(a)).toEqual([
      ['kube-apiserver-a', ['Node,RBAC']],
      ['kube-apiserver-b', ['RBAC']],
    ]);
    expect(visibleApiServers(a)).toBe(visibleApiServers(a));
    expect(names(b)).toEqual([['kube-apiserver-c', ['AlwaysAllow']]]);
    expect(names([])).toEqual([]);
    b.push(apiServerPod('kube-apiserver-0', ['--authorization-mode=Webhook']));
    expect(names(b)).toEqual([
      ['kube-apiserver-0', ['Webhook']],
      ['kube-apiserver-c', ['AlwaysAllow']],
    ]);
  });
});
