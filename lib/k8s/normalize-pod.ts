// Pod specs: the bulk of every snapshot, so this is the hottest normaliser. Env values are dropped
// here (only the variable name and its valueFrom reference survive): they often hold credentials.

import { normalizePartialMeta, normalizeNameRefs } from './normalize-common';
import {
  asObject,
  cloneJson,
  enter,
  leave,
  optArray,
  optBoolean,
  optNumber,
  optObject,
  optString,
  optStringArray,
  reqArray,
  reqObject,
  reqString,
  type RawObject,
} from './normalize-helpers';
import type { Container, EnvFromSource, EnvVar, PodSpec, PodTemplateSpec, SecurityContext, Volume } from './types';

function normalizeKeyRef(o: RawObject, key: string): { name: string; key?: string } | undefined {
  const r = optObject(o, key);
  if (r === undefined) return undefined;
  enter(key);
  const out: { name: string; key?: string } = { name: reqString(r, 'name') };
  const k = optString(r, 'key');
  if (k !== undefined) out.key = k;
  leave();
  return out;
}

function normalizeEnv(c: RawObject): EnvVar[] | undefined {
  const list = optArray(c, 'env');
  if (list === undefined) return undefined;
  enter('env');
  const out: EnvVar[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    const e = asObject(list[i]);
    // `value` is deliberately not read.
    const env: EnvVar = { name: reqString(e, 'name') };
    const from = optObject(e, 'valueFrom');
    if (from !== undefined) {
      enter('valueFrom');
      const valueFrom: NonNullable<EnvVar['valueFrom']> = {};
      const secretKeyRef = normalizeKeyRef(from, 'secretKeyRef');
      if (secretKeyRef !== undefined) valueFrom.secretKeyRef = secretKeyRef;
      const configMapKeyRef = normalizeKeyRef(from, 'configMapKeyRef');
      if (configMapKeyRef !== undefined) valueFrom.configMapKeyRef = configMapKeyRef;
      const fieldRef = optObject(from, 'fieldRef');
      if (fieldRef !== undefined) {
        enter('fieldRef');
        valueFrom.fieldRef = { fieldPath: reqString(fieldRef, 'fieldPath') };
        leave();
      }
      env.valueFrom = valueFrom;
      leave();
    }
    out.push(env);
    leave();
  }
  leave();
  return out;
}

function normalizeNameRef(o: RawObject, key: string): { name: string } | undefined {
  const r = optObject(o, key);
  if (r === undefined) return undefined;
  enter(key);
  const out = { name: reqString(r, 'name') };
  leave();
  return out;
}

function normalizeEnvFrom(c: RawObject): EnvFromSource[] | undefined {
  const list = optArray(c, 'envFrom');
  if (list === undefined) return undefined;
  enter('envFrom');
  const out: EnvFromSource[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    const e = asObject(list[i]);
    const source: EnvFromSource = {};
    const secretRef = normalizeNameRef(e, 'secretRef');
    if (secretRef !== undefined) source.secretRef = secretRef;
    const configMapRef = normalizeNameRef(e, 'configMapRef');
    if (configMapRef !== undefined) source.configMapRef = configMapRef;
    out.push(source);
    leave();
  }
  leave();
  return out;
}

function normalizeSeccomp(o: RawObject, withLocalhost: boolean): { type: string; localhostProfile?: string } | undefined {
  const s = optObject(o, 'seccompProfile');
  if (s === undefined) return undefined;
  enter('seccompProfile');
  const out: { type: string; localhostProfile?: string } = { type: reqString(s, 'type') };
  if (withLocalhost) {
    const localhostProfile = optString(s, 'localhostProfile');
    if (localhostProfile !== undefined) out.localhostProfile = localhostProfile;
  }
  leave();
  return out;
}

function normalizeSecurityContext(c: RawObject): SecurityContext | undefined {
  const s = optObject(c, 'securityContext');
  if (s === undefined) return undefined;
  enter('securityContext');
  const out: SecurityContext = {};
  const privileged = optBoolean(s, 'privileged');
  if (privileged !== undefined) out.privileged = privileged;
  const allowPrivilegeEscalation = optBoolean(s, 'allowPrivilegeEscalation');
  if (allowPrivilegeEscalation !== undefined) out.allowPrivilegeEscalation = allowPrivilegeEscalation;
  const readOnlyRootFilesystem = optBoolean(s, 'readOnlyRootFilesystem');
  if (readOnlyRootFilesystem !== undefined) out.readOnlyRootFilesystem = readOnlyRootFilesystem;
  const runAsNonRoot = optBoolean(s, 'runAsNonRoot');
  if (runAsNonRoot !== undefined) out.runAsNonRoot = runAsNonRoot;
  const runAsUser = optNumber(s, 'runAsUser');
  if (runAsUser !== undefined) out.runAsUser = runAsUser;
  const capabilities = optObject(s, 'capabilities');
  if (capabilities !== undefined) {
    enter('capabilities');
    const caps: { add?: string[]; drop?: string[] } = {};
    const add = optStringArray(capabilities, 'add');
    if (add !== undefined) caps.add = add;
    const drop = optStringArray(capabilities, 'drop');
    if (drop !== undefined) caps.drop = drop;
    out.capabilities = caps;
    leave();
  }
  const seccompProfile = normalizeSeccomp(s, true);
  if (seccompProfile !== undefined) out.seccompProfile = seccompProfile;
  leave();
  return out;
}

type VolumeMount = NonNullable<Container['volumeMounts']>[number];

function normalizeVolumeMounts(c: RawObject): VolumeMount[] | undefined {
  const list = optArray(c, 'volumeMounts');
  if (list === undefined) return undefined;
  enter('volumeMounts');
  const out: VolumeMount[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    const m = asObject(list[i]);
    const mount: VolumeMount = { name: reqString(m, 'name'), mountPath: reqString(m, 'mountPath') };
    const readOnly = optBoolean(m, 'readOnly');
    if (readOnly !== undefined) mount.readOnly = readOnly;
    const mountPropagation = optString(m, 'mountPropagation');
    if (mountPropagation !== undefined) mount.mountPropagation = mountPropagation;
    out.push(mount);
    leave();
  }
  leave();
  return out;
}

function normalizeContainerClaims(c: RawObject): { claims: { name: string; request?: string }[] } | undefined {
  const resources = optObject(c, 'resources');
  if (resources === undefined) return undefined;
  const list = resources.claims;
  // requests/limits are not part of the model; keep `resources` only when it names claims.
  if (list === undefined || list === null) return undefined;
  enter('resources');
  const claims = optArray(resources, 'claims') as unknown[];
  enter('claims');
  const out: { name: string; request?: string }[] = [];
  for (let i = 0; i < claims.length; i++) {
    enter(i);
    const r = asObject(claims[i]);
    const claim: { name: string; request?: string } = { name: reqString(r, 'name') };
    const request = optString(r, 'request');
    if (request !== undefined) claim.request = request;
    out.push(claim);
    leave();
  }
  leave();
  leave();
  return { claims: out };
}

function normalizeContainer(c: RawObject): Container {
  const out: Container = { name: reqString(c, 'name') };
  const image = optString(c, 'image');
  if (image !== undefined) out.image = image;
  const command = optStringArray(c, 'command');
  if (command !== undefined) out.command = command;
  const args = optStringArray(c, 'args');
  if (args !== undefined) out.args = args;
  const env = normalizeEnv(c);
  if (env !== undefined) out.env = env;
  const envFrom = normalizeEnvFrom(c);
  if (envFrom !== undefined) out.envFrom = envFrom;
  const securityContext = normalizeSecurityContext(c);
  if (securityContext !== undefined) out.securityContext = securityContext;
  const volumeMounts = normalizeVolumeMounts(c);
  if (volumeMounts !== undefined) out.volumeMounts = volumeMounts;
  const resources = normalizeContainerClaims(c);
  if (resources !== undefined) out.resources = resources;
  return out;
}

function normalizeContainers(spec: RawObject, key: string, required: boolean): Container[] | undefined {
  const list = required ? reqArray(spec, key) : optArray(spec, key);
  if (list === undefined) return undefined;
  enter(key);
  const out: Container[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    out.push(normalizeContainer(asObject(list[i])));
    leave();
  }
  leave();
  return out;
}

function optNamed(o: RawObject, key: string, field: string): Record<string, string> | undefined {
  const r = optObject(o, key);
  if (r === undefined) return undefined;
  enter(key);
  const out: Record<string, string> = {};
  const value = optString(r, field);
  if (value !== undefined) out[field] = value;
  leave();
  return out;
}

type ProjectedSource = NonNullable<NonNullable<Volume['projected']>['sources']>[number];

function normalizeProjected(v: RawObject): Volume['projected'] {
  const p = optObject(v, 'projected');
  if (p === undefined) return undefined;
  enter('projected');
  const out: NonNullable<Volume['projected']> = {};
  const sources = optArray(p, 'sources');
  if (sources !== undefined) {
    enter('sources');
    const list: ProjectedSource[] = [];
    for (let i = 0; i < sources.length; i++) {
      enter(i);
      const s = asObject(sources[i]);
      const source: ProjectedSource = {};
      const secret = optNamed(s, 'secret', 'name');
      if (secret !== undefined) source.secret = secret;
      const configMap = optNamed(s, 'configMap', 'name');
      if (configMap !== undefined) source.configMap = configMap;
      const token = optObject(s, 'serviceAccountToken');
      if (token !== undefined) {
        enter('serviceAccountToken');
        const t: { audience?: string; path?: string } = {};
        const audience = optString(token, 'audience');
        if (audience !== undefined) t.audience = audience;
        const path = optString(token, 'path');
        if (path !== undefined) t.path = path;
        source.serviceAccountToken = t;
        leave();
      }
      list.push(source);
      leave();
    }
    leave();
    out.sources = list;
  }
  leave();
  return out;
}

function normalizeVolume(v: RawObject): Volume {
  const out: Volume = { name: reqString(v, 'name') };
  const hostPath = optObject(v, 'hostPath');
  if (hostPath !== undefined) {
    enter('hostPath');
    const hp: { path: string; type?: string } = { path: reqString(hostPath, 'path') };
    const type = optString(hostPath, 'type');
    if (type !== undefined) hp.type = type;
    out.hostPath = hp;
    leave();
  }
  const secret = optNamed(v, 'secret', 'secretName');
  if (secret !== undefined) out.secret = secret;
  const configMap = optNamed(v, 'configMap', 'name');
  if (configMap !== undefined) out.configMap = configMap;
  const pvc = optObject(v, 'persistentVolumeClaim');
  if (pvc !== undefined) {
    enter('persistentVolumeClaim');
    out.persistentVolumeClaim = { claimName: reqString(pvc, 'claimName') };
    leave();
  }
  const projected = normalizeProjected(v);
  if (projected !== undefined) out.projected = projected;
  const ephemeral = v.ephemeral;
  if (ephemeral !== undefined && ephemeral !== null) out.ephemeral = cloneJson(ephemeral, 'ephemeral');
  const csi = optObject(v, 'csi');
  if (csi !== undefined) {
    enter('csi');
    const c: NonNullable<Volume['csi']> = { driver: reqString(csi, 'driver') };
    const ref = normalizeNameRef(csi, 'nodePublishSecretRef');
    if (ref !== undefined) c.nodePublishSecretRef = ref;
    out.csi = c;
    leave();
  }
  return out;
}

function normalizeVolumes(spec: RawObject): Volume[] | undefined {
  const list = optArray(spec, 'volumes');
  if (list === undefined) return undefined;
  enter('volumes');
  const out: Volume[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    out.push(normalizeVolume(asObject(list[i])));
    leave();
  }
  leave();
  return out;
}

type PodResourceClaim = NonNullable<PodSpec['resourceClaims']>[number];

function normalizePodResourceClaims(spec: RawObject): PodResourceClaim[] | undefined {
  const list = optArray(spec, 'resourceClaims');
  if (list === undefined) return undefined;
  enter('resourceClaims');
  const out: PodResourceClaim[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    const r = asObject(list[i]);
    const claim: PodResourceClaim = { name: reqString(r, 'name') };
    const resourceClaimName = optString(r, 'resourceClaimName');
    if (resourceClaimName !== undefined) claim.resourceClaimName = resourceClaimName;
    const resourceClaimTemplateName = optString(r, 'resourceClaimTemplateName');
    if (resourceClaimTemplateName !== undefined) claim.resourceClaimTemplateName = resourceClaimTemplateName;
    out.push(claim);
    leave();
  }
  leave();
  return out;
}

function normalizePodSecurityContext(spec: RawObject): PodSpec['securityContext'] {
  const s = optObject(spec, 'securityContext');
  if (s === undefined) return undefined;
  enter('securityContext');
  const out: NonNullable<PodSpec['securityContext']> = {};
  const runAsNonRoot = optBoolean(s, 'runAsNonRoot');
  if (runAsNonRoot !== undefined) out.runAsNonRoot = runAsNonRoot;
  const runAsUser = optNumber(s, 'runAsUser');
  if (runAsUser !== undefined) out.runAsUser = runAsUser;
  const seccompProfile = normalizeSeccomp(s, false);
  if (seccompProfile !== undefined) out.seccompProfile = seccompProfile;
  leave();
  return out;
}

function normalizePodSpecValue(spec: RawObject): PodSpec {
  const out: PodSpec = { containers: normalizeContainers(spec, 'containers', true) as Container[] };
  const nodeName = optString(spec, 'nodeName');
  if (nodeName !== undefined) out.nodeName = nodeName;
  const serviceAccountName = optString(spec, 'serviceAccountName');
  if (serviceAccountName !== undefined) out.serviceAccountName = serviceAccountName;
  const serviceAccount = optString(spec, 'serviceAccount');
  if (serviceAccount !== undefined) out.serviceAccount = serviceAccount;
  const hostPID = optBoolean(spec, 'hostPID');
  if (hostPID !== undefined) out.hostPID = hostPID;
  const hostNetwork = optBoolean(spec, 'hostNetwork');
  if (hostNetwork !== undefined) out.hostNetwork = hostNetwork;
  const hostIPC = optBoolean(spec, 'hostIPC');
  if (hostIPC !== undefined) out.hostIPC = hostIPC;
  const initContainers = normalizeContainers(spec, 'initContainers', false);
  if (initContainers !== undefined) out.initContainers = initContainers;
  const ephemeralContainers = normalizeContainers(spec, 'ephemeralContainers', false);
  if (ephemeralContainers !== undefined) out.ephemeralContainers = ephemeralContainers;
  const volumes = normalizeVolumes(spec);
  if (volumes !== undefined) out.volumes = volumes;
  const imagePullSecrets = normalizeNameRefs(spec, 'imagePullSecrets');
  if (imagePullSecrets !== undefined) out.imagePullSecrets = imagePullSecrets;
  const securityContext = normalizePodSecurityContext(spec);
  if (securityContext !== undefined) out.securityContext = securityContext;
  const resourceClaims = normalizePodResourceClaims(spec);
  if (resourceClaims !== undefined) out.resourceClaims = resourceClaims;
  return out;
}

export function normalizePodSpec(o: RawObject, key: string): PodSpec {
  const spec = reqObject(o, key);
  enter(key);
  const out = normalizePodSpecValue(spec);
  leave();
  return out;
}

export function normalizePodTemplate(o: RawObject, key: string, required: boolean): PodTemplateSpec | undefined {
  const t = required ? reqObject(o, key) : optObject(o, key);
  if (t === undefined) return undefined;
  enter(key);
  const out: PodTemplateSpec = { spec: normalizePodSpec(t, 'spec') };
  const metadata = normalizePartialMeta(t, 'metadata');
  if (metadata !== undefined) out.metadata = metadata;
  leave();
  return out;
}
