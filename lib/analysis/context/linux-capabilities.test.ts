import { describe, expect, it } from 'vitest';
import { hostLevelCapabilities } from './linux-capabilities';

const BASELINE = [
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
];

describe('hostLevelCapabilities', () => {
  it('reads add case-insensitively, with or without CAP_, once each', () => {
    const c = { name: 'c', securityContext: { capabilities: { add: ['sys_admin', 'CAP_SYS_ADMIN', 'CAP_bpf', 'ALL', 'IPC_LOCK'] } } };
    expect(hostLevelCapabilities(c)).toStrictEqual(['SYS_ADMIN', 'BPF', 'ALL']);
  });

  it('never reports a capability the Pod Security baseline level allows', () => {
    expect(hostLevelCapabilities({ name: 'c', securityContext: { capabilities: { add: BASELINE } } })).toStrictEqual([]);
  });

  it('ignores drop and a missing securityContext', () => {
    expect(hostLevelCapabilities({ name: 'c', securityContext: { capabilities: { drop: ['SYS_ADMIN'] } } })).toStrictEqual([]);
    expect(hostLevelCapabilities({ name: 'c' })).toStrictEqual([]);
  });
});
