import { describe, expect, it } from 'vitest';

import { claimSpecRequestsAdminAccess } from './normalize-dra';
import { normalizeObject } from './normalize-object';
import { SnapshotError } from './snapshot-error';
import type { ResourceClaim, ResourceClaimTemplate, ResourceSlice, DeviceClass } from './types';

// Fresh objects per call: normalisation consumes its input.
const meta = () => ({
  name: 'train-gpu',
  namespace: 'tenant-c',
  uid: '5b0c7f0e-1111-4e6f-9a55-0d6d8f3a2c10',
  creationTimestamp: '2026-07-01T10:00:00Z',
  resourceVersion: '48211',
  managedFields: [{ manager: 'kubectl-client-side-apply', operation: 'Update', fieldsV1: { 'f:spec': {} } }],
});

const status = () => ({
  allocation: {
    devices: {
      results: [{ request: 'gpu', driver: 'gpu.nvidia.com', pool: 'gpu-h100-01', device: 'gpu-3', adminAccess: true }],
      config: [
        {
          source: 'FromClass',
          requests: ['gpu'],
          opaque: { driver: 'gpu.nvidia.com', parameters: { apiVersion: 'resource.nvidia.com/v1beta1', kind: 'GpuConfig' } },
        },
      ],
    },
    nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['gpu-h100-01'] }] }] },
    allocationTimestamp: '2026-07-01T10:00:02Z',
  },
  reservedFor: [{ resource: 'pods', name: 'trainer-0', uid: '0e2b7c1c-2222-4d4c-8d1b-6f5a1c9e7a01' }],
  devices: [
    {
      driver: 'gpu.nvidia.com',
      pool: 'gpu-h100-01',
      device: 'gpu-3',
      conditions: [{ type: 'Ready', status: 'True', reason: 'Prepared', lastTransitionTime: '2026-07-01T10:00:03Z' }],
      data: { uuid: 'GPU-3f1c' },
    },
  ],
});

const selectors = () => [{ cel: { expression: "device.attributes['gpu.nvidia.com'].productName == 'NVIDIA H100 80GB HBM3'" } }];
const tolerations = () => [{ key: 'gpu.nvidia.com/xid', operator: 'Exists', effect: 'NoSchedule' }];

function claimV1beta1(): Record<string, unknown> {
  return {
    apiVersion: 'resource.k8s.io/v1beta1',
    kind: 'ResourceClaim',
    metadata: meta(),
    spec: {
      devices: {
        requests: [
          {
            name: 'gpu',
            deviceClassName: 'gpu.nvidia.com',
            selectors: selectors(),
            allocationMode: 'ExactCount',
            count: 2,
            adminAccess: true,
            tolerations: tolerations(),
            capacity: { requests: { memory: '40Gi' } },
          },
          {
            name: 'any-gpu',
            firstAvailable: [
              { name: 'big', deviceClassName: 'gpu.nvidia.com', count: 1 },
              { name: 'small', deviceClassName: 'mig.nvidia.com', allocationMode: 'All' },
            ],
          },
        ],
        constraints: [{ requests: ['gpu'], matchAttribute: 'resource.kubernetes.io/pcieRoot' }],
        config: [{ requests: ['gpu'], opaque: { driver: 'gpu.nvidia.com', parameters: { sharing: { strategy: 'TimeSlicing' } } } }],
      },
    },
    status: status(),
  };
}

function claimV1beta2(version = 'resource.k8s.io/v1beta2'): Record<string, unknown> {
  return {
    apiVersion: version,
    kind: 'ResourceClaim',
    metadata: meta(),
    spec: {
      devices: {
        requests: [
          {
            name: 'gpu',
            exactly: {
              deviceClassName: 'gpu.nvidia.com',
              selectors: selectors(),
              allocationMode: 'ExactCount',
              count: 2,
              adminAccess: true,
              tolerations: tolerations(),
              capacity: { requests: { memory: '40Gi' } },
            },
          },
          {
            name: 'any-gpu',
            firstAvailable: [
              { name: 'big', deviceClassName: 'gpu.nvidia.com', count: 1 },
              { name: 'small', deviceClassName: 'mig.nvidia.com', allocationMode: 'All' },
            ],
          },
        ],
        constraints: [{ requests: ['gpu'], matchAttribute: 'resource.kubernetes.io/pcieRoot' }],
        config: [{ requests: ['gpu'], opaque: { driver: 'gpu.nvidia.com', parameters: { sharing: { strategy: 'TimeSlicing' } } } }],
      },
    },
    status: status(),
  };
}

const expectedClaim: ResourceClaim = {
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaim',
  metadata: {
    name: 'train-gpu',
    namespace: 'tenant-c',
    uid: '5b0c7f0e-1111-4e6f-9a55-0d6d8f3a2c10',
    creationTimestamp: '2026-07-01T10:00:00Z',
    resourceVersion: '48211',
  },
  spec: {
    devices: {
      requests: [
        {
          name: 'gpu',
          exactly: {
            deviceClassName: 'gpu.nvidia.com',
            selectors: [{ cel: { expression: "device.attributes['gpu.nvidia.com'].productName == 'NVIDIA H100 80GB HBM3'" } }],
            allocationMode: 'ExactCount',
            count: 2,
            adminAccess: true,
            tolerations: [{ key: 'gpu.nvidia.com/xid', operator: 'Exists', effect: 'NoSchedule' }],
            capacity: { requests: { memory: '40Gi' } },
          },
        },
        {
          name: 'any-gpu',
          firstAvailable: [
            { name: 'big', deviceClassName: 'gpu.nvidia.com', count: 1 },
            { name: 'small', deviceClassName: 'mig.nvidia.com', allocationMode: 'All' },
          ],
        },
      ],
      constraints: [{ requests: ['gpu'], matchAttribute: 'resource.kubernetes.io/pcieRoot' }],
      config: [{ requests: ['gpu'], opaque: { driver: 'gpu.nvidia.com', parameters: { sharing: { strategy: 'TimeSlicing' } } } }],
    },
  },
  status: {
    allocation: {
      devices: {
        results: [{ request: 'gpu', driver: 'gpu.nvidia.com', pool: 'gpu-h100-01', device: 'gpu-3', adminAccess: true }],
        config: [
          {
            source: 'FromClass',
            requests: ['gpu'],
            opaque: { driver: 'gpu.nvidia.com', parameters: { apiVersion: 'resource.nvidia.com/v1beta1', kind: 'GpuConfig' } },
          },
        ],
      },
      nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['gpu-h100-01'] }] }] },
      allocationTimestamp: '2026-07-01T10:00:02Z',
    },
    reservedFor: [{ resource: 'pods', name: 'trainer-0', uid: '0e2b7c1c-2222-4d4c-8d1b-6f5a1c9e7a01' }],
    devices: [
      {
        driver: 'gpu.nvidia.com',
        pool: 'gpu-h100-01',
        device: 'gpu-3',
        conditions: [{ type: 'Ready', status: 'True', reason: 'Prepared' }],
        data: { uuid: 'GPU-3f1c' },
      },
    ],
  },
};

describe('ResourceClaim normalisation', () => {
  it.each([
    ['v1beta1', claimV1beta1, 'resource.k8s.io/v1beta1'],
    ['v1beta2', () => claimV1beta2(), 'resource.k8s.io/v1beta2'],
    ['v1', () => claimV1beta2('resource.k8s.io/v1'), 'resource.k8s.io/v1'],
  ])('%s reads as the same v1 object', (_v, make, apiVersion) => {
    expect(normalizeObject(make(), 'ResourceClaim', apiVersion)).toStrictEqual(expectedClaim);
  });

  it('finds adminAccess whichever shape it was written in', () => {
    const fromFlat = normalizeObject(claimV1beta1(), 'ResourceClaim', 'resource.k8s.io/v1beta1') as ResourceClaim;
    const fromExactly = normalizeObject(claimV1beta2(), 'ResourceClaim', 'resource.k8s.io/v1beta2') as ResourceClaim;
    expect(claimSpecRequestsAdminAccess(fromFlat.spec)).toBe(true);
    expect(claimSpecRequestsAdminAccess(fromExactly.spec)).toBe(true);
    const plain = claimV1beta1();
    const request = (plain.spec as { devices: { requests: Record<string, unknown>[] } }).devices.requests[0];
    delete request.adminAccess;
    const without = normalizeObject(plain, 'ResourceClaim', 'resource.k8s.io/v1beta1') as ResourceClaim;
    expect(claimSpecRequestsAdminAccess(without.spec)).toBe(false);
    expect(without.spec.devices?.requests?.[0].exactly).toStrictEqual({
      deviceClassName: 'gpu.nvidia.com',
      selectors: [{ cel: { expression: "device.attributes['gpu.nvidia.com'].productName == 'NVIDIA H100 80GB HBM3'" } }],
      allocationMode: 'ExactCount',
      count: 2,
      tolerations: [{ key: 'gpu.nvidia.com/xid', operator: 'Exists', effect: 'NoSchedule' }],
      capacity: { requests: { memory: '40Gi' } },
    });
  });

  it('a v1beta1 firstAvailable request with an empty deviceClassName gets no `exactly`', () => {
    const raw = {
      apiVersion: 'resource.k8s.io/v1beta1',
      kind: 'ResourceClaim',
      metadata: { name: 'c', namespace: 'n' },
      spec: { devices: { requests: [{ name: 'r', deviceClassName: '', firstAvailable: [{ name: 'a', deviceClassName: 'x.example.com' }] }] } },
    };
    const claim = normalizeObject(raw, 'ResourceClaim', 'resource.k8s.io/v1beta1') as ResourceClaim;
    expect(claim.spec.devices?.requests).toStrictEqual([{ name: 'r', firstAvailable: [{ name: 'a', deviceClassName: 'x.example.com' }] }]);
  });

  it('names the field when a v1beta1 flat request has a wrong type', () => {
    const raw = claimV1beta1();
    (raw.spec as { devices: { requests: Record<string, unknown>[] } }).devices.requests[0].adminAccess = 'yes';
    expect(() => normalizeObject(raw, 'ResourceClaim', 'resource.k8s.io/v1beta1')).toThrow(SnapshotError);
    const raw2 = claimV1beta1();
    (raw2.spec as { devices: { requests: Record<string, unknown>[] } }).devices.requests[0].adminAccess = 'yes';
    try {
      normalizeObject(raw2, 'ResourceClaim', 'resource.k8s.io/v1beta1');
    } catch (e) {
      expect((e as SnapshotError).path).toBe('spec.devices.requests[0].adminAccess');
      expect((e as SnapshotError).reason).toBe('expected a boolean (got a string)');
    }
  });
});

describe('ResourceClaimTemplate normalisation', () => {
  const template = (apiVersion: string, flat: boolean) => ({
    apiVersion,
    kind: 'ResourceClaimTemplate',
    metadata: { name: 'dcgm-admin', namespace: 'gpu-operator' },
    spec: {
      metadata: { labels: { app: 'dcgm' } },
      spec: {
        devices: {
          requests: [
            flat
              ? { name: 'all-gpus', deviceClassName: 'gpu.nvidia.com', allocationMode: 'All', adminAccess: true }
              : { name: 'all-gpus', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'All', adminAccess: true } },
          ],
        },
      },
    },
  });
  const expected: ResourceClaimTemplate = {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaimTemplate',
    metadata: { name: 'dcgm-admin', namespace: 'gpu-operator' },
    spec: {
      metadata: { labels: { app: 'dcgm' } },
      spec: { devices: { requests: [{ name: 'all-gpus', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'All', adminAccess: true } }] } },
    },
  };
  it.each([
    ['resource.k8s.io/v1beta1', true],
    ['resource.k8s.io/v1beta2', false],
    ['resource.k8s.io/v1', false],
  ])('%s reads as v1', (apiVersion, flat) => {
    expect(normalizeObject(template(apiVersion, flat), 'ResourceClaimTemplate', apiVersion)).toStrictEqual(expected);
  });
});

describe('ResourceSlice normalisation', () => {
  const device = (basic: boolean) => {
    const body = {
      attributes: {
        type: { string: 'gpu' },
        productName: { string: 'NVIDIA H100 80GB HBM3' },
        index: { int: 3 },
        driverVersion: { version: '580.65.6' },
        'resource.kubernetes.io/pcieRoot': { string: 'pci0000:00' },
      },
      capacity: { memory: { value: '80Gi' } },
      taints: [{ key: 'gpu.nvidia.com/xid', value: '79', effect: 'NoSchedule', timeAdded: '2026-07-01T09:00:00Z' }],
    };
    return basic ? { name: 'gpu-3', basic: body } : { name: 'gpu-3', ...body };
  };
  const slice = (apiVersion: string, basic: boolean) => ({
    apiVersion,
    kind: 'ResourceSlice',
    metadata: {
      name: 'gpu-h100-01-gpu.nvidia.com-x7k2p',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'gpu-h100-01', uid: 'n-1', controller: true }],
    },
    spec: {
      driver: 'gpu.nvidia.com',
      nodeName: 'gpu-h100-01',
      pool: { name: 'gpu-h100-01', generation: 4, resourceSliceCount: 1 },
      devices: [device(basic)],
    },
  });
  const expected: ResourceSlice = {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: {
      name: 'gpu-h100-01-gpu.nvidia.com-x7k2p',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'gpu-h100-01', uid: 'n-1', controller: true }],
    },
    spec: {
      driver: 'gpu.nvidia.com',
      nodeName: 'gpu-h100-01',
      pool: { name: 'gpu-h100-01', generation: 4, resourceSliceCount: 1 },
      devices: [
        {
          name: 'gpu-3',
          attributes: {
            type: { string: 'gpu' },
            productName: { string: 'NVIDIA H100 80GB HBM3' },
            index: { int: 3 },
            driverVersion: { version: '580.65.6' },
            'resource.kubernetes.io/pcieRoot': { string: 'pci0000:00' },
          },
          capacity: { memory: { value: '80Gi' } },
          taints: [{ key: 'gpu.nvidia.com/xid', value: '79', effect: 'NoSchedule' }],
        },
      ],
    },
  };
  it.each([
    ['resource.k8s.io/v1beta1', true],
    ['resource.k8s.io/v1beta2', false],
    ['resource.k8s.io/v1', false],
  ])('%s reads as v1', (apiVersion, basic) => {
    expect(normalizeObject(slice(apiVersion, basic), 'ResourceSlice', apiVersion)).toStrictEqual(expected);
  });

  it('treats the v1beta1 empty nodeName as unset and keeps allNodes', () => {
    const raw = {
      apiVersion: 'resource.k8s.io/v1beta1',
      kind: 'ResourceSlice',
      metadata: { name: 'net' },
      spec: {
        driver: 'net.example.com',
        nodeName: '',
        allNodes: true,
        pool: { name: 'fabric', generation: 1, resourceSliceCount: 1 },
        devices: [{ name: 'nic-0', basic: { nodeName: '' } }],
      },
    };
    const out = normalizeObject(raw, 'ResourceSlice', 'resource.k8s.io/v1beta1') as ResourceSlice;
    expect(out.spec).toStrictEqual({
      driver: 'net.example.com',
      pool: { name: 'fabric', generation: 1, resourceSliceCount: 1 },
      allNodes: true,
      devices: [{ name: 'nic-0' }],
    });
  });

  it('reads a YAML-number capacity and a bare-quantity capacity as strings', () => {
    const raw = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceSlice',
      metadata: { name: 's' },
      spec: {
        driver: 'd',
        nodeName: 'n',
        pool: { name: 'n', generation: 1, resourceSliceCount: 1 },
        devices: [{ name: 'a', capacity: { cores: { value: 8 }, memory: '16Gi' } }],
      },
    };
    const out = normalizeObject(raw, 'ResourceSlice', 'resource.k8s.io/v1') as ResourceSlice;
    expect(out.spec.devices?.[0].capacity).toStrictEqual({ cores: { value: '8' }, memory: { value: '16Gi' } });
  });
});

describe('DeviceClass normalisation', () => {
  const deviceClass = (apiVersion: string) => ({
    apiVersion,
    kind: 'DeviceClass',
    metadata: { name: 'gpu.nvidia.com', annotations: { 'dra-posture.io/zero-on-release': 'true' } },
    spec: {
      selectors: [{ cel: { expression: "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'" } }],
      config: [{ opaque: { driver: 'zeroing.platform.example.com', parameters: { resetPolicy: 'ZeroVRAMOnRelease' } } }],
      extendedResourceName: 'nvidia.com/gpu',
    },
  });
  it.each(['resource.k8s.io/v1beta1', 'resource.k8s.io/v1beta2', 'resource.k8s.io/v1'])('%s reads as v1', (apiVersion) => {
    const expected = deviceClass('resource.k8s.io/v1') as DeviceClass;
    expect(normalizeObject(deviceClass(apiVersion), 'DeviceClass', apiVersion)).toStrictEqual(expected);
  });

  it('refuses a __proto__ key inside opaque parameters', () => {
    const raw = deviceClass('resource.k8s.io/v1');
    raw.spec.config[0].opaque.parameters = JSON.parse('{"__proto__": {"polluted": true}}');
    expect(() => normalizeObject(raw, 'DeviceClass', 'resource.k8s.io/v1')).toThrow('spec.config[0].opaque.parameters.__proto__: forbidden key');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
