// Applies a fix's patch to a copy of an object, as the API server would: a JSON merge patch (RFC 7386:
// objects merge key by key, null deletes, anything else, lists included, replaces) and the part of a
// strategic merge patch that fixes use (pod template containers merged by name, each container's
// fields merged as a JSON merge patch). The input is never changed.

type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function applyMergePatch<T>(target: T, patch: Json): T {
  return merge(target, patch, false) as T;
}

export function applyStrategicPatch<T>(target: T, patch: Json): T {
  return merge(target, patch, true) as T;
}

/** Lists of these keys are merged by `name` in a strategic merge patch (the pod spec's patchMergeKey). */
const MERGE_BY_NAME = new Set(['containers', 'initContainers', 'ephemeralContainers', 'volumes', 'volumeMounts', 'env']);

function merge(target: Json, patch: Json, strategic: boolean, key?: string): Json {
  if (strategic && key !== undefined && MERGE_BY_NAME.has(key) && Array.isArray(patch) && Array.isArray(target)) return mergeByName(target, patch);
  if (!isObject(patch)) return structuredClone(patch);
  const out: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = merge(out[k], v, strategic, k);
  }
  return out;
}

function mergeByName(target: Json[], patch: Json[]): Json[] {
  const out = target.map((t) => t);
  for (const p of patch) {
    const name = isObject(p) ? p.name : undefined;
    const i = out.findIndex((t) => isObject(t) && t.name === name);
    if (i >= 0) out[i] = merge(out[i], p, true);
    else out.push(structuredClone(p));
  }
  return out;
}
