import { describe, expect, it } from 'vitest';
import { pod } from '@/lib/authz/__fixtures__/builders';
import { contextOf } from '../__fixtures__/builders';
import { audit006 } from './audit-checks';

const apiserver = (name: string, command: string[]) =>
  pod('kube-system', name, { nodeName: 'cp-01', hostNetwork: true, containers: [{ name: 'kube-apiserver', command }] });

describe('AUDIT006', () => {
  const run = (...command: string[][]) => audit006.run(contextOf({ pods: command.map((c, i) => apiserver(`kube-apiserver-cp-0${i + 1}`, c)) }));

  it('fires without a policy file, and with a policy but no backend', () => {
    const out = run(['kube-apiserver', '--authorization-mode=Node,RBAC'], ['kube-apiserver', '--audit-policy-file=/etc/audit.yaml']);
    expect(out.map((f) => f.message)).toEqual([
      'kube-apiserver in Pod kube-system/kube-apiserver-cp-01 on cp-01: no --audit-policy-file: the API server audits no request. Claim creates, status (driver and binding) writes and DeviceClass changes are not logged.',
      'kube-apiserver in Pod kube-system/kube-apiserver-cp-02 on cp-01: --audit-policy-file=/etc/audit.yaml but neither --audit-log-path nor --audit-webhook-config-file: the events are written nowhere. Claim creates, status (driver and binding) writes and DeviceClass changes are not logged.',
    ]);
    expect(out[1].evidence).toEqual([
      {
        type: 'field',
        object: { kind: 'Pod', namespace: 'kube-system', name: 'kube-apiserver-cp-02' },
        path: 'spec.containers[0].command[1]',
        value: '--audit-policy-file=/etc/audit.yaml',
      },
    ]);
  });

  it('is quiet with a policy and a log or webhook backend, and for pods that are not API servers', () => {
    expect(
      run(
        ['kube-apiserver', '--audit-policy-file=/p.yaml', '--audit-log-path=/var/log/a.log'],
        ['/usr/local/bin/kube-apiserver', '--audit-policy-file', '/p.yaml', '--audit-webhook-config-file', '/w.yaml'],
        ['etcd', '--data-dir=/x'],
      ),
    ).toEqual([]);
  });
});
