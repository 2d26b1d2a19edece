import 'server-only';

// The demo cluster parsed once, at build time (issue #26): parsing its YAML took ~360 ms of every
// `--demo` question, JSON.parse of the same objects ~2 ms. The build (scripts/build/build-cli.mjs)
// writes dist/cli/demo-cluster.json: the parsed documents, cluster.yaml's metadata, and a digest of
// every demo file's name and bytes. The loader uses it only when that digest is the one of the demo
// it would otherwise parse, so an edited demo is never answered from a stale file: it is parsed, as
// before, until the next build.

import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import type { RawItem } from '@/lib/k8s/build-cluster-state';

import { resolveMaxBytes, listSnapshotFiles } from './snapshot-files';

/** Bumped when the file's layout or the meaning of its items changes (an older file is then ignored). */
export const PARSED_DEMO_FORMAT = 1;
export const PARSED_DEMO_FILE = 'demo-cluster.json';

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

/** What parsing the demo gives: the same whether read from YAML now or from the build's file. */
export interface ParsedDemoContent {
  info: DemoInfo;
  items: RawItem[];
  /** The listing's warnings (skipped symlinks). */
  warnings: string[];
}

export interface ParsedDemo extends ParsedDemoContent {
  format: typeof PARSED_DEMO_FORMAT;
  /** demoDigest of the files it was parsed from. */
  digest: string;
}

/** Where the build puts it: dist/cli/ at the root the demo folder sits in (a checkout or the installed package). */
export function parsedDemoPath(location: DemoLocation): string {
  return join(dirname(dirname(location.manifests)), 'dist', 'cli', PARSED_DEMO_FILE);
}

/** The files the loader reads for the demo, in its order: cluster.yaml, then the manifests as the listing yields them. */
export async function demoFiles(location: DemoLocation): Promise<{ name: string; path: string }[]> {
  const { files } = await listSnapshotFiles(location.manifests, resolveMaxBytes(undefined));
  return [
    ...(location.clusterFile ? [{ name: 'cluster.yaml', path: location.clusterFile }] : []),
    ...files.map((f) => ({ name: `manifests/${f.name}`, path: f.path })),
  ];
}

/** sha256 over every demo file's name, length and bytes (and this format's version). */
export async function demoDigest(location: DemoLocation): Promise<string> {
  const named = await demoFiles(location);
  const contents = await Promise.all(named.map((f) => readFile(f.path)));
  const hash = createHash('sha256').update(`dra-posture demo v${PARSED_DEMO_FORMAT}\n`);
  named.forEach((f, i) => hash.update(`${f.name}\n${contents[i].byteLength}\n`).update(contents[i]));
  return hash.digest('hex');
}

function isParsedDemo(value: unknown): value is ParsedDemo {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<ParsedDemo>;
  return (
    v.format === PARSED_DEMO_FORMAT && typeof v.digest === 'string' && typeof v.info?.name === 'string' && Array.isArray(v.items) && Array.isArray(v.warnings)
  );
}

/** The build's parsed demo when it was made from exactly these files; undefined when absent, unreadable or stale. */
export async function readParsedDemo(location: DemoLocation, path = parsedDemoPath(location)): Promise<ParsedDemo | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
  if (!isParsedDemo(parsed)) return undefined;
  let digest: string;
  try {
    digest = await demoDigest(location);
  } catch {
    return undefined; // the demo cannot be listed: parsing it says why
  }
  return parsed.digest === digest ? parsed : undefined;
}

/**
 * Parses the demo and writes the result for its files (atomically: a concurrent reader sees the old
 * file or the new). The digest is taken before and after parsing, so a demo edited meanwhile is not
 * written under a digest its content does not match.
 */
export async function writeParsedDemo(location: DemoLocation, parse: (location: DemoLocation) => Promise<ParsedDemoContent>, out: string): Promise<void> {
  const digest = await demoDigest(location);
  const content = await parse(location);
  if ((await demoDigest(location)) !== digest) throw new Error('the demo changed while it was being parsed; build again');
  const file: ParsedDemo = { format: PARSED_DEMO_FORMAT, digest, ...content };
  await mkdir(dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(file)}\n`);
  await rename(tmp, out);
}
