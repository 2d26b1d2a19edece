import { describe, expect, it } from 'vitest';
import type { WhoCanEntry } from '@/lib/authz/who-can';
import { filterWhoCan } from './who-can-view';

const entry = (subject: WhoCanEntry['subject'], binding?: string, role?: string): WhoCanEntry => ({
  subject,
  via: binding ? 'rbac' : 'privileged-group',
  grants: binding ? [{ binding: { kind: 'ClusterRoleBinding', name: binding }, role: { kind: 'ClusterRole', name: role ?? binding }, ruleIndex: 0 }] : [],
});

const entries: WhoCanEntry[] = [
  entry({ kind: 'Group', name: 'system:masters' }),
  entry({ kind: 'ServiceAccount', namespace: 'tenant-b', name: 'batch-scheduler' }, 'tenant-b-batch-scheduler', 'custom-allocator'),
  entry({ kind: 'ServiceAccount', namespace: 'kube-system', name: 'kube-scheduler' }, 'system:kube-scheduler'),
  entry({ kind: 'User', name: 'alice' }, 'alice-admin', 'cluster-admin'),
];

describe('filterWhoCan', () => {
  it('keeps every row for empty text', () => {
    expect(filterWhoCan(entries, '  ')).toHaveLength(4);
  });

  it('matches namespace/name, binding and role, case-insensitively, every word', () => {
    expect(filterWhoCan(entries, 'tenant-b/BATCH').map((e) => e.subject.name)).toEqual(['batch-scheduler']);
    expect(filterWhoCan(entries, 'custom-allocator').map((e) => e.subject.name)).toEqual(['batch-scheduler']);
    expect(filterWhoCan(entries, 'scheduler').map((e) => e.subject.name)).toEqual(['batch-scheduler', 'kube-scheduler']);
    expect(filterWhoCan(entries, 'scheduler kube-system').map((e) => e.subject.name)).toEqual(['kube-scheduler']);
    expect(filterWhoCan(entries, 'group').map((e) => e.subject.name)).toEqual(['system:masters']);
    expect(filterWhoCan(entries, 'nobody')).toEqual([]);
  });
});
