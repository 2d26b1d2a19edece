import 'server-only';

// The bundled demo cluster: `demo/manifests/**` plus `demo/cluster.yaml` ({name, kubernetesVersion,
// description}). The repo root is found by walking up from the working directory (the CLI and
// `next start` run from anywhere inside the checkout) and, failing that, from this module's own file
// (a global install of the CLI); $DRA_POSTURE_DEMO_DIR overrides both. The build parses it once
// (parsed-demo.ts); its YAML is parsed here only when that is missing or older than the demo files,
// so the YAML and snapshot parsers are imported only then.

import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildClusterState } from '@/lib/k8s/build-cluster-state';
import type { ClusterState, SourceInfo } from '@/lib/k8s/cluster-state';
import { SnapshotError } from '@/lib/k8s/snapshot-error';

import { demoFiles, readParsedDemo, writeParsedDemo, type DemoInfo, type DemoLocation, type ParsedDemoContent } from './parsed-demo';

export type { DemoInfo, DemoLocation };

export const DEMO_DIR_ENV = 'DRA_POSTURE_DEMO_DIR';

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
  const { parseDocuments } = await import('./parse-documents');
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

/** The demo's files parsed now (YAML): what the build stores and what a missing or stale build falls back to. */
export async function parseDemo(location: DemoLocation): Promise<ParsedDemoContent> {
  const info = await loadDemoInfo(location);
  const { readSnapshotItems } = await import('./snapshot-source');
  const { items, warnings } = await readSnapshotItems(location.manifests);
  return { info, items, warnings };
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
  const { info, items, warnings } = (await readParsedDemo(location)) ?? (await parseDemo(location));
  const source: SourceInfo = { kind: 'demo', name: info.name };
  if (info.kubernetesVersion !== undefined) source.kubernetesVersion = info.kubernetesVersion;
  // The demo ships with the product: an invalid manifest is a bug to surface, never to skip.
  const state = buildClusterState(items, source, { onInvalid: 'fail' });
  if (warnings.length > 0) state.warnings = [...warnings, ...state.warnings];
  return state;
}

/**
 * The build step (scripts/build/build-cli.mjs): parses the demo folder `demoDir` and writes the
 * result to `out`. Returns the files it read (for the build's list of sources), or undefined when
 * there is no demo there.
 */
export async function buildParsedDemo(demoDir: string, out: string): Promise<string[] | undefined> {
  const location = locationIn(demoDir);
  if (!location) return undefined;
  await writeParsedDemo(location, parseDemo, out);
  return (await demoFiles(location)).map((f) => f.path);
}
