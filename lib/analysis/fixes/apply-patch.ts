// Applies a fix's patch to a copy of an object, as the API server would: a JSON merge patch (RFC 7386:
// objects merge key by key, null deletes, anything else, lists included, replaces) and the part of a
// strategic merge patch that fixes use (the pod spec's lists merged by their patchMergeKey, as core/v1
// declares it, each element's fields merged as a JSON merge patch). The input is never changed.

type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function applyMergePatch<T>(target: T, patch: Json): T {
  return merge(target, patch, false) as T;
}

export function applyStrategicPatch<T>(target: T, patch: Json): T {
  return merge(target, patch, true) as T;
}

/**
 * The pod spec's lists a strategic merge patch merges element by element, with the field that
 * identifies an element (core/v1 `patchMergeKey`): a volume mount is its mount path, not its volume's
 * name (one volume may be mounted at several paths).
 */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  env: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
};

function merge(target: Json, patch: Json, strategic: boolean, key?: string): Json {
  const mergeKey = strategic && key !== undefined && Object.hasOwn(MERGE_KEYS, key) ? MERGE_KEYS[key] : undefined;
  if (mergeKey && Array.isArray(patch) && Array.isArray(target)) return mergeByKey(target, patch, mergeKey);
  if (!isObject(patch)) return structuredClone(patch);
  const out: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = merge(out[k], v, strategic, k);
  }
  return out;
}

function mergeByKey(target: Json[], patch: Json[], mergeKey: string): Json[] {
  const out = target.map((t) => t);
  for (const p of patch) {
    const id = isObject(p) ? p[mergeKey] : undefined;
    const i = out.findIndex((t) => isObject(t) && t[mergeKey] === id);
    if (i >= 0) out[i] = merge(out[i], p, true);
    else out.push(structuredClone(p));
  }
  return out;
}
