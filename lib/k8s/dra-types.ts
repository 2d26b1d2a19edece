import type { KubeObject, ObjectMeta, NodeSelector, Taint } from './types';

// ---------------------------------------------------------------- resource.k8s.io (normalised to v1)

export interface CelSelector {
  cel?: { expression: string };
}

export interface DeviceToleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface ExactDeviceRequest {
  deviceClassName: string;
  selectors?: CelSelector[];
  allocationMode?: 'ExactCount' | 'All' | string;
  count?: number;
  adminAccess?: boolean;
  tolerations?: DeviceToleration[];
  capacity?: { requests?: Record<string, string> };
}

export interface DeviceSubRequest {
  name: string;
  deviceClassName: string;
  selectors?: CelSelector[];
  allocationMode?: 'ExactCount' | 'All' | string;
  count?: number;
  tolerations?: DeviceToleration[];
  capacity?: { requests?: Record<string, string> };
}

export interface DeviceRequest {
  name: string;
  exactly?: ExactDeviceRequest;
  firstAvailable?: DeviceSubRequest[];
}

export interface OpaqueConfig {
  driver: string;
  parameters?: unknown;
}

export interface DeviceClaimConfiguration {
  requests?: string[];
  opaque?: OpaqueConfig;
}

export interface ResourceClaimSpec {
  devices?: {
    requests?: DeviceRequest[];
    constraints?: { requests?: string[]; matchAttribute?: string; distinctAttribute?: string }[];
    config?: DeviceClaimConfiguration[];
  };
}

export interface DeviceRequestAllocationResult {
  request: string;
  driver: string;
  pool: string;
  device: string;
  adminAccess?: boolean;
  shareID?: string;
}

export interface AllocatedDeviceStatus {
  driver: string;
  pool: string;
  device: string;
  shareID?: string;
  conditions?: { type: string; status: string; reason?: string; message?: string }[];
  data?: unknown;
}

export interface ResourceClaimStatus {
  allocation?: {
    devices?: { results?: DeviceRequestAllocationResult[]; config?: unknown[] };
    nodeSelector?: NodeSelector;
    allocationTimestamp?: string;
  };
  reservedFor?: { apiGroup?: string; resource: string; name: string; uid: string }[];
  devices?: AllocatedDeviceStatus[];
}

export interface ResourceClaim extends KubeObject {
  kind: 'ResourceClaim';
  spec: ResourceClaimSpec;
  status?: ResourceClaimStatus;
}

export interface ResourceClaimTemplate extends KubeObject {
  kind: 'ResourceClaimTemplate';
  spec: { metadata?: Partial<ObjectMeta>; spec: ResourceClaimSpec };
}

export interface Device {
  name: string;
  attributes?: Record<string, { int?: number; bool?: boolean; string?: string; version?: string }>;
  capacity?: Record<string, { value: string }>;
  taints?: Taint[];
  nodeName?: string;
  nodeSelector?: NodeSelector;
  allNodes?: boolean;
}

export interface ResourceSlice extends KubeObject {
  kind: 'ResourceSlice';
  spec: {
    driver: string;
    pool: { name: string; generation: number; resourceSliceCount: number };
    nodeName?: string;
    nodeSelector?: NodeSelector;
    allNodes?: boolean;
    perDeviceNodeSelection?: boolean;
    devices?: Device[];
  };
}

export interface DeviceClass extends KubeObject {
  kind: 'DeviceClass';
  spec?: {
    selectors?: CelSelector[];
    config?: { opaque?: OpaqueConfig }[];
    extendedResourceName?: string;
  };
}
