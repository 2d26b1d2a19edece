// Normalisers for the building blocks several kinds share: metadata, selectors, taints, conditions.

import {
  asObject,
  enter,
  leave,
  optArray,
  optBoolean,
  optObject,
  optString,
  optStringArray,
  optStringMap,
  reqArray,
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

function normalizeAnnotations(m: RawObject): Record<string, string> | undefined {
  const annotations = optStringMap(m, 'annotations');
  if (annotations === undefined || !Object.hasOwn(annotations, LAST_APPLIED_ANNOTATION)) return annotations;
  const out: Record<string, string> = {};
  for (const k in annotations) if (k !== LAST_APPLIED_ANNOTATION) out[k] = annotations[k];
  return out;
}

function normalizeOwnerReferences(m: RawObject): OwnerReference[] | undefined {
  const refs = optArray(m, 'ownerReferences');
  if (refs === undefined) return undefined;
  enter('ownerReferences');
  const out: OwnerReference[] = [];
  for (let i = 0; i < refs.length; i++) {
    enter(i);
    const r = asObject(refs[i]);
    const ref: OwnerReference = { kind: reqString(r, 'kind'), name: reqString(r, 'name') };
    const apiVersion = optString(r, 'apiVersion');
    if (apiVersion !== undefined) ref.apiVersion = apiVersion;
    const uid = optString(r, 'uid');
    if (uid !== undefined) ref.uid = uid;
    const controller = optBoolean(r, 'controller');
    if (controller !== undefined) ref.controller = controller;
    out.push(ref);
    leave();
  }
  leave();
  return out;
}

function fillMeta(m: RawObject, out: Partial<ObjectMeta>): void {
  const namespace = optString(m, 'namespace');
  if (namespace !== undefined) out.namespace = namespace;
  const uid = optString(m, 'uid');
  if (uid !== undefined) out.uid = uid;
  const labels = optStringMap(m, 'labels');
  if (labels !== undefined) out.labels = labels;
  const annotations = normalizeAnnotations(m);
  if (annotations !== undefined) out.annotations = annotations;
  const ownerReferences = normalizeOwnerReferences(m);
  if (ownerReferences !== undefined) out.ownerReferences = ownerReferences;
  const generateName = optString(m, 'generateName');
  if (generateName !== undefined) out.generateName = generateName;
  const creationTimestamp = optString(m, 'creationTimestamp');
  if (creationTimestamp !== undefined) out.creationTimestamp = creationTimestamp;
  const resourceVersion = optString(m, 'resourceVersion');
  if (resourceVersion !== undefined) out.resourceVersion = resourceVersion;
}

/** `metadata` of a top-level object: a name is required. managedFields are never read. */
export function normalizeMeta(o: RawObject): ObjectMeta {
  const v = o.metadata;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return asObject(v, 'metadata') as never;
  const m = v as RawObject;
  enter('metadata');
  const out: ObjectMeta = { name: reqString(m, 'name') };
  fillMeta(m, out);
  leave();
  return out;
}

/** `metadata` of an embedded template: every field optional. */
export function normalizePartialMeta(o: RawObject, key: string): Partial<ObjectMeta> | undefined {
  const m = optObject(o, key);
  if (m === undefined) return undefined;
  enter(key);
  const out: Partial<ObjectMeta> = {};
  const name = optString(m, 'name');
  if (name !== undefined) out.name = name;
  fillMeta(m, out);
  leave();
  return out;
}

function normalizeLabelSelectorValue(s: RawObject): LabelSelector {
  const out: LabelSelector = {};
  const matchLabels = optStringMap(s, 'matchLabels');
  if (matchLabels !== undefined) out.matchLabels = matchLabels;
  const expressions = optArray(s, 'matchExpressions');
  if (expressions !== undefined) {
    enter('matchExpressions');
    const list: LabelSelectorRequirement[] = [];
    for (let i = 0; i < expressions.length; i++) {
      enter(i);
      const e = asObject(expressions[i]);
      const req: LabelSelectorRequirement = { key: reqString(e, 'key'), operator: reqString(e, 'operator') };
      const values = optStringArray(e, 'values');
      if (values !== undefined) req.values = values;
      list.push(req);
      leave();
    }
    leave();
    out.matchExpressions = list;
  }
  return out;
}

export function normalizeLabelSelector(o: RawObject, key: string): LabelSelector | undefined {
  const s = optObject(o, key);
  if (s === undefined) return undefined;
  enter(key);
  const out = normalizeLabelSelectorValue(s);
  leave();
  return out;
}

export function normalizeLabelSelectorArray(o: RawObject, key: string): LabelSelector[] | undefined {
  const list = optArray(o, key);
  if (list === undefined) return undefined;
  enter(key);
  const out: LabelSelector[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    out.push(normalizeLabelSelectorValue(asObject(list[i])));
    leave();
  }
  leave();
  return out;
}

function normalizeNodeSelectorRequirements(o: RawObject, key: string): NodeSelectorRequirement[] | undefined {
  const list = optArray(o, key);
  if (list === undefined) return undefined;
  enter(key);
  const out: NodeSelectorRequirement[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    const e = asObject(list[i]);
    const req: NodeSelectorRequirement = { key: reqString(e, 'key'), operator: reqString(e, 'operator') };
    const values = optStringArray(e, 'values');
    if (values !== undefined) req.values = values;
    out.push(req);
    leave();
  }
  leave();
  return out;
}

export function normalizeNodeSelector(o: RawObject, key: string): NodeSelector | undefined {
  const s = optObject(o, key);
  if (s === undefined) return undefined;
  enter(key);
  const terms = reqArray(s, 'nodeSelectorTerms');
  enter('nodeSelectorTerms');
  const out: NodeSelectorTerm[] = [];
  for (let i = 0; i < terms.length; i++) {
    enter(i);
    const t = asObject(terms[i]);
    const term: NodeSelectorTerm = {};
    const matchExpressions = normalizeNodeSelectorRequirements(t, 'matchExpressions');
    if (matchExpressions !== undefined) term.matchExpressions = matchExpressions;
    const matchFields = normalizeNodeSelectorRequirements(t, 'matchFields');
    if (matchFields !== undefined) term.matchFields = matchFields;
    out.push(term);
    leave();
  }
  leave();
  leave();
  return { nodeSelectorTerms: out };
}

export function normalizeTaints(o: RawObject, key: string): Taint[] | undefined {
  const list = optArray(o, key);
  if (list === undefined) return undefined;
  enter(key);
  const out: Taint[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    const t = asObject(list[i]);
    const taint: Taint = { key: reqString(t, 'key'), effect: reqString(t, 'effect') };
    const value = optString(t, 'value');
    if (value !== undefined) taint.value = value;
    out.push(taint);
    leave();
  }
  leave();
  return out;
}

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export function normalizeConditions(o: RawObject, key: string): Condition[] | undefined {
  const list = optArray(o, key);
  if (list === undefined) return undefined;
  enter(key);
  const out: Condition[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    const c = asObject(list[i]);
    const condition: Condition = { type: reqString(c, 'type'), status: reqString(c, 'status') };
    const reason = optString(c, 'reason');
    if (reason !== undefined) condition.reason = reason;
    const message = optString(c, 'message');
    if (message !== undefined) condition.message = message;
    out.push(condition);
    leave();
  }
  leave();
  return out;
}

/** `[{name}]` lists (imagePullSecrets, ServiceAccount secrets): only the name is kept. */
export function normalizeNameRefs(o: RawObject, key: string): { name: string }[] | undefined {
  const list = optArray(o, key);
  if (list === undefined) return undefined;
  enter(key);
  const out: { name: string }[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    out.push({ name: reqString(asObject(list[i]), 'name') });
    leave();
  }
  leave();
  return out;
}
