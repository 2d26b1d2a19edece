import 'server-only';
import { promisify } from 'node:util';
import { gunzipSync, gzip, gzipSync } from 'node:zlib';
import { ENTRY } from '@/lib/compliance/bundle-format';
import { driftDigest, type DriftDigest } from '@/lib/compliance/drift-digest';
import { permissionLinesOfObjectsJson } from '@/lib/compliance/objects-json-permissions';
import { permissionInputsOf, type PermissionInputs } from '@/lib/compliance/permission-inputs';
import { buildClusterState } from '@/lib/k8s/build-cluster-state';
import { compareStrings } from '@/lib/k8s/refs';
import { parseDocuments } from './parse-documents';
import { verifiedBundle } from './bundle-source';
import { getSnapshotBundle, getSnapshotDigest, saveSnapshotDigest } from '@/server/compliance/snapshot-store';

// A bundle's drift digest: its report as exported, and from objects.json only what the permission
// lines are computed from (the RBAC objects and API server pods, parsed as any snapshot is; node and
// driver names). The bundle is verified first, as when it is opened as a source.

function permissionInputsOfObjects(bytes: Uint8Array, fileName: string): PermissionInputs {
  const origin = `${fileName}:${ENTRY.objects}`;
  const source = { kind: 'snapshot' as const, name: fileName };
  let lines;
  try {
    lines = permissionLinesOfObjectsJson(bytes);
  } catch {
    lines = undefined;
  }
  // Not laid out as this tool writes it: read whole, and any error is reported as for a source.
  if (!lines) return permissionInputsOf(buildClusterState(parseDocuments(bytes, origin, 'json'), source, { onInvalid: 'fail' }));
  const state = buildClusterState(parseDocuments(`[${lines.objects.join(',\n')}]`, origin, 'json'), source, { onInvalid: 'fail' });
  const inputs = permissionInputsOf(state);
  const merged = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])].sort(compareStrings);
  return { ...inputs, drivers: merged(inputs.drivers, lines.drivers), nodes: merged(inputs.nodes, lines.nodes) };
}

/** What drift compares of a bundle; a damaged or altered bundle is refused as openBundle refuses it. */
export function bundleDriftDigest(bytes: Uint8Array, fileName: string): DriftDigest {
  const { report, entries } = verifiedBundle(bytes, fileName);
  return driftDigest(report, permissionInputsOfObjects(entries.get(ENTRY.objects)!, fileName));
}

/** Bumped when DriftDigest changes shape: a stored digest of another version is not read. */
export const DRIFT_DIGEST_VERSION = 1;

export function encodeDriftDigest(digest: DriftDigest): Uint8Array {
  return gzipSync(JSON.stringify(digest), { level: 1 });
}

/** encodeDriftDigest with the compression off the event loop (a large cluster's digest is 45 MiB of JSON). */
export async function encodeDriftDigestInBackground(digest: DriftDigest): Promise<Uint8Array> {
  return promisify(gzip)(JSON.stringify(digest), { level: 1 });
}

export function decodeDriftDigest(bytes: Uint8Array): DriftDigest {
  return JSON.parse(gunzipSync(bytes).toString('utf8')) as DriftDigest;
}

/**
 * A stored snapshot's drift digest: the one kept at take time, else made from its bundle (and then
 * kept). Undefined when no snapshot has this id.
 */
export function storedDriftDigest(id: string): DriftDigest | undefined {
  const kept = getSnapshotDigest(id, DRIFT_DIGEST_VERSION);
  if (kept) return decodeDriftDigest(kept);
  const bytes = getSnapshotBundle(id);
  if (!bytes) return undefined;
  const digest = bundleDriftDigest(bytes, id);
  saveSnapshotDigest(id, DRIFT_DIGEST_VERSION, encodeDriftDigest(digest));
  return digest;
}
