// ResourceSlices and DeviceClasses (resource.k8s.io), normalised as normalize-object.ts describes.

import { normalizeMeta, normalizeNodeSelector, normalizeTaints } from './normalize-common';
import {
  asObject,
  enter,
  fail,
  fields,
  isClean,
  isForbiddenKey,
  leave,
  optBoolean,
  optNumber,
  optObject,
  optObjectList,
  optQuantity,
  optString,
  reqNumber,
  reqObject,
  reqString,
  type RawObject,
} from './normalize-helpers';
import type { Device, DeviceClass, OpaqueConfig, ResourceSlice } from './types';
import { DRA_API_VERSION, normalizeOpaque, normalizeSelector, reuseTop } from './normalize-dra';

type DeviceAttribute = NonNullable<Device['attributes']>[string];

const ATTRIBUTE_FIELDS = fields('int', 'bool', 'string', 'version');
const CAPACITY_FIELDS = fields('value');

function normalizeAttributes(value: unknown): Device['attributes'] {
  const attributes = optObject(value, 'attributes');
  if (attributes === undefined) return undefined;
  enter('attributes');
  for (const name in attributes) {
    if (isForbiddenKey(name)) fail(name, 'forbidden key');
    enter(name);
    const a = asObject(attributes[name]);
    const int = optNumber(a.int, 'int');
    const bool = optBoolean(a.bool, 'bool');
    const string = optString(a.string, 'string');
    const version = optString(a.version, 'version');
    if (!isClean(a, ATTRIBUTE_FIELDS)) {
      const attribute: DeviceAttribute = {};
      if (int !== undefined) attribute.int = int;
      if (bool !== undefined) attribute.bool = bool;
      if (string !== undefined) attribute.string = string;
      if (version !== undefined) attribute.version = version;
      attributes[name] = attribute;
    }
    leave();
  }
  leave();
  return attributes as Device['attributes'];
}

function normalizeDeviceCapacity(value: unknown): Device['capacity'] {
  const capacity = optObject(value, 'capacity');
  if (capacity === undefined) return undefined;
  enter('capacity');
  for (const name in capacity) {
    if (isForbiddenKey(name)) fail(name, 'forbidden key');
    const c = capacity[name];
    // v1alpha3-era dumps wrote the quantity directly instead of `{value}`.
    if (typeof c === 'string' || typeof c === 'number') {
      capacity[name] = { value: optQuantity(c, name) as string };
      continue;
    }
    enter(name);
    const entry = asObject(c);
    const quantity = optQuantity(entry.value, 'value');
    if (quantity === undefined) fail('value', 'missing (expected a quantity string)');
    if (isClean(entry, CAPACITY_FIELDS)) entry.value = quantity;
    else capacity[name] = { value: quantity };
    leave();
  }
  leave();
  return capacity as Device['capacity'];
}

const DEVICE_FIELDS = fields('name', 'attributes', 'capacity', 'taints', 'nodeName', 'nodeSelector', 'allNodes');

function normalizeDevice(raw: RawObject): Device {
  const name = reqString(raw.name, 'name');
  let d = raw;
  const basic = optObject(raw.basic, 'basic');
  if (basic !== undefined) {
    enter('basic');
    d = basic;
  }
  const attributes = normalizeAttributes(d.attributes);
  const capacity = normalizeDeviceCapacity(d.capacity);
  const taints = normalizeTaints(d.taints, 'taints');
  const nodeName = optString(d.nodeName, 'nodeName');
  const nodeSelector = normalizeNodeSelector(d.nodeSelector, 'nodeSelector');
  const allNodes = optBoolean(d.allNodes, 'allNodes');
  if (basic !== undefined) leave();
  // v1beta1 `basic` devices and v1beta1's empty-string nodeName take the copy path.
  const out = (basic === undefined && nodeName !== '' && isClean(raw, DEVICE_FIELDS) ? raw : {}) as unknown as Device;
  out.name = name;
  if (attributes !== undefined) out.attributes = attributes;
  if (capacity !== undefined) out.capacity = capacity;
  if (taints !== undefined) out.taints = taints;
  if (nodeName !== undefined && nodeName !== '') out.nodeName = nodeName;
  if (nodeSelector !== undefined) out.nodeSelector = nodeSelector;
  if (allNodes !== undefined) out.allNodes = allNodes;
  return out;
}

const SLICE_FIELDS = fields('apiVersion', 'kind', 'metadata', 'spec');
const SLICE_SPEC_FIELDS = fields('driver', 'pool', 'nodeName', 'nodeSelector', 'allNodes', 'perDeviceNodeSelection', 'devices');
const POOL_FIELDS = fields('name', 'generation', 'resourceSliceCount');

export function normalizeResourceSlice(o: RawObject): ResourceSlice {
  const metadata = normalizeMeta(o.metadata);
  const spec = reqObject(o.spec, 'spec');
  enter('spec');
  const driver = reqString(spec.driver, 'driver');
  const pool = reqObject(spec.pool, 'pool');
  enter('pool');
  const poolName = reqString(pool.name, 'name');
  const generation = reqNumber(pool.generation, 'generation');
  const resourceSliceCount = reqNumber(pool.resourceSliceCount, 'resourceSliceCount');
  leave();
  const poolOut = isClean(pool, POOL_FIELDS) ? (pool as ResourceSlice['spec']['pool']) : { name: poolName, generation, resourceSliceCount };
  const nodeName = optString(spec.nodeName, 'nodeName');
  const nodeSelector = normalizeNodeSelector(spec.nodeSelector, 'nodeSelector');
  const allNodes = optBoolean(spec.allNodes, 'allNodes');
  const perDeviceNodeSelection = optBoolean(spec.perDeviceNodeSelection, 'perDeviceNodeSelection');
  const devices = optObjectList(spec.devices, 'devices', normalizeDevice);
  leave();
  const specOut = (nodeName !== '' && isClean(spec, SLICE_SPEC_FIELDS) ? spec : {}) as unknown as ResourceSlice['spec'];
  specOut.driver = driver;
  specOut.pool = poolOut;
  if (nodeName !== undefined && nodeName !== '') specOut.nodeName = nodeName;
  if (nodeSelector !== undefined) specOut.nodeSelector = nodeSelector;
  if (allNodes !== undefined) specOut.allNodes = allNodes;
  if (perDeviceNodeSelection !== undefined) specOut.perDeviceNodeSelection = perDeviceNodeSelection;
  if (devices !== undefined) specOut.devices = devices;
  const out = (reuseTop(o, 'ResourceSlice', SLICE_FIELDS) ? o : {}) as unknown as ResourceSlice;
  out.apiVersion = DRA_API_VERSION;
  out.kind = 'ResourceSlice';
  out.metadata = metadata;
  out.spec = specOut;
  return out;
}

const CLASS_FIELDS = fields('apiVersion', 'kind', 'metadata', 'spec');
const CLASS_SPEC_FIELDS = fields('selectors', 'config', 'extendedResourceName');
const CLASS_CONFIG_FIELDS = fields('opaque');

function normalizeClassConfig(c: RawObject): { opaque?: OpaqueConfig } {
  const opaque = normalizeOpaque(c.opaque);
  const entry = (isClean(c, CLASS_CONFIG_FIELDS) ? c : {}) as unknown as { opaque?: OpaqueConfig };
  if (opaque !== undefined) entry.opaque = opaque;
  return entry;
}

export function normalizeDeviceClass(o: RawObject): DeviceClass {
  const metadata = normalizeMeta(o.metadata);
  let specOut: DeviceClass['spec'];
  const spec = optObject(o.spec, 'spec');
  if (spec !== undefined) {
    enter('spec');
    const selectors = optObjectList(spec.selectors, 'selectors', normalizeSelector);
    const config = optObjectList(spec.config, 'config', normalizeClassConfig);
    const extendedResourceName = optString(spec.extendedResourceName, 'extendedResourceName');
    leave();
    specOut = (isClean(spec, CLASS_SPEC_FIELDS) ? spec : {}) as unknown as NonNullable<DeviceClass['spec']>;
    if (selectors !== undefined) specOut.selectors = selectors;
    if (config !== undefined) specOut.config = config;
    if (extendedResourceName !== undefined) specOut.extendedResourceName = extendedResourceName;
  }
  const out = (reuseTop(o, 'DeviceClass', CLASS_FIELDS) ? o : {}) as unknown as DeviceClass;
  out.apiVersion = DRA_API_VERSION;
  out.kind = 'DeviceClass';
  out.metadata = metadata;
  if (specOut !== undefined) out.spec = specOut;
  return out;
}
