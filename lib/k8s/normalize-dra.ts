// resource.k8s.io objects of any served version (v1, v1beta2, v1beta1) read into the v1 shape, so
// the engine only ever sees v1. Differences handled (reference/dra-facts.md §3):
// - v1beta1 requests are flat (deviceClassName, selectors, count, adminAccess... on the request
//   itself); v1beta2 and v1 wrap them in `exactly`. The rule: `exactly` if set, else the flat
//   fields if `deviceClassName` is set, and `firstAvailable` in every case it is present.
// - v1beta1 slice devices keep their fields under `basic`; later versions have them flat.
// - v1beta1 slice `nodeName` is a plain string where "" means unset; later versions use a pointer.
// adminAccess therefore ends up in `exactly.adminAccess` whichever way it was written.
// Same reuse-or-copy pattern as normalize-common.ts; anything in an older shape is copied.

import { normalizeConditions, normalizeMeta, normalizeNodeSelector, normalizePartialMeta } from './normalize-common';
import {
  cloneJson,
  enter,
  fields,
  isClean,
  leave,
  optArray,
  optBoolean,
  optNumber,
  optObject,
  optObjectList,
  optQuantityMap,
  optString,
  optStringArray,
  reqObject,
  reqString,
  type RawObject,
} from './normalize-helpers';
import type {
  AllocatedDeviceStatus,
  CelSelector,
  DeviceClaimConfiguration,
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
} from './types';

export const DRA_GROUP = 'resource.k8s.io';
export const DRA_API_VERSION = 'resource.k8s.io/v1';

const CEL_SELECTOR_FIELDS = fields('cel');
const CEL_FIELDS = fields('expression');

export function normalizeSelector(s: RawObject): CelSelector {
  let cel: CelSelector['cel'];
  const c = optObject(s.cel, 'cel');
  if (c !== undefined) {
    enter('cel');
    const expression = reqString(c.expression, 'expression');
    leave();
    cel = isClean(c, CEL_FIELDS) ? (c as { expression: string }) : { expression };
  }
  if (!isClean(s, CEL_SELECTOR_FIELDS)) {
    const selector: CelSelector = {};
    if (cel !== undefined) selector.cel = cel;
    return selector;
  }
  if (cel !== undefined) s.cel = cel;
  return s as CelSelector;
}

const TOLERATION_FIELDS = fields('key', 'operator', 'value', 'effect', 'tolerationSeconds');

function normalizeToleration(t: RawObject): DeviceToleration {
  const key = optString(t.key, 'key');
  const operator = optString(t.operator, 'operator');
  const tolerationValue = optString(t.value, 'value');
  const effect = optString(t.effect, 'effect');
  const seconds = optNumber(t.tolerationSeconds, 'tolerationSeconds');
  if (isClean(t, TOLERATION_FIELDS)) return t as DeviceToleration;
  const toleration: DeviceToleration = {};
  if (key !== undefined) toleration.key = key;
  if (operator !== undefined) toleration.operator = operator;
  if (tolerationValue !== undefined) toleration.value = tolerationValue;
  if (effect !== undefined) toleration.effect = effect;
  if (seconds !== undefined) toleration.tolerationSeconds = seconds;
  return toleration;
}

const CAPACITY_REQUEST_FIELDS = fields('requests');

function normalizeCapacityRequests(value: unknown): { requests?: Record<string, string> } | undefined {
  const capacity = optObject(value, 'capacity');
  if (capacity === undefined) return undefined;
  enter('capacity');
  const requests = optQuantityMap(capacity.requests, 'requests');
  leave();
  if (isClean(capacity, CAPACITY_REQUEST_FIELDS)) return capacity as { requests?: Record<string, string> };
  const out: { requests?: Record<string, string> } = {};
  if (requests !== undefined) out.requests = requests;
  return out;
}

/** The fields `exactly` and a firstAvailable subrequest share. */
function fillRequestBody(r: RawObject, out: ExactDeviceRequest | DeviceSubRequest): void {
  const selectors = optObjectList(r.selectors, 'selectors', normalizeSelector);
  const allocationMode = optString(r.allocationMode, 'allocationMode');
  const count = optNumber(r.count, 'count');
  const tolerations = optObjectList(r.tolerations, 'tolerations', normalizeToleration);
  const capacity = normalizeCapacityRequests(r.capacity);
  if (selectors !== undefined) out.selectors = selectors;
  if (allocationMode !== undefined) out.allocationMode = allocationMode;
  if (count !== undefined) out.count = count;
  if (tolerations !== undefined) out.tolerations = tolerations;
  if (capacity !== undefined) out.capacity = capacity;
}

const EXACT_FIELDS = fields('deviceClassName', 'selectors', 'allocationMode', 'count', 'adminAccess', 'tolerations', 'capacity');
const SUB_REQUEST_FIELDS = fields('name', 'deviceClassName', 'selectors', 'allocationMode', 'count', 'tolerations', 'capacity');

/** `r` is either a v1 `exactly` object or (copy forced) a flat v1beta1 request. */
function normalizeExact(r: RawObject, mayReuse: boolean): ExactDeviceRequest {
  const deviceClassName = reqString(r.deviceClassName, 'deviceClassName');
  const adminAccess = optBoolean(r.adminAccess, 'adminAccess');
  const out = (mayReuse && isClean(r, EXACT_FIELDS) ? r : {}) as unknown as ExactDeviceRequest;
  out.deviceClassName = deviceClassName;
  fillRequestBody(r, out);
  if (adminAccess !== undefined) out.adminAccess = adminAccess;
  return out;
}

function normalizeSubRequest(s: RawObject): DeviceSubRequest {
  const name = reqString(s.name, 'name');
  const deviceClassName = reqString(s.deviceClassName, 'deviceClassName');
  const sub = (isClean(s, SUB_REQUEST_FIELDS) ? s : {}) as unknown as DeviceSubRequest;
  sub.name = name;
  sub.deviceClassName = deviceClassName;
  fillRequestBody(s, sub);
  return sub;
}

const REQUEST_FIELDS = fields('name', 'exactly', 'firstAvailable');

function normalizeRequest(r: RawObject): DeviceRequest {
  const name = reqString(r.name, 'name');
  let exactly: ExactDeviceRequest | undefined;
  const e = optObject(r.exactly, 'exactly');
  if (e !== undefined) {
    enter('exactly');
    exactly = normalizeExact(e, true);
    leave();
  } else if (typeof r.deviceClassName === 'string' && r.deviceClassName !== '') {
    // v1beta1: the request itself is the body.
    exactly = normalizeExact(r, false);
  }
  const firstAvailable = optObjectList(r.firstAvailable, 'firstAvailable', normalizeSubRequest);
  const out = (isClean(r, REQUEST_FIELDS) ? r : {}) as unknown as DeviceRequest;
  out.name = name;
  if (exactly !== undefined) out.exactly = exactly;
  if (firstAvailable !== undefined) out.firstAvailable = firstAvailable;
  return out;
}

const OPAQUE_FIELDS = fields('driver', 'parameters');

export function normalizeOpaque(value: unknown): OpaqueConfig | undefined {
  const opaque = optObject(value, 'opaque');
  if (opaque === undefined) return undefined;
  enter('opaque');
  const driver = reqString(opaque.driver, 'driver');
  const parameters = opaque.parameters === undefined || opaque.parameters === null ? undefined : cloneJson(opaque.parameters, 'parameters');
  leave();
  const out = (isClean(opaque, OPAQUE_FIELDS) ? opaque : {}) as unknown as OpaqueConfig;
  out.driver = driver;
  if (parameters !== undefined) out.parameters = parameters;
  return out;
}

type Constraint = NonNullable<NonNullable<ResourceClaimSpec['devices']>['constraints']>[number];
const CONSTRAINT_FIELDS = fields('requests', 'matchAttribute', 'distinctAttribute');
const CLAIM_CONFIG_FIELDS = fields('requests', 'opaque');
const CLAIM_DEVICES_FIELDS = fields('requests', 'constraints', 'config');
const CLAIM_SPEC_FIELDS = fields('devices');

function normalizeConstraint(c: RawObject): Constraint {
  const reqs = optStringArray(c.requests, 'requests');
  const matchAttribute = optString(c.matchAttribute, 'matchAttribute');
  const distinctAttribute = optString(c.distinctAttribute, 'distinctAttribute');
  if (isClean(c, CONSTRAINT_FIELDS)) return c as Constraint;
  const constraint: Constraint = {};
  if (reqs !== undefined) constraint.requests = reqs;
  if (matchAttribute !== undefined) constraint.matchAttribute = matchAttribute;
  if (distinctAttribute !== undefined) constraint.distinctAttribute = distinctAttribute;
  return constraint;
}

function normalizeClaimConfig(c: RawObject): DeviceClaimConfiguration {
  const reqs = optStringArray(c.requests, 'requests');
  const opaque = normalizeOpaque(c.opaque);
  const entry = (isClean(c, CLAIM_CONFIG_FIELDS) ? c : {}) as unknown as DeviceClaimConfiguration;
  if (reqs !== undefined) entry.requests = reqs;
  if (opaque !== undefined) entry.opaque = opaque;
  return entry;
}

function normalizeClaimDevices(value: unknown): ResourceClaimSpec['devices'] {
  const devices = optObject(value, 'devices');
  if (devices === undefined) return undefined;
  enter('devices');
  const requests = optObjectList(devices.requests, 'requests', normalizeRequest);
  const constraints = optObjectList(devices.constraints, 'constraints', normalizeConstraint);
  const config = optObjectList(devices.config, 'config', normalizeClaimConfig);
  leave();
  if (isClean(devices, CLAIM_DEVICES_FIELDS)) return devices as ResourceClaimSpec['devices'];
  const out: NonNullable<ResourceClaimSpec['devices']> = {};
  if (requests !== undefined) out.requests = requests;
  if (constraints !== undefined) out.constraints = constraints;
  if (config !== undefined) out.config = config;
  return out;
}

function normalizeClaimSpec(value: unknown, key: string): ResourceClaimSpec {
  const spec = reqObject(value, key);
  enter(key);
  const devices = normalizeClaimDevices(spec.devices);
  leave();
  const out = (isClean(spec, CLAIM_SPEC_FIELDS) ? spec : {}) as unknown as ResourceClaimSpec;
  if (devices !== undefined) out.devices = devices;
  return out;
}

const RESULT_FIELDS = fields('request', 'driver', 'pool', 'device', 'adminAccess', 'shareID');

function normalizeAllocationResult(r: RawObject): DeviceRequestAllocationResult {
  const request = reqString(r.request, 'request');
  const driver = reqString(r.driver, 'driver');
  const pool = reqString(r.pool, 'pool');
  const device = reqString(r.device, 'device');
  const adminAccess = optBoolean(r.adminAccess, 'adminAccess');
  const shareID = optString(r.shareID, 'shareID');
  if (isClean(r, RESULT_FIELDS)) return r as unknown as DeviceRequestAllocationResult;
  const result: DeviceRequestAllocationResult = { request, driver, pool, device };
  if (adminAccess !== undefined) result.adminAccess = adminAccess;
  if (shareID !== undefined) result.shareID = shareID;
  return result;
}

type Allocation = NonNullable<ResourceClaimStatus['allocation']>;
type ReservedFor = NonNullable<ResourceClaimStatus['reservedFor']>[number];
const ALLOCATION_DEVICES_FIELDS = fields('results', 'config');
const ALLOCATION_FIELDS = fields('devices', 'nodeSelector', 'allocationTimestamp');
const RESERVED_FOR_FIELDS = fields('apiGroup', 'resource', 'name', 'uid');
const DEVICE_STATUS_FIELDS = fields('driver', 'pool', 'device', 'shareID', 'conditions', 'data');
const CLAIM_STATUS_FIELDS = fields('allocation', 'reservedFor', 'devices');

function normalizeAllocation(value: unknown): Allocation | undefined {
  const allocation = optObject(value, 'allocation');
  if (allocation === undefined) return undefined;
  enter('allocation');
  let devices: Allocation['devices'];
  const d = optObject(allocation.devices, 'devices');
  if (d !== undefined) {
    enter('devices');
    const results = optObjectList(d.results, 'results', normalizeAllocationResult);
    const config = optArray(d.config, 'config');
    const clonedConfig = config === undefined ? undefined : (cloneJson(config, 'config') as unknown[]);
    leave();
    devices = (isClean(d, ALLOCATION_DEVICES_FIELDS) ? d : {}) as unknown as NonNullable<Allocation['devices']>;
    if (results !== undefined) devices.results = results;
    if (clonedConfig !== undefined) devices.config = clonedConfig;
  }
  const nodeSelector = normalizeNodeSelector(allocation.nodeSelector, 'nodeSelector');
  const allocationTimestamp = optString(allocation.allocationTimestamp, 'allocationTimestamp');
  leave();
  const out = (isClean(allocation, ALLOCATION_FIELDS) ? allocation : {}) as unknown as Allocation;
  if (devices !== undefined) out.devices = devices;
  if (nodeSelector !== undefined) out.nodeSelector = nodeSelector;
  if (allocationTimestamp !== undefined) out.allocationTimestamp = allocationTimestamp;
  return out;
}

function normalizeReservedFor(r: RawObject): ReservedFor {
  const resource = reqString(r.resource, 'resource');
  const name = reqString(r.name, 'name');
  const uid = reqString(r.uid, 'uid');
  const apiGroup = optString(r.apiGroup, 'apiGroup');
  if (isClean(r, RESERVED_FOR_FIELDS)) return r as unknown as ReservedFor;
  const ref: ReservedFor = { resource, name, uid };
  if (apiGroup !== undefined) ref.apiGroup = apiGroup;
  return ref;
}

function normalizeDeviceStatus(d: RawObject): AllocatedDeviceStatus {
  const driver = reqString(d.driver, 'driver');
  const pool = reqString(d.pool, 'pool');
  const device = reqString(d.device, 'device');
  const shareID = optString(d.shareID, 'shareID');
  const conditions = normalizeConditions(d.conditions, 'conditions');
  const data = d.data === undefined || d.data === null ? undefined : cloneJson(d.data, 'data');
  const entry = (isClean(d, DEVICE_STATUS_FIELDS) ? d : {}) as unknown as AllocatedDeviceStatus;
  entry.driver = driver;
  entry.pool = pool;
  entry.device = device;
  if (shareID !== undefined) entry.shareID = shareID;
  if (conditions !== undefined) entry.conditions = conditions;
  if (data !== undefined) entry.data = data;
  return entry;
}

function normalizeClaimStatus(value: unknown): ResourceClaimStatus | undefined {
  const status = optObject(value, 'status');
  if (status === undefined) return undefined;
  enter('status');
  const allocation = normalizeAllocation(status.allocation);
  const reservedFor = optObjectList(status.reservedFor, 'reservedFor', normalizeReservedFor);
  const devices = optObjectList(status.devices, 'devices', normalizeDeviceStatus);
  leave();
  const out = (isClean(status, CLAIM_STATUS_FIELDS) ? status : {}) as unknown as ResourceClaimStatus;
  if (allocation !== undefined) out.allocation = allocation;
  if (reservedFor !== undefined) out.reservedFor = reservedFor;
  if (devices !== undefined) out.devices = devices;
  return out;
}

const CLAIM_FIELDS = fields('apiVersion', 'kind', 'metadata', 'spec', 'status');

/** Top-level objects are reused only when they already carry their kind (typed-list items may not). */
export function reuseTop(o: RawObject, kind: string, declared: ReadonlySet<string>): boolean {
  return o.kind === kind && typeof o.apiVersion === 'string' && isClean(o, declared);
}

export function normalizeResourceClaim(o: RawObject): ResourceClaim {
  const metadata = normalizeMeta(o.metadata);
  const spec = normalizeClaimSpec(o.spec, 'spec');
  const status = normalizeClaimStatus(o.status);
  const out = (reuseTop(o, 'ResourceClaim', CLAIM_FIELDS) ? o : {}) as unknown as ResourceClaim;
  out.apiVersion = DRA_API_VERSION;
  out.kind = 'ResourceClaim';
  out.metadata = metadata;
  out.spec = spec;
  if (status !== undefined) out.status = status;
  return out;
}

const TEMPLATE_FIELDS = fields('apiVersion', 'kind', 'metadata', 'spec');
const TEMPLATE_SPEC_FIELDS = fields('metadata', 'spec');

export function normalizeResourceClaimTemplate(o: RawObject): ResourceClaimTemplate {
  const metadata = normalizeMeta(o.metadata);
  const spec = reqObject(o.spec, 'spec');
  enter('spec');
  const claimSpec = normalizeClaimSpec(spec.spec, 'spec');
  const templateMeta = normalizePartialMeta(spec.metadata, 'metadata');
  leave();
  const specOut = (isClean(spec, TEMPLATE_SPEC_FIELDS) ? spec : {}) as unknown as ResourceClaimTemplate['spec'];
  specOut.spec = claimSpec;
  if (templateMeta !== undefined) specOut.metadata = templateMeta;
  const out = (reuseTop(o, 'ResourceClaimTemplate', TEMPLATE_FIELDS) ? o : {}) as unknown as ResourceClaimTemplate;
  out.apiVersion = DRA_API_VERSION;
  out.kind = 'ResourceClaimTemplate';
  out.metadata = metadata;
  out.spec = specOut;
  return out;
}

/** Whether a (normalised) claim spec asks for admin access to devices in any request. */
export function claimSpecRequestsAdminAccess(spec: ResourceClaimSpec | undefined): boolean {
  const requests = spec?.devices?.requests;
  if (!requests) return false;
  for (const request of requests) if (request.exactly?.adminAccess === true) return true;
  return false;
}
