// Pod specs: the bulk of every snapshot, so this is the hottest normaliser. Env values are dropped
// here (only the variable name and its valueFrom reference survive): they often hold credentials.
// Same reuse-or-copy pattern as normalize-common.ts.

import { normalizeNameRef, normalizeNameRefs, normalizePartialMeta } from './normalize-common';
import {
  enter,
  fields,
  isClean,
  leave,
  optBoolean,
  optNumber,
  optObject,
  optObjectList,
  optString,
  optStringArray,
  reqObject,
  reqObjectList,
  reqString,
  type RawObject,
} from './normalize-helpers';
import type { Container, EnvFromSource, EnvVar, PodSpec, PodTemplateSpec, SecurityContext } from './types';
import { normalizeVolume } from './normalize-volumes';

const KEY_REF_FIELDS = fields('name', 'key');

function normalizeKeyRef(value: unknown, key: string): { name: string; key?: string } | undefined {
  const r = optObject(value, key);
  if (r === undefined) return undefined;
  enter(key);
  const name = reqString(r.name, 'name');
  const k = optString(r.key, 'key');
  leave();
  if (isClean(r, KEY_REF_FIELDS)) return r as { name: string; key?: string };
  const out: { name: string; key?: string } = { name };
  if (k !== undefined) out.key = k;
  return out;
}

const VALUE_FROM_FIELDS = fields('secretKeyRef', 'configMapKeyRef', 'fieldRef');
const FIELD_REF_FIELDS = fields('fieldPath');

function normalizeValueFrom(value: unknown): EnvVar['valueFrom'] {
  const from = optObject(value, 'valueFrom');
  if (from === undefined) return undefined;
  enter('valueFrom');
  const secretKeyRef = normalizeKeyRef(from.secretKeyRef, 'secretKeyRef');
  const configMapKeyRef = normalizeKeyRef(from.configMapKeyRef, 'configMapKeyRef');
  let fieldRef: { fieldPath: string } | undefined;
  const f = optObject(from.fieldRef, 'fieldRef');
  if (f !== undefined) {
    enter('fieldRef');
    const fieldPath = reqString(f.fieldPath, 'fieldPath');
    fieldRef = isClean(f, FIELD_REF_FIELDS) ? (f as { fieldPath: string }) : { fieldPath };
    leave();
  }
  leave();
  const out = (isClean(from, VALUE_FROM_FIELDS) ? from : {}) as unknown as NonNullable<EnvVar['valueFrom']>;
  if (secretKeyRef !== undefined) out.secretKeyRef = secretKeyRef;
  if (configMapKeyRef !== undefined) out.configMapKeyRef = configMapKeyRef;
  if (fieldRef !== undefined) out.fieldRef = fieldRef;
  return out;
}

// `value` is deliberately not declared: an env var that has one is always copied without it.
const ENV_FIELDS = fields('name', 'valueFrom');

function normalizeEnvVar(e: RawObject): EnvVar {
  const name = reqString(e.name, 'name');
  const valueFrom = normalizeValueFrom(e.valueFrom);
  if (!isClean(e, ENV_FIELDS)) {
    const env: EnvVar = { name };
    if (valueFrom !== undefined) env.valueFrom = valueFrom;
    return env;
  }
  if (valueFrom !== e.valueFrom) e.valueFrom = valueFrom;
  return e as unknown as EnvVar;
}

const ENV_FROM_FIELDS = fields('secretRef', 'configMapRef');

function normalizeEnvFromSource(e: RawObject): EnvFromSource {
  const secretRef = normalizeNameRef(e.secretRef, 'secretRef');
  const configMapRef = normalizeNameRef(e.configMapRef, 'configMapRef');
  const source = (isClean(e, ENV_FROM_FIELDS) ? e : {}) as unknown as EnvFromSource;
  if (secretRef !== undefined) source.secretRef = secretRef;
  if (configMapRef !== undefined) source.configMapRef = configMapRef;
  return source;
}

const SECCOMP_FIELDS = fields('type', 'localhostProfile');
const POD_SECCOMP_FIELDS = fields('type');

function normalizeSeccomp(value: unknown, withLocalhost: boolean): { type: string; localhostProfile?: string } | undefined {
  const s = optObject(value, 'seccompProfile');
  if (s === undefined) return undefined;
  enter('seccompProfile');
  const type = reqString(s.type, 'type');
  const localhostProfile = withLocalhost ? optString(s.localhostProfile, 'localhostProfile') : undefined;
  leave();
  if (isClean(s, withLocalhost ? SECCOMP_FIELDS : POD_SECCOMP_FIELDS)) return s as { type: string };
  const out: { type: string; localhostProfile?: string } = { type };
  if (localhostProfile !== undefined) out.localhostProfile = localhostProfile;
  return out;
}

const CAPABILITIES_FIELDS = fields('add', 'drop');
const SECURITY_CONTEXT_FIELDS = fields(
  'privileged',
  'allowPrivilegeEscalation',
  'readOnlyRootFilesystem',
  'runAsNonRoot',
  'runAsUser',
  'capabilities',
  'seccompProfile',
);

function normalizeSecurityContext(value: unknown): SecurityContext | undefined {
  const s = optObject(value, 'securityContext');
  if (s === undefined) return undefined;
  enter('securityContext');
  const privileged = optBoolean(s.privileged, 'privileged');
  const allowPrivilegeEscalation = optBoolean(s.allowPrivilegeEscalation, 'allowPrivilegeEscalation');
  const readOnlyRootFilesystem = optBoolean(s.readOnlyRootFilesystem, 'readOnlyRootFilesystem');
  const runAsNonRoot = optBoolean(s.runAsNonRoot, 'runAsNonRoot');
  const runAsUser = optNumber(s.runAsUser, 'runAsUser');
  let capabilities: SecurityContext['capabilities'];
  const c = optObject(s.capabilities, 'capabilities');
  if (c !== undefined) {
    enter('capabilities');
    const add = optStringArray(c.add, 'add');
    const drop = optStringArray(c.drop, 'drop');
    leave();
    if (isClean(c, CAPABILITIES_FIELDS)) {
      capabilities = c as SecurityContext['capabilities'];
    } else {
      capabilities = {};
      if (add !== undefined) capabilities.add = add;
      if (drop !== undefined) capabilities.drop = drop;
    }
  }
  const seccompProfile = normalizeSeccomp(s.seccompProfile, true);
  leave();
  const out = (isClean(s, SECURITY_CONTEXT_FIELDS) ? s : {}) as unknown as SecurityContext;
  if (privileged !== undefined) out.privileged = privileged;
  if (allowPrivilegeEscalation !== undefined) out.allowPrivilegeEscalation = allowPrivilegeEscalation;
  if (readOnlyRootFilesystem !== undefined) out.readOnlyRootFilesystem = readOnlyRootFilesystem;
  if (runAsNonRoot !== undefined) out.runAsNonRoot = runAsNonRoot;
  if (runAsUser !== undefined) out.runAsUser = runAsUser;
  if (capabilities !== undefined) out.capabilities = capabilities;
  if (seccompProfile !== undefined) out.seccompProfile = seccompProfile;
  return out;
}

type VolumeMount = NonNullable<Container['volumeMounts']>[number];
const VOLUME_MOUNT_FIELDS = fields('name', 'mountPath', 'readOnly', 'mountPropagation');

function normalizeVolumeMount(m: RawObject): VolumeMount {
  const name = reqString(m.name, 'name');
  const mountPath = reqString(m.mountPath, 'mountPath');
  const readOnly = optBoolean(m.readOnly, 'readOnly');
  const mountPropagation = optString(m.mountPropagation, 'mountPropagation');
  if (isClean(m, VOLUME_MOUNT_FIELDS)) return m as unknown as VolumeMount;
  const mount: VolumeMount = { name, mountPath };
  if (readOnly !== undefined) mount.readOnly = readOnly;
  if (mountPropagation !== undefined) mount.mountPropagation = mountPropagation;
  return mount;
}

type ContainerClaim = { name: string; request?: string };
const CONTAINER_CLAIM_FIELDS = fields('name', 'request');
const CONTAINER_RESOURCES_FIELDS = fields('claims');

function normalizeContainerClaim(r: RawObject): ContainerClaim {
  const name = reqString(r.name, 'name');
  const request = optString(r.request, 'request');
  if (isClean(r, CONTAINER_CLAIM_FIELDS)) return r as unknown as ContainerClaim;
  const claim: ContainerClaim = { name };
  if (request !== undefined) claim.request = request;
  return claim;
}

/** `resources` keeps only `claims`; requests and limits are not part of the model. */
function normalizeContainerResources(value: unknown): { claims: ContainerClaim[] } | undefined {
  const resources = optObject(value, 'resources');
  if (resources === undefined) return undefined;
  enter('resources');
  const claims = optObjectList(resources.claims, 'claims', normalizeContainerClaim);
  leave();
  if (claims === undefined) return undefined;
  return isClean(resources, CONTAINER_RESOURCES_FIELDS) ? (resources as { claims: ContainerClaim[] }) : { claims };
}

const CONTAINER_FIELDS = fields('name', 'image', 'command', 'args', 'env', 'envFrom', 'securityContext', 'volumeMounts', 'resources');

function normalizeContainer(c: RawObject): Container {
  const name = reqString(c.name, 'name');
  const image = optString(c.image, 'image');
  const command = optStringArray(c.command, 'command');
  const args = optStringArray(c.args, 'args');
  const env = optObjectList(c.env, 'env', normalizeEnvVar);
  const envFrom = optObjectList(c.envFrom, 'envFrom', normalizeEnvFromSource);
  const securityContext = normalizeSecurityContext(c.securityContext);
  const volumeMounts = optObjectList(c.volumeMounts, 'volumeMounts', normalizeVolumeMount);
  const resources = normalizeContainerResources(c.resources);
  // A `resources` without claims is dropped, which a reused object could not express.
  const reuse = isClean(c, CONTAINER_FIELDS) && (resources !== undefined || c.resources === undefined);
  const out = (reuse ? c : {}) as unknown as Container;
  out.name = name;
  if (image !== undefined) out.image = image;
  if (command !== undefined) out.command = command;
  if (args !== undefined) out.args = args;
  if (env !== undefined) out.env = env;
  if (envFrom !== undefined) out.envFrom = envFrom;
  if (securityContext !== undefined) out.securityContext = securityContext;
  if (volumeMounts !== undefined) out.volumeMounts = volumeMounts;
  if (resources !== undefined) out.resources = resources;
  return out;
}

type PodResourceClaim = NonNullable<PodSpec['resourceClaims']>[number];

const POD_RESOURCE_CLAIM_FIELDS = fields('name', 'resourceClaimName', 'resourceClaimTemplateName');

function normalizePodResourceClaim(r: RawObject): PodResourceClaim {
  const name = reqString(r.name, 'name');
  const resourceClaimName = optString(r.resourceClaimName, 'resourceClaimName');
  const resourceClaimTemplateName = optString(r.resourceClaimTemplateName, 'resourceClaimTemplateName');
  if (isClean(r, POD_RESOURCE_CLAIM_FIELDS)) return r as unknown as PodResourceClaim;
  const claim: PodResourceClaim = { name };
  if (resourceClaimName !== undefined) claim.resourceClaimName = resourceClaimName;
  if (resourceClaimTemplateName !== undefined) claim.resourceClaimTemplateName = resourceClaimTemplateName;
  return claim;
}

const POD_SECURITY_CONTEXT_FIELDS = fields('runAsNonRoot', 'runAsUser', 'seccompProfile');

function normalizePodSecurityContext(value: unknown): PodSpec['securityContext'] {
  const s = optObject(value, 'securityContext');
  if (s === undefined) return undefined;
  enter('securityContext');
  const runAsNonRoot = optBoolean(s.runAsNonRoot, 'runAsNonRoot');
  const runAsUser = optNumber(s.runAsUser, 'runAsUser');
  const seccompProfile = normalizeSeccomp(s.seccompProfile, false);
  leave();
  const out = (isClean(s, POD_SECURITY_CONTEXT_FIELDS) ? s : {}) as unknown as NonNullable<PodSpec['securityContext']>;
  if (runAsNonRoot !== undefined) out.runAsNonRoot = runAsNonRoot;
  if (runAsUser !== undefined) out.runAsUser = runAsUser;
  if (seccompProfile !== undefined) out.seccompProfile = seccompProfile;
  return out;
}

const POD_SPEC_FIELDS = fields(
  'nodeName',
  'serviceAccountName',
  'serviceAccount',
  'hostPID',
  'hostNetwork',
  'hostIPC',
  'containers',
  'initContainers',
  'ephemeralContainers',
  'volumes',
  'imagePullSecrets',
  'securityContext',
  'resourceClaims',
);

function normalizePodSpecValue(spec: RawObject): PodSpec {
  const containers = reqObjectList(spec.containers, 'containers', normalizeContainer);
  const nodeName = optString(spec.nodeName, 'nodeName');
  const serviceAccountName = optString(spec.serviceAccountName, 'serviceAccountName');
  const serviceAccount = optString(spec.serviceAccount, 'serviceAccount');
  const hostPID = optBoolean(spec.hostPID, 'hostPID');
  const hostNetwork = optBoolean(spec.hostNetwork, 'hostNetwork');
  const hostIPC = optBoolean(spec.hostIPC, 'hostIPC');
  const initContainers = optObjectList(spec.initContainers, 'initContainers', normalizeContainer);
  const ephemeralContainers = optObjectList(spec.ephemeralContainers, 'ephemeralContainers', normalizeContainer);
  const volumes = optObjectList(spec.volumes, 'volumes', normalizeVolume);
  const imagePullSecrets = normalizeNameRefs(spec.imagePullSecrets, 'imagePullSecrets');
  const securityContext = normalizePodSecurityContext(spec.securityContext);
  const resourceClaims = optObjectList(spec.resourceClaims, 'resourceClaims', normalizePodResourceClaim);
  const out = (isClean(spec, POD_SPEC_FIELDS) ? spec : {}) as unknown as PodSpec;
  out.containers = containers;
  if (nodeName !== undefined) out.nodeName = nodeName;
  if (serviceAccountName !== undefined) out.serviceAccountName = serviceAccountName;
  if (serviceAccount !== undefined) out.serviceAccount = serviceAccount;
  if (hostPID !== undefined) out.hostPID = hostPID;
  if (hostNetwork !== undefined) out.hostNetwork = hostNetwork;
  if (hostIPC !== undefined) out.hostIPC = hostIPC;
  if (initContainers !== undefined) out.initContainers = initContainers;
  if (ephemeralContainers !== undefined) out.ephemeralContainers = ephemeralContainers;
  if (volumes !== undefined) out.volumes = volumes;
  if (imagePullSecrets !== undefined) out.imagePullSecrets = imagePullSecrets;
  if (securityContext !== undefined) out.securityContext = securityContext;
  if (resourceClaims !== undefined) out.resourceClaims = resourceClaims;
  return out;
}

export function normalizePodSpec(value: unknown, key: string): PodSpec {
  const spec = reqObject(value, key);
  enter(key);
  const out = normalizePodSpecValue(spec);
  leave();
  return out;
}

const POD_TEMPLATE_FIELDS = fields('metadata', 'spec');

export function normalizePodTemplate(value: unknown, key: string, required: boolean): PodTemplateSpec | undefined {
  const t = required ? reqObject(value, key) : optObject(value, key);
  if (t === undefined) return undefined;
  enter(key);
  const spec = normalizePodSpec(t.spec, 'spec');
  const metadata = normalizePartialMeta(t.metadata, 'metadata');
  leave();
  const out = (isClean(t, POD_TEMPLATE_FIELDS) ? t : {}) as unknown as PodTemplateSpec;
  out.spec = spec;
  if (metadata !== undefined) out.metadata = metadata;
  return out;
}
