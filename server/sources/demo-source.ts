import 'server-only';

// The bundled demo cluster: `demo/manifests/**` plus `demo/cluster.yaml` ({name, kubernetesVersion,
// description}). The repo root is found by walking up from the working directory (the CLI and
// `next start` run from anywhere inside the checkout) and, failing that, from this module's own file
// (a global install of the CLI); $DRA_POSTURE_DEMO_DIR overrides both.

import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildClusterState } from '@/lib/k8s/build-cluster-state';
import type { ClusterState, SourceInfo } from '@/lib/k8s/cluster-state';
import { SnapshotError } from '@/lib/k8s/snapshot-error';

import { parseDocuments } from './parse-documents';
import { readSnapshotItems } from './snapshot-source';

export const DEMO_DIR_ENV = 'DRA_POSTURE_DEMO_DIR';

export interface DemoInfo {
  name: string;
  kubernetesVersion?: string;
  description?: string;
}

export interface DemoLocation {
  /** Folder holding the manifests. */
  manifests: string;
  /** `cluster.yaml` beside it, when present. */
  clusterFile?: string;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function locationIn(demoDir: string): DemoLocation | undefined {
  const manifests = join(demoDir, 'manifests');
  if (!isDirectory(manifests)) return undefined;
  const clusterFile = join(demoDir, 'cluster.yaml');
  return { manifests, clusterFile: existsSync(clusterFile) ? clusterFile : undefined };
}

function walkUp(start: string): DemoLocation | undefined {
  let dir = resolve(start);
  for (;;) {
    const found = locationIn(join(dir, 'demo'));
    if (found) return found;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Where the demo lives. $DRA_POSTURE_DEMO_DIR may name the demo folder (with `manifests/` and
 * `cluster.yaml`) or directly a folder of manifests.
 */
export function findDemo(cwd: string = process.cwd()): DemoLocation | undefined {
  const fromEnv = process.env[DEMO_DIR_ENV];
  if (fromEnv) {
    const dir = resolve(fromEnv);
    const nested = locationIn(dir);
    if (nested) return nested;
    if (isDirectory(dir)) {
      const clusterFile = join(dir, 'cluster.yaml');
      return { manifests: dir, clusterFile: existsSync(clusterFile) ? clusterFile : undefined };
    }
    return undefined;
  }
  const fromCwd = walkUp(cwd);
  if (fromCwd) return fromCwd;
  try {
    return walkUp(dirname(fileURLToPath(import.meta.url)));
  } catch {
    return undefined;
  }
}

export async function loadDemoInfo(location: DemoLocation): Promise<DemoInfo> {
  const info: DemoInfo = { name: 'demo' };
  if (!location.clusterFile) return info;
  const items = parseDocuments(await readFile(location.clusterFile), 'cluster.yaml', 'yaml');
  const value = items[0]?.value;
  if (value === null || value === undefined) return info;
  if (typeof value !== 'object' || Array.isArray(value)) throw new SnapshotError('expected a mapping', { file: 'cluster.yaml', document: 0 });
  const record = value as Record<string, unknown>;
  for (const field of ['name', 'kubernetesVersion', 'description'] as const) {
    const v = record[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw new SnapshotError('expected a string', { file: 'cluster.yaml', document: 0, path: field });
    info[field] = v;
  }
  return info;
}

export async function loadDemo(options: { location?: DemoLocation } = {}): Promise<ClusterState> {
  const location = options.location ?? findDemo();
  if (!location) {
    throw new SnapshotError(
      `the demo cluster was not found: no demo/manifests folder in the working directory or above it; set ${DEMO_DIR_ENV} to the demo folder`,
      {},
      'not_found',
    );
  }
  const info = await loadDemoInfo(location);
  const { items, warnings } = await readSnapshotItems(location.manifests);
  const source: SourceInfo = { kind: 'demo', name: info.name };
  if (info.kubernetesVersion !== undefined) source.kubernetesVersion = info.kubernetesVersion;
  // The demo ships with the product: an invalid manifest is a bug to surface, never to skip.
  const state = buildClusterState(items, source, { onInvalid: 'fail' });
  if (warnings.length > 0) state.warnings.unshift(...warnings);
  return state;
}
