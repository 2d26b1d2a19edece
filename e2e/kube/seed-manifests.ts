// Creates manifest objects (e.g. the demo cluster) on the test control plane as admin, then writes
// their status through the /status subresource, keeping owner and reservedFor uids consistent with
// the uids the real server assigns.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { KINDS } from '../../lib/k8s/kinds';
import type { ControlPlane } from './control-plane';

const ORDER = [
  'Namespace',
  'ServiceAccount',
  'ClusterRole',
  'Role',
  'ClusterRoleBinding',
  'RoleBinding',
  'Node',
  'DeviceClass',
  'ResourceSlice',
  'DaemonSet',
  'Deployment',
  'StatefulSet',
  'ReplicaSet',
  'Pod',
  'ResourceClaimTemplate',
  'ResourceClaim',
  'ResourceQuota',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'ConfigMap',
];
const WITH_STATUS = new Set(['Node', 'Pod', 'ResourceClaim', 'ResourceQuota']);

type Obj = { apiVersion: string; kind: string; metadata: Record<string, any>; status?: unknown; [k: string]: unknown };

export function readManifests(dir: string): Obj[] {
  const out: Obj[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()) {
    for (const doc of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
      const value = doc.toJS() as Obj | null;
      if (value && value.kind) out.push(value);
    }
  }
  return out;
}

export function pathFor(obj: { apiVersion: string; kind: string; metadata: { namespace?: string } }): string {
  const d = KINDS.find((k) => k.kind === obj.kind) ?? (obj.kind === 'ConfigMap' ? { group: '', resource: 'configmaps', namespaced: true } : undefined);
  if (!d) throw new Error(`no API path known for kind ${obj.kind}`);
  const prefix = obj.apiVersion.includes('/') ? `/apis/${obj.apiVersion}` : `/api/${obj.apiVersion}`;
  return d.namespaced ? `${prefix}/namespaces/${obj.metadata.namespace ?? 'default'}/${d.resource}` : `${prefix}/${d.resource}`;
}

export interface SeedResult {
  created: number;
  skipped: string[];
  /** kind/namespace/name → uid assigned by the server. */
  uids: Map<string, string>;
}

export async function seedObjects(cp: ControlPlane, objects: Obj[]): Promise<SeedResult> {
  const uids = new Map<string, string>();
  const byDemoUid = new Map<string, string>();
  const skipped: string[] = [];
  let created = 0;
  const sorted = objects
    .filter((o) => {
      if (ORDER.includes(o.kind)) return true;
      skipped.push(`${o.kind}/${o.metadata?.name}`);
      return false;
    })
    .sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
  const key = (kind: string, ns: string | undefined, name: string) => `${kind}/${ns ?? ''}/${name}`;

  for (const original of sorted) {
    const obj = structuredClone(original);
    const status = obj.status;
    delete obj.status;
    const demoUid = obj.metadata.uid as string | undefined;
    delete obj.metadata.uid;
    delete obj.metadata.resourceVersion;
    delete obj.metadata.creationTimestamp;
    if (Array.isArray(obj.metadata.ownerReferences)) {
      obj.metadata.ownerReferences = obj.metadata.ownerReferences
        .map((ref: { kind: string; name: string; uid?: string }) => ({ ...ref, uid: uids.get(key(ref.kind, obj.metadata.namespace, ref.name)) }))
        .filter((ref: { uid?: string }) => !!ref.uid);
      if (obj.metadata.ownerReferences.length === 0) delete obj.metadata.ownerReferences;
    }
    const path = pathFor(obj);
    const res = await cp.request('admin', path, { method: 'POST', body: obj });
    if (res.status === 409 && (obj.kind === 'Namespace' || obj.kind === 'ServiceAccount' || obj.kind === 'ClusterRole' || obj.kind === 'ClusterRoleBinding')) {
      // Bootstrap objects (kube-system, default SAs, system:* roles) already exist: replace them.
      const existing = await cp.request('admin', `${path}/${obj.metadata.name}`);
      obj.metadata.resourceVersion = existing.body.metadata.resourceVersion;
      const put = await cp.request('admin', `${path}/${obj.metadata.name}`, { method: 'PUT', body: obj });
      if (put.status >= 300) throw new Error(`replace ${obj.kind} ${obj.metadata.name}: ${put.status} ${JSON.stringify(put.body).slice(0, 400)}`);
      uids.set(key(obj.kind, obj.metadata.namespace, obj.metadata.name), put.body.metadata.uid);
      continue;
    }
    if (res.status >= 300)
      throw new Error(`create ${obj.kind} ${obj.metadata.namespace ?? ''}/${obj.metadata.name}: ${res.status} ${JSON.stringify(res.body).slice(0, 600)}`);
    created++;
    const uid = res.body.metadata.uid as string;
    uids.set(key(obj.kind, obj.metadata.namespace, obj.metadata.name), uid);
    if (demoUid) byDemoUid.set(demoUid, uid);
    if (status && WITH_STATUS.has(obj.kind)) {
      // Controllers (e.g. resource quota) may write status at the same time: retry on conflict.
      let current = res.body;
      for (let attempt = 0; ; attempt++) {
        const put = await cp.request('admin', `${path}/${obj.metadata.name}/status`, {
          method: 'PUT',
          body: { ...current, status: rewriteUids(status, byDemoUid) },
        });
        if (put.status < 300) break;
        if (put.status === 409 && attempt < 5) {
          current = (await cp.request('admin', `${path}/${obj.metadata.name}`)).body;
          continue;
        }
        throw new Error(`status of ${obj.kind} ${obj.metadata.namespace ?? ''}/${obj.metadata.name}: ${put.status} ${JSON.stringify(put.body).slice(0, 600)}`);
      }
    }
  }
  return { created, skipped, uids };
}

// reservedFor entries carry pod uids: point them at the real pods.
function rewriteUids(value: unknown, map: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteUids(v, map));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = k === 'uid' && typeof v === 'string' ? (map.get(v) ?? v) : rewriteUids(v, map);
    return out;
  }
  return value;
}
