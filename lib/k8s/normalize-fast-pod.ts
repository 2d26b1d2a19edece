// Fast path for pods (normalize-fast-common.ts says what it answers): the shapes a minimal pod
// takes. Env vars, projected, CSI and ephemeral volumes and anything rarer answer false and take the
// plain normaliser (normalize-pod.ts).

import { isNormalTopLevel, isPlain, isStringArray } from './normalize-fast-common';
import type { RawObject } from './normalize-helpers';

function isNormalSecurityContext(s: unknown): boolean {
  if (!isPlain(s)) return false;
  for (const k in s) {
    const v = s[k];
    switch (k) {
      case 'privileged':
      case 'allowPrivilegeEscalation':
      case 'readOnlyRootFilesystem':
      case 'runAsNonRoot':
        if (typeof v !== 'boolean') return false;
        break;
      case 'runAsUser':
        if (typeof v !== 'number') return false;
        break;
      case 'capabilities':
        if (!isPlain(v)) return false;
        for (const c in v) if ((c !== 'add' && c !== 'drop') || !isStringArray(v[c])) return false;
        break;
      case 'seccompProfile':
        if (!isPlain(v) || typeof v.type !== 'string') return false;
        for (const p in v) if (p !== 'type' && (p !== 'localhostProfile' || typeof v[p] !== 'string')) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function isNormalVolumeMount(m: unknown): boolean {
  if (!isPlain(m) || typeof m.name !== 'string' || typeof m.mountPath !== 'string') return false;
  for (const k in m) {
    const v = m[k];
    switch (k) {
      case 'name':
      case 'mountPath':
        break;
      case 'readOnly':
        if (typeof v !== 'boolean') return false;
        break;
      case 'mountPropagation':
        if (typeof v !== 'string') return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** `resources` is kept only with its claims: without them the plain normaliser drops it. */
function isNormalResources(r: unknown): boolean {
  if (!isPlain(r)) return false;
  const claims = r.claims;
  if (!Array.isArray(claims)) return false;
  for (const k in r) if (k !== 'claims') return false;
  for (let i = 0; i < claims.length; i++) {
    const c = claims[i];
    if (!isPlain(c) || typeof c.name !== 'string') return false;
    for (const k in c) if (k !== 'name' && (k !== 'request' || typeof c.request !== 'string')) return false;
  }
  return true;
}

function isNormalContainer(c: unknown): boolean {
  if (!isPlain(c) || typeof c.name !== 'string') return false;
  for (const k in c) {
    const v = c[k];
    switch (k) {
      case 'name':
        break;
      case 'image':
        if (typeof v !== 'string') return false;
        break;
      case 'command':
      case 'args':
        if (!isStringArray(v)) return false;
        break;
      case 'securityContext':
        if (!isNormalSecurityContext(v)) return false;
        break;
      case 'volumeMounts':
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!isNormalVolumeMount(v[i])) return false;
        break;
      case 'resources':
        if (!isNormalResources(v)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function isNormalContainers(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!isNormalContainer(v[i])) return false;
  return true;
}

/** `{<field>?: string}` objects such as a volume's `secret: {secretName}`. */
function isNamed(v: unknown, field: string): boolean {
  if (!isPlain(v)) return false;
  for (const k in v) if (k !== field || typeof v[k] !== 'string') return false;
  return true;
}

function isNormalVolume(v: unknown): boolean {
  if (!isPlain(v) || typeof v.name !== 'string') return false;
  for (const k in v) {
    const x = v[k];
    switch (k) {
      case 'name':
        break;
      case 'hostPath':
        if (!isPlain(x) || typeof x.path !== 'string') return false;
        for (const p in x) if (p !== 'path' && (p !== 'type' || typeof x.type !== 'string')) return false;
        break;
      case 'secret':
        if (!isNamed(x, 'secretName')) return false;
        break;
      case 'configMap':
        if (!isNamed(x, 'name')) return false;
        break;
      case 'persistentVolumeClaim':
        if (!isPlain(x) || typeof x.claimName !== 'string') return false;
        for (const p in x) if (p !== 'claimName') return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function isNormalPodResourceClaim(r: unknown): boolean {
  if (!isPlain(r) || typeof r.name !== 'string') return false;
  for (const k in r) {
    if (k === 'name') continue;
    if ((k !== 'resourceClaimName' && k !== 'resourceClaimTemplateName') || typeof r[k] !== 'string') return false;
  }
  return true;
}

function isNormalPodSecurityContext(s: unknown): boolean {
  if (!isPlain(s)) return false;
  for (const k in s) {
    const v = s[k];
    switch (k) {
      case 'runAsNonRoot':
        if (typeof v !== 'boolean') return false;
        break;
      case 'runAsUser':
        if (typeof v !== 'number') return false;
        break;
      case 'seccompProfile':
        // The pod-level profile keeps `type` only.
        if (!isPlain(v) || typeof v.type !== 'string') return false;
        for (const p in v) if (p !== 'type') return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function isNormalPodSpec(s: unknown): boolean {
  if (!isPlain(s) || !isNormalContainers(s.containers)) return false;
  for (const k in s) {
    const v = s[k];
    switch (k) {
      case 'containers':
        break;
      case 'nodeName':
      case 'serviceAccountName':
      case 'serviceAccount':
        if (typeof v !== 'string') return false;
        break;
      case 'hostPID':
      case 'hostNetwork':
      case 'hostIPC':
        if (typeof v !== 'boolean') return false;
        break;
      case 'initContainers':
      case 'ephemeralContainers':
        if (!isNormalContainers(v)) return false;
        break;
      case 'volumes':
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!isNormalVolume(v[i])) return false;
        break;
      case 'imagePullSecrets':
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) {
          const r = v[i];
          if (!isPlain(r) || typeof r.name !== 'string' || !isNamed(r, 'name')) return false;
        }
        break;
      case 'securityContext':
        if (!isNormalPodSecurityContext(v)) return false;
        break;
      case 'resourceClaims':
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!isNormalPodResourceClaim(v[i])) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function isNormalPodStatus(s: unknown): boolean {
  if (!isPlain(s)) return false;
  for (const k in s) {
    const v = s[k];
    switch (k) {
      case 'phase':
        if (typeof v !== 'string') return false;
        break;
      case 'resourceClaimStatuses':
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) {
          const c = v[i];
          if (!isPlain(c) || typeof c.name !== 'string') return false;
          for (const f in c) if (f !== 'name' && (f !== 'resourceClaimName' || typeof c[f] !== 'string')) return false;
        }
        break;
      default:
        return false;
    }
  }
  return true;
}

/** True when normalizeObject(o, 'Pod', apiVersion) would return `o` itself, unchanged. */
export function isNormalPod(o: RawObject, apiVersion: string): boolean {
  return isNormalTopLevel(o, 'Pod', apiVersion, isNormalPodSpec, isNormalPodStatus);
}
