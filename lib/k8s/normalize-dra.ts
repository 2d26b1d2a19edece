// resource.k8s.io objects of any served version (v1, v1beta2, v1beta1) read into the v1 shape, so
// the engine only ever sees v1. Differences handled (reference/dra-facts.md §3):
// - v1beta1 requests are flat (deviceClassName, selectors, count, adminAccess... on the request
//   itself); v1beta2 and v1 wrap them in `exactly`. The rule: `exactly` if set, else the flat
//   fields if `deviceClassName` is set, and `firstAvailable` in every case it is present.
// - v1beta1 slice devices keep their fields under `basic`; later versions have them flat.
// - v1beta1 slice `nodeName` is a plain string where "" means unset; later versions use a pointer.
// adminAccess therefore ends up in `exactly.adminAccess` whichever way it was written.

import { normalizeConditions, normalizeMeta, normalizeNodeSelector, normalizePartialMeta, normalizeTaints } from './normalize-common';
import {
  asObject,
  cloneJson,
  enter,
  fail,
  isForbiddenKey,
  keySegment,
  leave,
  optArray,
  optBoolean,
  optNumber,
  optObject,
  optQuantity,
  optQuantityMap,
  optString,
  optStringArray,
  reqNumber,
  reqObject,
  reqString,
  type RawObject,
} from './normalize-helpers';
import type {
  AllocatedDeviceStatus,
  CelSelector,
  Device,
  DeviceClaimConfiguration,
  DeviceClass,
  DeviceRequest,
  DeviceRequestAllocationResult,
  DeviceSubRequest,
  DeviceToleration,
  ExactDeviceRequest,
  OpaqueConfig,
  ResourceClaim,
  ResourceClaimSpec,
  ResourceClaimStatus,
  ResourceClaimTemplate,
  ResourceSlice,
} from './types';

export const DRA_GROUP = 'resource.k8s.io';
export const DRA_API_VERSION = 'resource.k8s.io/v1';

function normalizeSelectors(o: RawObject): CelSelector[] | undefined {
  const list = optArray(o, 'selectors');
  if (list === undefined) return undefined;
  enter('selectors');
  const out: CelSelector[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    const s = asObject(list[i]);
    const selector: CelSelector = {};
    const cel = optObject(s, 'cel');
    if (cel !== undefined) {
      enter('cel');
      selector.cel = { expression: reqString(cel, 'expression') };
      leave();
    }
    out.push(selector);
    leave();
  }
  leave();
  return out;
}

function normalizeTolerations(o: RawObject): DeviceToleration[] | undefined {
  const list = optArray(o, 'tolerations');
  if (list === undefined) return undefined;
  enter('tolerations');
  const out: DeviceToleration[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    const t = asObject(list[i]);
    const toleration: DeviceToleration = {};
    const key = optString(t, 'key');
    if (key !== undefined) toleration.key = key;
    const operator = optString(t, 'operator');
    if (operator !== undefined) toleration.operator = operator;
    const value = optString(t, 'value');
    if (value !== undefined) toleration.value = value;
    const effect = optString(t, 'effect');
    if (effect !== undefined) toleration.effect = effect;
    const seconds = optNumber(t, 'tolerationSeconds');
    if (seconds !== undefined) toleration.tolerationSeconds = seconds;
    out.push(toleration);
    leave();
  }
  leave();
  return out;
}

function normalizeCapacityRequests(o: RawObject): { requests?: Record<string, string> } | undefined {
  const capacity = optObject(o, 'capacity');
  if (capacity === undefined) return undefined;
  enter('capacity');
  const out: { requests?: Record<string, string> } = {};
  const requests = optQuantityMap(capacity, 'requests');
  if (requests !== undefined) out.requests = requests;
  leave();
  return out;
}

/** The fields `exactly` and a firstAvailable subrequest share. */
function fillRequestBody(r: RawObject, out: ExactDeviceRequest | DeviceSubRequest): void {
  const selectors = normalizeSelectors(r);
  if (selectors !== undefined) out.selectors = selectors;
  const allocationMode = optString(r, 'allocationMode');
  if (allocationMode !== undefined) out.allocationMode = allocationMode;
  const count = optNumber(r, 'count');
  if (count !== undefined) out.count = count;
  const tolerations = normalizeTolerations(r);
  if (tolerations !== undefined) out.tolerations = tolerations;
  const capacity = normalizeCapacityRequests(r);
  if (capacity !== undefined) out.capacity = capacity;
}

function normalizeExact(r: RawObject): ExactDeviceRequest {
  const out: ExactDeviceRequest = { deviceClassName: reqString(r, 'deviceClassName') };
  fillRequestBody(r, out);
  const adminAccess = optBoolean(r, 'adminAccess');
  if (adminAccess !== undefined) out.adminAccess = adminAccess;
  return out;
}

function normalizeFirstAvailable(r: RawObject): DeviceSubRequest[] | undefined {
  const list = optArray(r, 'firstAvailable');
  if (list === undefined) return undefined;
  enter('firstAvailable');
  const out: DeviceSubRequest[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    const s = asObject(list[i]);
    const sub: DeviceSubRequest = { name: reqString(s, 'name'), deviceClassName: reqString(s, 'deviceClassName') };
    fillRequestBody(s, sub);
    out.push(sub);
    leave();
  }
  leave();
  return out;
}

function normalizeRequest(r: RawObject): DeviceRequest {
  const out: DeviceRequest = { name: reqString(r, 'name') };
  const exactly = optObject(r, 'exactly');
  if (exactly !== undefined) {
    enter('exactly');
    out.exactly = normalizeExact(exactly);
    leave();
  } else if (typeof r.deviceClassName === 'string' && r.deviceClassName !== '') {
    // v1beta1: the request itself is the body.
    out.exactly = normalizeExact(r);
  }
  const firstAvailable = normalizeFirstAvailable(r);
  if (firstAvailable !== undefined) out.firstAvailable = firstAvailable;
  return out;
}

function normalizeOpaque(o: RawObject): OpaqueConfig | undefined {
  const opaque = optObject(o, 'opaque');
  if (opaque === undefined) return undefined;
  enter('opaque');
  const out: OpaqueConfig = { driver: reqString(opaque, 'driver') };
  const parameters = opaque.parameters;
  if (parameters !== undefined && parameters !== null) out.parameters = cloneJson(parameters, 'parameters');
  leave();
  return out;
}

function normalizeClaimSpecValue(spec: RawObject): ResourceClaimSpec {
  const out: ResourceClaimSpec = {};
  const devices = optObject(spec, 'devices');
  if (devices === undefined) return out;
  enter('devices');
  const d: NonNullable<ResourceClaimSpec['devices']> = {};
  const requests = optArray(devices, 'requests');
  if (requests !== undefined) {
    enter('requests');
    const list: DeviceRequest[] = [];
    for (let i = 0; i < requests.length; i++) {
      enter(i);
      list.push(normalizeRequest(asObject(requests[i])));
      leave();
    }
    leave();
    d.requests = list;
  }
  const constraints = optArray(devices, 'constraints');
  if (constraints !== undefined) {
    enter('constraints');
    const list: NonNullable<NonNullable<ResourceClaimSpec['devices']>['constraints']> = [];
    for (let i = 0; i < constraints.length; i++) {
      enter(i);
      const c = asObject(constraints[i]);
      const constraint: (typeof list)[number] = {};
      const reqs = optStringArray(c, 'requests');
      if (reqs !== undefined) constraint.requests = reqs;
      const matchAttribute = optString(c, 'matchAttribute');
      if (matchAttribute !== undefined) constraint.matchAttribute = matchAttribute;
      const distinctAttribute = optString(c, 'distinctAttribute');
      if (distinctAttribute !== undefined) constraint.distinctAttribute = distinctAttribute;
      list.push(constraint);
      leave();
    }
    leave();
    d.constraints = list;
  }
  const config = optArray(devices, 'config');
  if (config !== undefined) {
    enter('config');
    const list: DeviceClaimConfiguration[] = [];
    for (let i = 0; i < config.length; i++) {
      enter(i);
      const c = asObject(config[i]);
      const entry: DeviceClaimConfiguration = {};
      const reqs = optStringArray(c, 'requests');
      if (reqs !== undefined) entry.requests = reqs;
      const opaque = normalizeOpaque(c);
      if (opaque !== undefined) entry.opaque = opaque;
      list.push(entry);
      leave();
    }
    leave();
    d.config = list;
  }
  out.devices = d;
  leave();
  return out;
}

function normalizeClaimSpec(o: RawObject, key: string): ResourceClaimSpec {
  const spec = reqObject(o, key);
  enter(key);
  const out = normalizeClaimSpecValue(spec);
  leave();
  return out;
}

function normalizeAllocationResults(devices: RawObject): DeviceRequestAllocationResult[] | undefined {
  const list = optArray(devices, 'results');
  if (list === undefined) return undefined;
  enter('results');
  const out: DeviceRequestAllocationResult[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    const r = asObject(list[i]);
    const result: DeviceRequestAllocationResult = {
      request: reqString(r, 'request'),
      driver: reqString(r, 'driver'),
      pool: reqString(r, 'pool'),
      device: reqString(r, 'device'),
    };
    const adminAccess = optBoolean(r, 'adminAccess');
    if (adminAccess !== undefined) result.adminAccess = adminAccess;
    const shareID = optString(r, 'shareID');
    if (shareID !== undefined) result.shareID = shareID;
    out.push(result);
    leave();
  }
  leave();
  return out;
}

function normalizeClaimStatus(o: RawObject): ResourceClaimStatus | undefined {
  const status = optObject(o, 'status');
  if (status === undefined) return undefined;
  enter('status');
  const out: ResourceClaimStatus = {};
  const allocation = optObject(status, 'allocation');
  if (allocation !== undefined) {
    enter('allocation');
    const a: NonNullable<ResourceClaimStatus['allocation']> = {};
    const devices = optObject(allocation, 'devices');
    if (devices !== undefined) {
      enter('devices');
      const d: NonNullable<NonNullable<ResourceClaimStatus['allocation']>['devices']> = {};
      const results = normalizeAllocationResults(devices);
      if (results !== undefined) d.results = results;
      const config = optArray(devices, 'config');
      if (config !== undefined) d.config = cloneJson(config, 'config') as unknown[];
      a.devices = d;
      leave();
    }
    const nodeSelector = normalizeNodeSelector(allocation, 'nodeSelector');
    if (nodeSelector !== undefined) a.nodeSelector = nodeSelector;
    const allocationTimestamp = optString(allocation, 'allocationTimestamp');
    if (allocationTimestamp !== undefined) a.allocationTimestamp = allocationTimestamp;
    out.allocation = a;
    leave();
  }
  const reservedFor = optArray(status, 'reservedFor');
  if (reservedFor !== undefined) {
    enter('reservedFor');
    const list: NonNullable<ResourceClaimStatus['reservedFor']> = [];
    for (let i = 0; i < reservedFor.length; i++) {
      enter(i);
      const r = asObject(reservedFor[i]);
      const ref: (typeof list)[number] = { resource: reqString(r, 'resource'), name: reqString(r, 'name'), uid: reqString(r, 'uid') };
      const apiGroup = optString(r, 'apiGroup');
      if (apiGroup !== undefined) ref.apiGroup = apiGroup;
      list.push(ref);
      leave();
    }
    leave();
    out.reservedFor = list;
  }
  const devices = optArray(status, 'devices');
  if (devices !== undefined) {
    enter('devices');
    const list: AllocatedDeviceStatus[] = [];
    for (let i = 0; i < devices.length; i++) {
      enter(i);
      const d = asObject(devices[i]);
      const device: AllocatedDeviceStatus = { driver: reqString(d, 'driver'), pool: reqString(d, 'pool'), device: reqString(d, 'device') };
      const shareID = optString(d, 'shareID');
      if (shareID !== undefined) device.shareID = shareID;
      const conditions = normalizeConditions(d, 'conditions');
      if (conditions !== undefined) device.conditions = conditions;
      if (d.data !== undefined && d.data !== null) device.data = cloneJson(d.data, 'data');
      list.push(device);
      leave();
    }
    leave();
    out.devices = list;
  }
  leave();
  return out;
}

export function normalizeResourceClaim(o: RawObject): ResourceClaim {
  const out: ResourceClaim = {
    apiVersion: DRA_API_VERSION,
    kind: 'ResourceClaim',
    metadata: normalizeMeta(o),
    spec: normalizeClaimSpec(o, 'spec'),
  };
  const status = normalizeClaimStatus(o);
  if (status !== undefined) out.status = status;
  return out;
}

export function normalizeResourceClaimTemplate(o: RawObject): ResourceClaimTemplate {
  const spec = reqObject(o, 'spec');
  enter('spec');
  const templateSpec: ResourceClaimTemplate['spec'] = { spec: normalizeClaimSpec(spec, 'spec') };
  const metadata = normalizePartialMeta(spec, 'metadata');
  if (metadata !== undefined) templateSpec.metadata = metadata;
  leave();
  return { apiVersion: DRA_API_VERSION, kind: 'ResourceClaimTemplate', metadata: normalizeMeta(o), spec: templateSpec };
}

type DeviceAttribute = NonNullable<Device['attributes']>[string];

function normalizeAttributes(d: RawObject): Device['attributes'] {
  const attributes = optObject(d, 'attributes');
  if (attributes === undefined) return undefined;
  enter('attributes');
  const out: Record<string, DeviceAttribute> = {};
  for (const name in attributes) {
    if (isForbiddenKey(name)) fail(keySegment(name), 'forbidden key');
    enter(keySegment(name));
    const a = asObject(attributes[name]);
    const attribute: DeviceAttribute = {};
    const int = optNumber(a, 'int');
    if (int !== undefined) attribute.int = int;
    const bool = optBoolean(a, 'bool');
    if (bool !== undefined) attribute.bool = bool;
    const string = optString(a, 'string');
    if (string !== undefined) attribute.string = string;
    const version = optString(a, 'version');
    if (version !== undefined) attribute.version = version;
    out[name] = attribute;
    leave();
  }
  leave();
  return out;
}

function normalizeDeviceCapacity(d: RawObject): Device['capacity'] {
  const capacity = optObject(d, 'capacity');
  if (capacity === undefined) return undefined;
  enter('capacity');
  const out: Record<string, { value: string }> = {};
  for (const name in capacity) {
    if (isForbiddenKey(name)) fail(keySegment(name), 'forbidden key');
    const c = capacity[name];
    const segment = keySegment(name);
    // v1alpha3-era dumps wrote the quantity directly instead of `{value}`.
    if (typeof c === 'string' || typeof c === 'number') {
      out[name] = { value: optQuantity(capacity, name) as string };
      continue;
    }
    enter(segment);
    const entry = asObject(c);
    const value = optQuantity(entry, 'value');
    if (value === undefined) fail('value', 'missing (expected a quantity string)');
    out[name] = { value };
    leave();
  }
  leave();
  return out;
}

function optSliceNodeName(o: RawObject): string | undefined {
  const nodeName = optString(o, 'nodeName');
  return nodeName === '' ? undefined : nodeName;
}

function normalizeDevice(raw: RawObject): Device {
  const out: Device = { name: reqString(raw, 'name') };
  let d = raw;
  const basic = optObject(raw, 'basic');
  if (basic !== undefined) {
    enter('basic');
    d = basic;
  }
  const attributes = normalizeAttributes(d);
  if (attributes !== undefined) out.attributes = attributes;
  const capacity = normalizeDeviceCapacity(d);
  if (capacity !== undefined) out.capacity = capacity;
  const taints = normalizeTaints(d, 'taints');
  if (taints !== undefined) out.taints = taints;
  const nodeName = optSliceNodeName(d);
  if (nodeName !== undefined) out.nodeName = nodeName;
  const nodeSelector = normalizeNodeSelector(d, 'nodeSelector');
  if (nodeSelector !== undefined) out.nodeSelector = nodeSelector;
  const allNodes = optBoolean(d, 'allNodes');
  if (allNodes !== undefined) out.allNodes = allNodes;
  if (basic !== undefined) leave();
  return out;
}

export function normalizeResourceSlice(o: RawObject): ResourceSlice {
  const metadata = normalizeMeta(o);
  const spec = reqObject(o, 'spec');
  enter('spec');
  const pool = reqObject(spec, 'pool');
  enter('pool');
  const poolOut = { name: reqString(pool, 'name'), generation: reqNumber(pool, 'generation'), resourceSliceCount: reqNumber(pool, 'resourceSliceCount') };
  leave();
  const specOut: ResourceSlice['spec'] = { driver: reqString(spec, 'driver'), pool: poolOut };
  const nodeName = optSliceNodeName(spec);
  if (nodeName !== undefined) specOut.nodeName = nodeName;
  const nodeSelector = normalizeNodeSelector(spec, 'nodeSelector');
  if (nodeSelector !== undefined) specOut.nodeSelector = nodeSelector;
  const allNodes = optBoolean(spec, 'allNodes');
  if (allNodes !== undefined) specOut.allNodes = allNodes;
  const perDeviceNodeSelection = optBoolean(spec, 'perDeviceNodeSelection');
  if (perDeviceNodeSelection !== undefined) specOut.perDeviceNodeSelection = perDeviceNodeSelection;
  const devices = optArray(spec, 'devices');
  if (devices !== undefined) {
    enter('devices');
    const list: Device[] = [];
    for (let i = 0; i < devices.length; i++) {
      enter(i);
      list.push(normalizeDevice(asObject(devices[i])));
      leave();
    }
    leave();
    specOut.devices = list;
  }
  leave();
  return { apiVersion: DRA_API_VERSION, kind: 'ResourceSlice', metadata, spec: specOut };
}

export function normalizeDeviceClass(o: RawObject): DeviceClass {
  const out: DeviceClass = { apiVersion: DRA_API_VERSION, kind: 'DeviceClass', metadata: normalizeMeta(o) };
  const spec = optObject(o, 'spec');
  if (spec === undefined) return out;
  enter('spec');
  const specOut: NonNullable<DeviceClass['spec']> = {};
  const selectors = normalizeSelectors(spec);
  if (selectors !== undefined) specOut.selectors = selectors;
  const config = optArray(spec, 'config');
  if (config !== undefined) {
    enter('config');
    const list: { opaque?: OpaqueConfig }[] = [];
    for (let i = 0; i < config.length; i++) {
      enter(i);
      const entry: { opaque?: OpaqueConfig } = {};
      const opaque = normalizeOpaque(asObject(config[i]));
      if (opaque !== undefined) entry.opaque = opaque;
      list.push(entry);
      leave();
    }
    leave();
    specOut.config = list;
  }
  const extendedResourceName = optString(spec, 'extendedResourceName');
  if (extendedResourceName !== undefined) specOut.extendedResourceName = extendedResourceName;
  out.spec = specOut;
  leave();
  return out;
}

/** Whether a (normalised) claim spec asks for admin access to devices in any request. */
export function claimSpecRequestsAdminAccess(spec: ResourceClaimSpec | undefined): boolean {
  const requests = spec?.devices?.requests;
  if (!requests) return false;
  for (const request of requests) if (request.exactly?.adminAccess === true) return true;
  return false;
}
