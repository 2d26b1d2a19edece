import { describe, expect, it } from 'vitest';
import { bindingSubjects, draPermissions, permissionScope } from '@/lib/compliance/dra-permissions';
import { loadDemo } from '@/server/sources/demo-source';

// DRA permission lines per identity on the demo, checked against its manifests by hand.

describe('draPermissions on the demo', async () => {
  const state = await loadDemo();
  const permissions = draPermissions(state, bindingSubjects(state), permissionScope([state]));
  const of = (key: string) => [...(permissions.get(key)?.permissions ?? [])].sort();

  it('a RoleBinding grants in its namespace only, and never the cluster-scoped resourceclaims/binding', () => {
    // ClusterRole tenant-claim-allocator (get/list/watch claims, update/patch status and binding) bound by a RoleBinding in tenant-a.
    expect(of('ServiceAccount tenant-a/queue-controller')).toEqual(
      [
        'get resourceclaims in tenant-a',
        'list resourceclaims in tenant-a',
        'patch resourceclaims/status in tenant-a',
        'update resourceclaims/status in tenant-a',
        'watch resourceclaims in tenant-a',
      ].sort(),
    );
  });

  it('a ClusterRoleBinding grants in all namespaces, and writes of every node', () => {
    expect(of('ServiceAccount kube-system/intel-reporter')).toEqual(['patch nodes/status [any node]', 'update nodes/status [any node]']);
    expect(of('Group tenant-b-admins')).toEqual(expect.arrayContaining(['create deviceclasses', 'patch deviceclasses', 'update deviceclasses']));
    expect(of('Group tenant-b-admins')).not.toContain('delete deviceclasses');
  });
});
