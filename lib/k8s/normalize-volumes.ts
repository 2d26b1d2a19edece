// Pod volumes, normalised as normalize-object.ts describes: which host paths, secrets, config maps,
// claims and projected tokens a pod mounts is what the POD checks read.

import { normalizeNameRef, normalizeOptionalNamed } from './normalize-common';
import { cloneJson, enter, fields, isClean, leave, optObject, optObjectList, optString, reqString, type RawObject } from './normalize-helpers';
import type { Volume } from './types';

const SECRET_VOLUME_FIELDS = fields('secretName');
const NAME_ONLY_FIELDS = fields('name');
const HOST_PATH_FIELDS = fields('path', 'type');
const PVC_VOLUME_FIELDS = fields('claimName');
const TOKEN_PROJECTION_FIELDS = fields('audience', 'path');
const PROJECTED_SOURCE_FIELDS = fields('secret', 'configMap', 'serviceAccountToken');
const PROJECTED_FIELDS = fields('sources');
const CSI_VOLUME_FIELDS = fields('driver', 'nodePublishSecretRef');
const VOLUME_FIELDS = fields('name', 'hostPath', 'secret', 'configMap', 'persistentVolumeClaim', 'projected', 'ephemeral', 'csi');

type ProjectedSource = NonNullable<NonNullable<Volume['projected']>['sources']>[number];

function normalizeProjectedSource(s: RawObject): ProjectedSource {
  const secret = normalizeOptionalNamed(s.secret, 'secret', 'name', NAME_ONLY_FIELDS);
  const configMap = normalizeOptionalNamed(s.configMap, 'configMap', 'name', NAME_ONLY_FIELDS);
  let token: ProjectedSource['serviceAccountToken'];
  const t = optObject(s.serviceAccountToken, 'serviceAccountToken');
  if (t !== undefined) {
    enter('serviceAccountToken');
    const audience = optString(t.audience, 'audience');
    const path = optString(t.path, 'path');
    leave();
    if (isClean(t, TOKEN_PROJECTION_FIELDS)) {
      token = t as ProjectedSource['serviceAccountToken'];
    } else {
      token = {};
      if (audience !== undefined) token.audience = audience;
      if (path !== undefined) token.path = path;
    }
  }
  const source = (isClean(s, PROJECTED_SOURCE_FIELDS) ? s : {}) as unknown as ProjectedSource;
  if (secret !== undefined) source.secret = secret;
  if (configMap !== undefined) source.configMap = configMap;
  if (token !== undefined) source.serviceAccountToken = token;
  return source;
}

function normalizeProjected(value: unknown): Volume['projected'] {
  const p = optObject(value, 'projected');
  if (p === undefined) return undefined;
  enter('projected');
  const sources = optObjectList(p.sources, 'sources', normalizeProjectedSource);
  leave();
  if (isClean(p, PROJECTED_FIELDS)) return p as Volume['projected'];
  const out: NonNullable<Volume['projected']> = {};
  if (sources !== undefined) out.sources = sources;
  return out;
}

export function normalizeVolume(v: RawObject): Volume {
  const name = reqString(v.name, 'name');
  let hostPath: Volume['hostPath'];
  const hp = optObject(v.hostPath, 'hostPath');
  if (hp !== undefined) {
    enter('hostPath');
    const path = reqString(hp.path, 'path');
    const type = optString(hp.type, 'type');
    leave();
    if (isClean(hp, HOST_PATH_FIELDS)) {
      hostPath = hp as Volume['hostPath'];
    } else {
      hostPath = { path };
      if (type !== undefined) hostPath.type = type;
    }
  }
  const secret = normalizeOptionalNamed(v.secret, 'secret', 'secretName', SECRET_VOLUME_FIELDS);
  const configMap = normalizeOptionalNamed(v.configMap, 'configMap', 'name', NAME_ONLY_FIELDS);
  let persistentVolumeClaim: Volume['persistentVolumeClaim'];
  const pvc = optObject(v.persistentVolumeClaim, 'persistentVolumeClaim');
  if (pvc !== undefined) {
    enter('persistentVolumeClaim');
    const claimName = reqString(pvc.claimName, 'claimName');
    leave();
    persistentVolumeClaim = isClean(pvc, PVC_VOLUME_FIELDS) ? (pvc as { claimName: string }) : { claimName };
  }
  const projected = normalizeProjected(v.projected);
  const ephemeral = v.ephemeral === undefined || v.ephemeral === null ? undefined : cloneJson(v.ephemeral, 'ephemeral');
  let csi: Volume['csi'];
  const c = optObject(v.csi, 'csi');
  if (c !== undefined) {
    enter('csi');
    const driver = reqString(c.driver, 'driver');
    const ref = normalizeNameRef(c.nodePublishSecretRef, 'nodePublishSecretRef');
    leave();
    csi = (isClean(c, CSI_VOLUME_FIELDS) ? c : {}) as unknown as NonNullable<Volume['csi']>;
    csi.driver = driver;
    if (ref !== undefined) csi.nodePublishSecretRef = ref;
  }
  const out = (isClean(v, VOLUME_FIELDS) ? v : {}) as unknown as Volume;
  out.name = name;
  if (hostPath !== undefined) out.hostPath = hostPath;
  if (secret !== undefined) out.secret = secret;
  if (configMap !== undefined) out.configMap = configMap;
  if (persistentVolumeClaim !== undefined) out.persistentVolumeClaim = persistentVolumeClaim;
  if (projected !== undefined) out.projected = projected;
  if (ephemeral !== undefined) out.ephemeral = ephemeral;
  if (csi !== undefined) out.csi = csi;
  return out;
}
