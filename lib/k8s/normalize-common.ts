// Normalisers for the building blocks several kinds share: metadata, selectors, taints, conditions.
// Pattern used by every normaliser (see isClean): read and check each declared field, then either
// reuse the parsed object (only declared keys, no nulls) or copy the checked fields into a new one.
// Arrays of objects are normalised in place by optObjectList/reqObjectList (normalize-helpers.ts):
// an element that needed a copy replaces the original.

import {
  asObject,
  enter,
  fields,
  isClean,
  leave,
  optBoolean,
  optObject,
  optObjectList,
  optString,
  optStringArray,
  optStringMap,
  reqObjectList,
  reqString,
  type RawObject,
} from './normalize-helpers';
import type {
  LabelSelector,
  LabelSelectorRequirement,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  ObjectMeta,
  OwnerReference,
  Taint,
} from './types';

/** kubectl apply keeps the whole previous manifest here, env values and Secret data included. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

function normalizeAnnotations(value: unknown): Record<string, string> | undefined {
  const annotations = optStringMap(value, 'annotations');
  if (annotations === undefined || !Object.hasOwn(annotations, LAST_APPLIED_ANNOTATION)) return annotations;
  const out: Record<string, string> = {};
  for (const k in annotations) if (k !== LAST_APPLIED_ANNOTATION) out[k] = annotations[k];
  return out;
}

const OWNER_REFERENCE_FIELDS = fields('apiVersion', 'kind', 'name', 'uid', 'controller');

function normalizeOwnerReference(r: RawObject): OwnerReference {
  const kind = reqString(r.kind, 'kind');
  const name = reqString(r.name, 'name');
  const apiVersion = optString(r.apiVersion, 'apiVersion');
  const uid = optString(r.uid, 'uid');
  const controller = optBoolean(r.controller, 'controller');
  if (isClean(r, OWNER_REFERENCE_FIELDS)) return r as unknown as OwnerReference;
  const ref: OwnerReference = { kind, name };
  if (apiVersion !== undefined) ref.apiVersion = apiVersion;
  if (uid !== undefined) ref.uid = uid;
  if (controller !== undefined) ref.controller = controller;
  return ref;
}

const META_FIELDS = fields('name', 'namespace', 'uid', 'labels', 'annotations', 'ownerReferences', 'generateName', 'creationTimestamp', 'resourceVersion');

/** Reads metadata `m`; `name` is required for top-level objects only. managedFields are never read. */
function normalizeMetaValue(m: RawObject, nameRequired: boolean): Partial<ObjectMeta> {
  const name = nameRequired ? reqString(m.name, 'name') : optString(m.name, 'name');
  const namespace = optString(m.namespace, 'namespace');
  const uid = optString(m.uid, 'uid');
  const labels = optStringMap(m.labels, 'labels');
  const annotations = normalizeAnnotations(m.annotations);
  const ownerReferences = optObjectList(m.ownerReferences, 'ownerReferences', normalizeOwnerReference);
  const generateName = optString(m.generateName, 'generateName');
  const creationTimestamp = optString(m.creationTimestamp, 'creationTimestamp');
  const resourceVersion = optString(m.resourceVersion, 'resourceVersion');
  if (isClean(m, META_FIELDS)) {
    if (annotations !== m.annotations) m.annotations = annotations;
    return m as Partial<ObjectMeta>;
  }
  const out: Partial<ObjectMeta> = {};
  if (name !== undefined) out.name = name;
  if (namespace !== undefined) out.namespace = namespace;
  if (uid !== undefined) out.uid = uid;
  if (labels !== undefined) out.labels = labels;
  if (annotations !== undefined) out.annotations = annotations;
  if (ownerReferences !== undefined) out.ownerReferences = ownerReferences;
  if (generateName !== undefined) out.generateName = generateName;
  if (creationTimestamp !== undefined) out.creationTimestamp = creationTimestamp;
  if (resourceVersion !== undefined) out.resourceVersion = resourceVersion;
  return out;
}

/** `metadata` of a top-level object: a name is required. */
export function normalizeMeta(value: unknown): ObjectMeta {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return asObject(value, 'metadata') as never;
  enter('metadata');
  const out = normalizeMetaValue(value as RawObject, true) as ObjectMeta;
  leave();
  return out;
}

/** `metadata` of an embedded template: every field optional. */
export function normalizePartialMeta(value: unknown, key: string): Partial<ObjectMeta> | undefined {
  const m = optObject(value, key);
  if (m === undefined) return undefined;
  enter(key);
  const out = normalizeMetaValue(m, false);
  leave();
  return out;
}

const REQUIREMENT_FIELDS = fields('key', 'operator', 'values');

function normalizeRequirement(e: RawObject): LabelSelectorRequirement {
  const reqKey = reqString(e.key, 'key');
  const operator = reqString(e.operator, 'operator');
  const values = optStringArray(e.values, 'values');
  if (isClean(e, REQUIREMENT_FIELDS)) return e as unknown as LabelSelectorRequirement;
  const req: LabelSelectorRequirement = { key: reqKey, operator };
  if (values !== undefined) req.values = values;
  return req;
}

const LABEL_SELECTOR_FIELDS = fields('matchLabels', 'matchExpressions');

function normalizeLabelSelectorValue(s: RawObject): LabelSelector {
  const matchLabels = optStringMap(s.matchLabels, 'matchLabels');
  const matchExpressions = optObjectList(s.matchExpressions, 'matchExpressions', normalizeRequirement);
  if (isClean(s, LABEL_SELECTOR_FIELDS)) return s as LabelSelector;
  const out: LabelSelector = {};
  if (matchLabels !== undefined) out.matchLabels = matchLabels;
  if (matchExpressions !== undefined) out.matchExpressions = matchExpressions;
  return out;
}

export function normalizeLabelSelector(value: unknown, key: string): LabelSelector | undefined {
  const s = optObject(value, key);
  if (s === undefined) return undefined;
  enter(key);
  const out = normalizeLabelSelectorValue(s);
  leave();
  return out;
}

export function normalizeLabelSelectorArray(value: unknown, key: string): LabelSelector[] | undefined {
  return optObjectList(value, key, normalizeLabelSelectorValue);
}

const NODE_SELECTOR_TERM_FIELDS = fields('matchExpressions', 'matchFields');
const NODE_SELECTOR_FIELDS = fields('nodeSelectorTerms');

function normalizeNodeSelectorTerm(t: RawObject): NodeSelectorTerm {
  const matchExpressions = optObjectList(t.matchExpressions, 'matchExpressions', normalizeRequirement) as NodeSelectorRequirement[] | undefined;
  const matchFields = optObjectList(t.matchFields, 'matchFields', normalizeRequirement) as NodeSelectorRequirement[] | undefined;
  if (isClean(t, NODE_SELECTOR_TERM_FIELDS)) return t as NodeSelectorTerm;
  const term: NodeSelectorTerm = {};
  if (matchExpressions !== undefined) term.matchExpressions = matchExpressions;
  if (matchFields !== undefined) term.matchFields = matchFields;
  return term;
}

export function normalizeNodeSelector(value: unknown, key: string): NodeSelector | undefined {
  const s = optObject(value, key);
  if (s === undefined) return undefined;
  enter(key);
  const terms = reqObjectList(s.nodeSelectorTerms, 'nodeSelectorTerms', normalizeNodeSelectorTerm);
  leave();
  return isClean(s, NODE_SELECTOR_FIELDS) ? (s as unknown as NodeSelector) : { nodeSelectorTerms: terms };
}

const TAINT_FIELDS = fields('key', 'value', 'effect');

function normalizeTaint(t: RawObject): Taint {
  const taintKey = reqString(t.key, 'key');
  const effect = reqString(t.effect, 'effect');
  const taintValue = optString(t.value, 'value');
  if (isClean(t, TAINT_FIELDS)) return t as unknown as Taint;
  const taint: Taint = { key: taintKey, effect };
  if (taintValue !== undefined) taint.value = taintValue;
  return taint;
}

export function normalizeTaints(value: unknown, key: string): Taint[] | undefined {
  return optObjectList(value, key, normalizeTaint);
}

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

const CONDITION_FIELDS = fields('type', 'status', 'reason', 'message');

function normalizeCondition(c: RawObject): Condition {
  const type = reqString(c.type, 'type');
  const status = reqString(c.status, 'status');
  const reason = optString(c.reason, 'reason');
  const message = optString(c.message, 'message');
  if (isClean(c, CONDITION_FIELDS)) return c as unknown as Condition;
  const condition: Condition = { type, status };
  if (reason !== undefined) condition.reason = reason;
  if (message !== undefined) condition.message = message;
  return condition;
}

export function normalizeConditions(value: unknown, key: string): Condition[] | undefined {
  return optObjectList(value, key, normalizeCondition);
}

const NAME_FIELDS = fields('name');

/** `{name}` reference objects (LocalObjectReference and friends): only the name is kept. */
export function normalizeNameRef(value: unknown, key: string): { name: string } | undefined {
  const r = optObject(value, key);
  if (r === undefined) return undefined;
  enter(key);
  const out = normalizeNameRefElement(r);
  leave();
  return out;
}

function normalizeNameRefElement(r: RawObject): { name: string } {
  const name = reqString(r.name, 'name');
  return isClean(r, NAME_FIELDS) ? (r as { name: string }) : { name };
}

/** `[{name}]` lists (imagePullSecrets, ServiceAccount secrets): only the name is kept. */
export function normalizeNameRefs(value: unknown, key: string): { name: string }[] | undefined {
  return optObjectList(value, key, normalizeNameRefElement);
}

/** Optional `{<field>: string}` objects such as `secret: {secretName}` or `configMap: {name}`. */
export function normalizeOptionalNamed(value: unknown, key: string, field: string, declared: ReadonlySet<string>): Record<string, string> | undefined {
  const r = optObject(value, key);
  if (r === undefined) return undefined;
  enter(key);
  const named = optString(r[field], field);
  leave();
  if (isClean(r, declared)) return r as Record<string, string>;
  const out: Record<string, string> = {};
  if (named !== undefined) out[field] = named;
  return out;
}
