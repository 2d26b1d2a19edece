import { describe, expect, it } from 'vitest';
import { clusterRole, crb, Group, rb, role, SA, User } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { contextOf, namespace, pluginPod, sliceWriter } from '../__fixtures__/builders';
import type { Check } from './check-types';
import { dra001, dra002, dra003, dra004, dra005, dra006, dra007, dra008, dra009 } from './dra-checks';
import { boundRoles } from './dra-shared';

type Parts = Partial<Omit<ClusterState, 'source' | 'warnings'>>;

const run = (check: Check, parts: Parts) => {
  return check.run(contextOf(parts));
};

// A DRA driver in namespace `drivers`: SA `plugin` writes ResourceSlices and runs kubelet-plugin pods.
const nv = sliceWriter('drivers', 'plugin');
const driver: Parts = {
  namespaces: [namespace('drivers'), namespace('tenant-a'), namespace('tenant-b')],
  pods: [pluginPod('drivers', 'gpu-plugin', 'a1', 'plugin', 'n1')],
  clusterRoles: [nv.clusterRole],
  clusterRoleBindings: [nv.binding],
};
const merge = (...parts: Parts[]): Parts => {
  const out: Record<string, unknown[]> = {};
  for (const p of parts) for (const [k, v] of Object.entries(p)) out[k] = [...(out[k] ?? []), ...(v as unknown[])];
  return out as Parts;
};

const clusterAdmin = clusterRole('cluster-admin', [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
]);
const draWildcard = clusterRole('gpu-ops-wildcard', [{ verbs: ['*'], apiGroups: ['resource.k8s.io'], resources: ['*'] }]);

describe('DRA001', () => {
  it('fires for a DRA component bound to cluster-admin', () => {
    const out = run(
      dra001,
      merge(driver, {
        clusterRoles: [clusterAdmin],
        clusterRoleBindings: [crb('plugin-admin', { kind: 'ClusterRole', name: 'cluster-admin' }, [SA('drivers', 'plugin')])],
      }),
    );
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'ServiceAccount', namespace: 'drivers', name: 'plugin' }],
        objects: [
          { kind: 'ClusterRole', name: 'cluster-admin' },
          { kind: 'ClusterRoleBinding', name: 'plugin-admin' },
        ],
        message:
          'ServiceAccount drivers/plugin runs DRA driver pods (DaemonSet drivers/gpu-plugin), and holds * verbs on * resources in * groups cluster-wide through ClusterRoleBinding plugin-admin → ClusterRole cluster-admin rule #0 (verbs [*], apiGroups [*], resources [*]). A compromise of this DRA component (on any node it runs on) is a compromise of the whole cluster.',
        evidence: [
          {
            type: 'grant',
            binding: { kind: 'ClusterRoleBinding', name: 'plugin-admin' },
            role: { kind: 'ClusterRole', name: 'cluster-admin' },
            ruleIndex: 0,
            rule: { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
          },
        ],
        remediation:
          'Remove ServiceAccount drivers/plugin from ClusterRoleBinding plugin-admin (delete the binding if it exists only for this driver) and bind a least-privilege ClusterRole instead, as a node-local kubelet plugin needs:\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: plugin-dra-kubelet-plugin\nrules:\n- apiGroups: [resource.k8s.io]\n  resources: [resourceslices]\n  verbs: [get, list, watch, create, update, patch, delete]\n- apiGroups: [resource.k8s.io]\n  resources: [resourceclaims]\n  verbs: [get, list, watch]\n- apiGroups: [resource.k8s.io]\n  resources: [resourceclaims/status]\n  verbs: [update, patch]\n- apiGroups: [resource.k8s.io]\n  resources: [resourceclaims/driver]\n  resourceNames: ["<driver-name>"]\n  verbs: ["associated-node:update", "associated-node:patch"]\n- apiGroups: [""]\n  resources: [nodes]\n  verbs: [get]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: plugin-dra-kubelet-plugin\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: plugin-dra-kubelet-plugin\nsubjects:\n- kind: ServiceAccount\n  name: plugin\n  namespace: drivers',
      },
    ]);
  });
  it('does not fire for wildcard access limited to resource.k8s.io, or for an admin group', () => {
    const out = run(
      dra001,
      merge(driver, {
        clusterRoles: [clusterAdmin, draWildcard],
        clusterRoleBindings: [
          crb('plugin-dra', { kind: 'ClusterRole', name: 'gpu-ops-wildcard' }, [SA('drivers', 'plugin')]),
          crb('admins', { kind: 'ClusterRole', name: 'cluster-admin' }, [Group('platform-admins')]),
        ],
      }),
    );
    expect(out).toStrictEqual([]);
  });
});

describe('DRA002', () => {
  it('fires for a bound wildcard role in resource.k8s.io', () => {
    const out = run(dra002, {
      clusterRoles: [draWildcard],
      clusterRoleBindings: [crb('gpu-ops-wildcard', { kind: 'ClusterRole', name: 'gpu-ops-wildcard' }, [Group('gpu-ops')])],
    });
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'Group', name: 'gpu-ops' }],
        objects: [
          { kind: 'ClusterRole', name: 'gpu-ops-wildcard' },
          { kind: 'ClusterRoleBinding', name: 'gpu-ops-wildcard' },
        ],
        message:
          "ClusterRole gpu-ops-wildcard grants wildcard access in resource.k8s.io: rule #0 (verbs [*], apiGroups [resource.k8s.io], resources [*]). It is bound by ClusterRoleBinding gpu-ops-wildcard (Group gpu-ops). A wildcard also matches resourceclaims/binding (forge allocations) and resourceclaims/driver (write any driver's device status), and every DRA resource added later.",
        evidence: [
          {
            type: 'grant',
            binding: { kind: 'ClusterRoleBinding', name: 'gpu-ops-wildcard' },
            role: { kind: 'ClusterRole', name: 'gpu-ops-wildcard' },
            ruleIndex: 0,
            rule: { verbs: ['*'], apiGroups: ['resource.k8s.io'], resources: ['*'] },
          },
        ],
        remediation:
          'Replace rule #0 of ClusterRole gpu-ops-wildcard with explicit resources and verbs; start from read-only access and add only the write verbs its holders use, e.g.:\nrules:\n- apiGroups: [resource.k8s.io]\n  resources: [deviceclasses, resourceclaims, resourceclaimtemplates, resourceslices]\n  verbs: [get, list, watch]',
      },
    ]);
  });
  it('does not fire for an unbound copy, cluster-admin, bootstrap roles or wildcards in other groups', () => {
    const out = run(dra002, {
      clusterRoles: [
        clusterRole('dra-debug-wildcard', [{ verbs: ['*'], apiGroups: ['resource.k8s.io'], resources: ['*'] }]),
        clusterAdmin,
        clusterRole('system:aggregate-thing', [{ verbs: ['*'], apiGroups: ['resource.k8s.io'], resources: ['*'] }]),
        clusterRole('vendor-admin', [
          { verbs: ['*'], apiGroups: ['nvidia.com'], resources: ['*'] },
          { verbs: ['*'], apiGroups: ['*'], resources: ['pods'] },
        ]),
      ],
      clusterRoleBindings: [
        crb('cluster-admin', { kind: 'ClusterRole', name: 'cluster-admin' }, [Group('system:masters')]),
        crb('system:aggregate-thing', { kind: 'ClusterRole', name: 'system:aggregate-thing' }, [User('system:kube-scheduler')]),
        crb('vendor-admin', { kind: 'ClusterRole', name: 'vendor-admin' }, [Group('gpu-ops')]),
      ],
    });
    expect(out).toStrictEqual([]);
  });
});

describe('DRA003', () => {
  it('fires for a tenant group that can write DeviceClasses', () => {
    const out = run(
      dra003,
      merge(driver, {
        clusterRoles: [
          clusterRole('tenant-deviceclass-writer', [{ verbs: ['create', 'update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['deviceclasses'] }]),
        ],
        clusterRoleBindings: [crb('tenant-b-deviceclass-writer', { kind: 'ClusterRole', name: 'tenant-deviceclass-writer' }, [Group('tenant-b-admins')])],
      }),
    );
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'Group', name: 'tenant-b-admins' }],
        objects: [
          { kind: 'ClusterRole', name: 'tenant-deviceclass-writer' },
          { kind: 'ClusterRoleBinding', name: 'tenant-b-deviceclass-writer' },
        ],
        message:
          'Group tenant-b-admins (neither a DRA component nor a system identity) can create, update, patch deviceclasses through ClusterRoleBinding tenant-b-deviceclass-writer → ClusterRole tenant-deviceclass-writer rule #0 (verbs [create, update, patch], apiGroups [resource.k8s.io], resources [deviceclasses]). DeviceClasses are cluster-scoped (their selectors and config apply to every tenant) and ResourceSlices advertise devices to the scheduler.',
        evidence: [
          {
            type: 'grant',
            binding: { kind: 'ClusterRoleBinding', name: 'tenant-b-deviceclass-writer' },
            role: { kind: 'ClusterRole', name: 'tenant-deviceclass-writer' },
            ruleIndex: 0,
            rule: { verbs: ['create', 'update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['deviceclasses'] },
          },
        ],
        remediation:
          "Remove the write verbs on deviceclasses/resourceslices from ClusterRole tenant-deviceclass-writer rule #0, or remove Group tenant-b-admins from ClusterRoleBinding tenant-b-deviceclass-writer. Only platform administrators and the DRA drivers' own service accounts should write them; a tenant that needs a new class asks the platform team.",
      },
    ]);
  });
  it('does not fire for the driver itself, system identities, or read-only access', () => {
    const out = run(
      dra003,
      merge(driver, {
        clusterRoles: [
          clusterRole('dra-reader', [{ verbs: ['get', 'list', 'watch'], apiGroups: ['resource.k8s.io'], resources: ['deviceclasses', 'resourceslices'] }]),
        ],
        clusterRoleBindings: [crb('dra-reader', { kind: 'ClusterRole', name: 'dra-reader' }, [Group('tenant-b-admins'), User('system:kube-scheduler')])],
      }),
    );
    expect(out).toStrictEqual([]);
  });
});

describe('DRA004', () => {
  it('fires for a bound resourceclaims/driver rule without resourceNames', () => {
    const out = run(
      dra004,
      merge(driver, {
        clusterRoles: [
          clusterRole('nv-status-writer', [
            { verbs: ['arbitrary-node:update', 'arbitrary-node:patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'] },
          ]),
        ],
        clusterRoleBindings: [crb('nv-status-writer', { kind: 'ClusterRole', name: 'nv-status-writer' }, [SA('drivers', 'plugin')])],
      }),
    );
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'ServiceAccount', namespace: 'drivers', name: 'plugin' }],
        objects: [
          { kind: 'ClusterRole', name: 'nv-status-writer' },
          { kind: 'ClusterRoleBinding', name: 'nv-status-writer' },
        ],
        message:
          'ClusterRole nv-status-writer rule #0 grants arbitrary-node:update, arbitrary-node:patch on resourceclaims/driver without resourceNames, so its holders can write status.devices for every driver, not only their own. Bound by ClusterRoleBinding nv-status-writer (ServiceAccount drivers/plugin).',
        evidence: [
          {
            type: 'grant',
            binding: { kind: 'ClusterRoleBinding', name: 'nv-status-writer' },
            role: { kind: 'ClusterRole', name: 'nv-status-writer' },
            ruleIndex: 0,
            rule: { verbs: ['arbitrary-node:update', 'arbitrary-node:patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'] },
          },
        ],
        remediation:
          'Add resourceNames with the driver name(s) the holders serve to rule #0 of ClusterRole nv-status-writer:\nrules:\n- apiGroups: [resource.k8s.io]\n  resources: [resourceclaims/driver]\n  resourceNames: ["<driver-name>"]\n  verbs: ["arbitrary-node:update", "arbitrary-node:patch"]',
      },
    ]);
  });
  it('does not fire for a driver-scoped rule, an unbound unscoped rule, or a plain wildcard', () => {
    const out = run(
      dra004,
      merge(driver, {
        clusterRoles: [
          clusterRole('example-driver', [
            {
              verbs: ['associated-node:update', 'associated-node:patch'],
              apiGroups: ['resource.k8s.io'],
              resources: ['resourceclaims/driver'],
              resourceNames: ['gpu.example.com'],
            },
          ]),
          clusterRole('unbound', [{ verbs: ['arbitrary-node:update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'] }]),
          draWildcard,
        ],
        clusterRoleBindings: [
          crb('example-driver', { kind: 'ClusterRole', name: 'example-driver' }, [SA('drivers', 'plugin')]),
          crb('gpu-ops', { kind: 'ClusterRole', name: 'gpu-ops-wildcard' }, [Group('gpu-ops')]),
        ],
      }),
    );
    expect(out).toStrictEqual([]);
  });
});

describe('DRA005', () => {
  it('fires for a node-local identity holding arbitrary-node verbs', () => {
    const out = run(
      dra005,
      merge(driver, {
        clusterRoles: [
          clusterRole('nv-status-writer', [
            { verbs: ['arbitrary-node:update', 'arbitrary-node:patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'] },
          ]),
        ],
        clusterRoleBindings: [crb('nv-status-writer', { kind: 'ClusterRole', name: 'nv-status-writer' }, [SA('drivers', 'plugin')])],
      }),
    );
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'ServiceAccount', namespace: 'drivers', name: 'plugin' }],
        objects: [
          { kind: 'ClusterRole', name: 'nv-status-writer' },
          { kind: 'ClusterRoleBinding', name: 'nv-status-writer' },
        ],
        message:
          'ServiceAccount drivers/plugin runs on nodes (DaemonSet drivers/gpu-plugin) and can arbitrary-node:update, arbitrary-node:patch resourceclaims/driver for any driver in every namespace through ClusterRoleBinding nv-status-writer → ClusterRole nv-status-writer rule #0 (verbs [arbitrary-node:update, arbitrary-node:patch], apiGroups [resource.k8s.io], resources [resourceclaims/driver]). arbitrary-node verbs are not tied to the node a token was issued for: it can rewrite status.devices of claims allocated on every node.',
        evidence: [
          {
            type: 'grant',
            binding: { kind: 'ClusterRoleBinding', name: 'nv-status-writer' },
            role: { kind: 'ClusterRole', name: 'nv-status-writer' },
            ruleIndex: 0,
            rule: { verbs: ['arbitrary-node:update', 'arbitrary-node:patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'] },
          },
        ],
        remediation:
          'Replace the arbitrary-node verbs with associated-node:update and associated-node:patch, scoped to the driver name(s), in ClusterRole nv-status-writer rule #0:\nrules:\n- apiGroups: [resource.k8s.io]\n  resources: [resourceclaims/driver]\n  resourceNames: ["<driver-name>"]\n  verbs: ["associated-node:update", "associated-node:patch"]',
      },
    ]);
  });
  it('does not fire for associated-node verbs, or arbitrary-node held by a central controller', () => {
    const out = run(
      dra005,
      merge(driver, {
        clusterRoles: [
          clusterRole('plugin-driver', [
            {
              verbs: ['associated-node:update', 'associated-node:patch'],
              apiGroups: ['resource.k8s.io'],
              resources: ['resourceclaims/driver'],
              resourceNames: ['gpu.example.com'],
            },
          ]),
          clusterRole('controller-driver', [
            {
              verbs: ['arbitrary-node:update', 'arbitrary-node:patch'],
              apiGroups: ['resource.k8s.io'],
              resources: ['resourceclaims/driver'],
              resourceNames: ['compute-domain.example.com'],
            },
          ]),
        ],
        clusterRoleBindings: [
          crb('plugin-driver', { kind: 'ClusterRole', name: 'plugin-driver' }, [SA('drivers', 'plugin')]),
          crb('controller-driver', { kind: 'ClusterRole', name: 'controller-driver' }, [SA('drivers', 'controller')]),
        ],
      }),
    );
    expect(out).toStrictEqual([]);
  });
});

const statusRole = clusterRole('claim-status', [{ verbs: ['update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] }]);
const bindingRole = clusterRole('claim-binding', [{ verbs: ['update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/binding'] }]);

describe('DRA006', () => {
  it('fires for a status writer without binding or driver grants (a RoleBinding cannot grant binding)', () => {
    const out = run(dra006, {
      namespaces: [namespace('tenant-a')],
      clusterRoles: [statusRole, bindingRole],
      roleBindings: [
        rb('tenant-a', 'queue-status', { kind: 'ClusterRole', name: 'claim-status' }, [SA('tenant-a', 'queue-controller')]),
        rb('tenant-a', 'queue-binding', { kind: 'ClusterRole', name: 'claim-binding' }, [SA('tenant-a', 'queue-controller')]),
      ],
    });
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'ServiceAccount', namespace: 'tenant-a', name: 'queue-controller' }],
        objects: [
          { kind: 'ClusterRole', name: 'claim-status' },
          { kind: 'RoleBinding', namespace: 'tenant-a', name: 'queue-status' },
        ],
        message:
          'ServiceAccount tenant-a/queue-controller can update, patch resourceclaims/status in namespace tenant-a through RoleBinding tenant-a/queue-status → ClusterRole claim-status rule #0 (verbs [update, patch], apiGroups [resource.k8s.io], resources [resourceclaims/status]), but holds neither resourceclaims/binding nor resourceclaims/driver. Granular ResourceClaim status authorization is on (1.36+), so its writes to status.allocation/reservedFor or status.devices are refused.',
        evidence: [
          {
            type: 'grant',
            binding: { kind: 'RoleBinding', namespace: 'tenant-a', name: 'queue-status' },
            role: { kind: 'ClusterRole', name: 'claim-status' },
            ruleIndex: 0,
            rule: { verbs: ['update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] },
          },
        ],
        remediation:
          'Grant the synthetic subresource matching what it writes. An allocator (writes allocation/reservedFor) needs, at cluster scope:\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: queue-controller-claim-binding\nrules:\n- apiGroups: [resource.k8s.io]\n  resources: [resourceclaims/binding]\n  verbs: [update, patch]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: queue-controller-claim-binding\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: queue-controller-claim-binding\nsubjects:\n- kind: ServiceAccount\n  name: queue-controller\n  namespace: tenant-a\nA node-local driver (writes status.devices) needs instead:\nrules:\n- apiGroups: [resource.k8s.io]\n  resources: [resourceclaims/driver]\n  resourceNames: ["<driver-name>"]\n  verbs: ["associated-node:update", "associated-node:patch"]\nIf it writes neither, remove update/patch on resourceclaims/status from ClusterRole claim-status rule #0.',
      },
    ]);
  });
  it('does not fire when binding (cluster scope) or driver is held too', () => {
    const out = run(dra006, {
      namespaces: [namespace('tenant-a')],
      clusterRoles: [
        statusRole,
        bindingRole,
        clusterRole('driver', [
          { verbs: ['associated-node:update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'], resourceNames: ['gpu.example.com'] },
        ]),
      ],
      clusterRoleBindings: [
        crb('sched-status', { kind: 'ClusterRole', name: 'claim-status' }, [User('system:kube-scheduler'), SA('drivers', 'plugin')]),
        crb('sched-binding', { kind: 'ClusterRole', name: 'claim-binding' }, [User('system:kube-scheduler')]),
        crb('plugin-driver', { kind: 'ClusterRole', name: 'driver' }, [SA('drivers', 'plugin')]),
      ],
    });
    expect(out).toStrictEqual([]);
  });
});

describe('DRA007', () => {
  it('fires for a tenant scheduler bound to resourceclaims/binding cluster-wide', () => {
    const out = run(dra007, {
      namespaces: [namespace('tenant-b')],
      clusterRoles: [clusterRole('custom-allocator', [{ verbs: ['update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/binding'] }])],
      clusterRoleBindings: [crb('tenant-b-batch-scheduler', { kind: 'ClusterRole', name: 'custom-allocator' }, [SA('tenant-b', 'batch-scheduler')])],
    });
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'ServiceAccount', namespace: 'tenant-b', name: 'batch-scheduler' }],
        objects: [
          { kind: 'ClusterRole', name: 'custom-allocator' },
          { kind: 'ClusterRoleBinding', name: 'tenant-b-batch-scheduler' },
        ],
        message:
          'ServiceAccount tenant-b/batch-scheduler can update, patch resourceclaims/binding (cluster scope) through ClusterRoleBinding tenant-b-batch-scheduler → ClusterRole custom-allocator rule #0 (verbs [update, patch], apiGroups [resource.k8s.io], resources [resourceclaims/binding]). It can write status.allocation and status.reservedFor of any ResourceClaim: forge allocations, hand a device in use by one tenant to another, or reserve claims for arbitrary pods.',
        evidence: [
          {
            type: 'grant',
            binding: { kind: 'ClusterRoleBinding', name: 'tenant-b-batch-scheduler' },
            role: { kind: 'ClusterRole', name: 'custom-allocator' },
            ruleIndex: 0,
            rule: { verbs: ['update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/binding'] },
          },
        ],
        remediation:
          'Remove resourceclaims/binding from ClusterRole custom-allocator rule #0 or remove ServiceAccount tenant-b/batch-scheduler from ClusterRoleBinding tenant-b-batch-scheduler. If it is a legitimate scheduler or allocator, run it from a platform namespace and add "system:serviceaccount:tenant-b:batch-scheduler" to settings.allocatorIdentities.',
      },
    ]);
  });
  it('does not fire for the allocators, RoleBinding-only grants or admins', () => {
    const out = run(dra007, {
      namespaces: [namespace('tenant-a')],
      clusterRoles: [bindingRole, clusterAdmin],
      clusterRoleBindings: [
        crb('system:kube-scheduler', { kind: 'ClusterRole', name: 'claim-binding' }, [User('system:kube-scheduler')]),
        crb('system:controller:resource-claim-controller', { kind: 'ClusterRole', name: 'claim-binding' }, [SA('kube-system', 'resource-claim-controller')]),
        crb('admins', { kind: 'ClusterRole', name: 'cluster-admin' }, [Group('platform-admins')]),
      ],
      roleBindings: [rb('tenant-a', 'queue-binding', { kind: 'ClusterRole', name: 'claim-binding' }, [SA('tenant-a', 'queue-controller')])],
    });
    expect(out).toStrictEqual([]);
  });
});

describe('DRA008', () => {
  it('fires for a DRA component that can exec into pods cluster-wide', () => {
    const out = run(
      dra008,
      merge(driver, {
        clusterRoles: [clusterRole('plugin-debug', [{ verbs: ['create'], apiGroups: [''], resources: ['pods/exec'] }])],
        clusterRoleBindings: [crb('plugin-debug', { kind: 'ClusterRole', name: 'plugin-debug' }, [SA('drivers', 'plugin')])],
      }),
    );
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'ServiceAccount', namespace: 'drivers', name: 'plugin' }],
        objects: [
          { kind: 'ClusterRole', name: 'plugin-debug' },
          { kind: 'ClusterRoleBinding', name: 'plugin-debug' },
        ],
        message:
          'ServiceAccount drivers/plugin runs DRA driver pods (DaemonSet drivers/gpu-plugin), and can also exec or attach into pods in every namespace [create] through ClusterRoleBinding plugin-debug → ClusterRole plugin-debug rule #0 (verbs [create], apiGroups [""], resources [pods/exec]). A DRA component needs none of these; a compromise of it turns them into cluster-wide escalation.',
        evidence: [
          {
            type: 'grant',
            binding: { kind: 'ClusterRoleBinding', name: 'plugin-debug' },
            role: { kind: 'ClusterRole', name: 'plugin-debug' },
            ruleIndex: 0,
            rule: { verbs: ['create'], apiGroups: [''], resources: ['pods/exec'] },
          },
        ],
        remediation:
          'Remove these rules (or remove ServiceAccount drivers/plugin from the bindings): ClusterRole plugin-debug rule #0 via ClusterRoleBinding plugin-debug.',
      },
    ]);
  });
  it('does not fire for secrets in its own namespace, constrained node impersonation, or a non-component', () => {
    const out = run(
      dra008,
      merge(driver, {
        roles: [role('drivers', 'webhook-tls', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['secrets'] }])],
        clusterRoles: [
          clusterRole('node-impersonator', [{ verbs: ['impersonate:associated-node'], apiGroups: ['authentication.k8s.io'], resources: ['nodes'] }]),
          clusterRole('ns-writer', [{ verbs: ['update', 'patch'], apiGroups: [''], resources: ['namespaces'] }]),
        ],
        roleBindings: [rb('drivers', 'webhook-tls', { kind: 'Role', name: 'webhook-tls' }, [SA('drivers', 'plugin')])],
        clusterRoleBindings: [
          crb('node-impersonator', { kind: 'ClusterRole', name: 'node-impersonator' }, [SA('drivers', 'plugin')]),
          crb('ns-writer', { kind: 'ClusterRole', name: 'ns-writer' }, [SA('operators', 'gpu-operator')]),
        ],
      }),
    );
    expect(out).toStrictEqual([]);
  });
});

describe('DRA009', () => {
  const intel = sliceWriter('intel', 'intel-sa');
  const common = clusterRole('dra-driver-common', [{ verbs: ['get'], apiGroups: [''], resources: ['nodes'] }]);
  it('fires for one role bound to DRA components of two namespaces', () => {
    const out = run(
      dra009,
      merge(driver, {
        clusterRoles: [intel.clusterRole, common],
        clusterRoleBindings: [
          intel.binding,
          crb('dra-driver-common', { kind: 'ClusterRole', name: 'dra-driver-common' }, [SA('drivers', 'plugin'), SA('intel', 'intel-sa')]),
        ],
      }),
    );
    expect(out).toStrictEqual([
      {
        subjects: [
          { kind: 'ServiceAccount', namespace: 'drivers', name: 'plugin' },
          { kind: 'ServiceAccount', namespace: 'intel', name: 'intel-sa' },
        ],
        objects: [
          { kind: 'ClusterRole', name: 'dra-driver-common' },
          { kind: 'ClusterRoleBinding', name: 'dra-driver-common' },
        ],
        message:
          'ClusterRole dra-driver-common is bound to DRA components of 2 namespaces (drivers, intel): ServiceAccount drivers/plugin, ServiceAccount intel/intel-sa, through ClusterRoleBinding dra-driver-common.',
        evidence: [
          {
            type: 'field',
            object: { kind: 'ClusterRoleBinding', name: 'dra-driver-common' },
            path: 'subjects',
            value: [
              { kind: 'ServiceAccount', namespace: 'drivers', name: 'plugin' },
              { kind: 'ServiceAccount', namespace: 'intel', name: 'intel-sa' },
            ],
          },
        ],
        remediation:
          'Give each driver its own role, scoped to its driver name (resourceNames on resourceclaims/driver), e.g. dra-driver-common-drivers, dra-driver-common-intel, and bind each to its own service account only.',
      },
    ]);
  });
  it('does not fire for components of one namespace plus non-components elsewhere', () => {
    const out = run(
      dra009,
      merge(driver, {
        clusterRoles: [sliceWriter('drivers', 'controller').clusterRole, common],
        clusterRoleBindings: [
          sliceWriter('drivers', 'controller').binding,
          crb('dra-driver-common', { kind: 'ClusterRole', name: 'dra-driver-common' }, [
            SA('drivers', 'plugin'),
            SA('drivers', 'controller'),
            SA('platform', 'dcgm-exporter'),
            Group('sre'),
          ]),
        ],
      }),
    );
    expect(out).toStrictEqual([]);
  });
});

// boundRoles is listed once per analysis.
describe('boundRoles', () => {
  it('is one list per analysis', () => {
    const ctx = contextOf(
      merge(driver, {
        clusterRoles: [clusterRole('r', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])],
        clusterRoleBindings: [
          crb('r-users', { kind: 'ClusterRole', name: 'r' }, [User('system:serviceaccount:drivers:plugin'), Group('ops')]),
          crb('r-empty', { kind: 'ClusterRole', name: 'r' }, []),
        ],
        roles: [role('tenant-a', 'local', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])],
        roleBindings: [rb('tenant-a', 'local', { kind: 'Role', name: 'local' }, [SA('tenant-a', 'app')])],
      }),
    );
    const bound = boundRoles(ctx);
    expect(boundRoles(ctx)).toBe(bound);
    expect(bound.map((b) => b.role.key).length).toBeGreaterThanOrEqual(3);
  });
});
