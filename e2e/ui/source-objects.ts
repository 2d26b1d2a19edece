import type { APIRequestContext } from '@playwright/test';
import { ENTRY } from '@/lib/compliance/bundle-format';
import { readTar } from '@/lib/compliance/tar';

// The loaded source's own objects, as the dashboard exports them (objects.json of the current
// snapshot bundle): what a test checks the pages' names against, instead of names written in the test.

export interface SourceObjects {
  nodes: Set<string>;
  namespaces: Set<string>;
  /** namespace/name */
  claims: Set<string>;
  /** namespace/name */
  serviceAccounts: Set<string>;
}

export async function sourceObjects(request: APIRequestContext): Promise<SourceObjects> {
  const res = await request.get('/api/v1/snapshots/current/bundle');
  if (!res.ok()) throw new Error(`bundle: HTTP ${res.status()}`);
  const bytes = new Uint8Array(await res.body());
  const entry = readTar(bytes).find((e) => e.name === ENTRY.objects);
  if (!entry) throw new Error(`the bundle has no ${ENTRY.objects}`);
  return objectsOfList(new TextDecoder().decode(bytes.subarray(entry.dataOffset, entry.dataOffset + entry.size)));
}

/** The objects of a `kind: List` JSON (objects.json, or a snapshot file a server was started with). */
export function objectsOfList(json: string): SourceObjects {
  const list = JSON.parse(json) as {
    items: { kind: string; metadata?: { name: string; namespace?: string } }[];
  };
  const out: SourceObjects = { nodes: new Set(), namespaces: new Set(), claims: new Set(), serviceAccounts: new Set() };
  for (const o of list.items) {
    const m = o.metadata;
    if (!m) continue;
    if (o.kind === 'Node') out.nodes.add(m.name);
    else if (o.kind === 'Namespace') out.namespaces.add(m.name);
    else if (o.kind === 'ResourceClaim') out.claims.add(`${m.namespace}/${m.name}`);
    else if (o.kind === 'ServiceAccount') out.serviceAccounts.add(`${m.namespace}/${m.name}`);
  }
  return out;
}
