import type { AnalysisSettings } from '@/lib/analysis/settings';
import type { AuthorizerName } from '@/lib/authz/types';
import type { SourceInfo } from '@/lib/k8s/cluster-state';

// The compliance bundle: one plain tar file. Every entry but the last three is listed with its size
// and sha256 in manifest.json; SHA256SUMS repeats the digests (manifest.json's too) in the format
// `sha256sum -c` reads; manifest.sig, when present, is a raw ed25519 signature of manifest.json's
// bytes (`openssl pkeyutl -verify -rawin` checks it).

export const BUNDLE_FORMAT = 'dra-posture-bundle';
export const BUNDLE_FORMAT_VERSION = 1;

export const ENTRY = {
  metadata: 'metadata.json',
  report: 'report.json',
  objects: 'objects.json',
  findingsCsv: 'findings.csv',
  markdown: 'report.md',
  html: 'report.html',
  pdf: 'report.pdf',
  manifest: 'manifest.json',
  sums: 'SHA256SUMS',
  signature: 'manifest.sig',
} as const;

/** Content entries in archive order (all listed in the manifest). */
export const CONTENT_ENTRIES = [ENTRY.metadata, ENTRY.report, ENTRY.objects, ENTRY.findingsCsv, ENTRY.markdown, ENTRY.html] as const;

export interface ManifestEntry {
  name: string;
  size: number;
  sha256: string;
}

export interface BundleSigner {
  algorithm: 'ed25519';
  /** SPKI PEM of the public key. */
  publicKey: string;
  /** sha256 of the public key's DER bytes, to compare with a key an auditor trusts. */
  publicKeySha256: string;
}

export interface Manifest {
  format: typeof BUNDLE_FORMAT;
  formatVersion: typeof BUNDLE_FORMAT_VERSION;
  createdAt: string;
  tool: { name: 'dra-posture'; version: string };
  algorithm: 'sha256';
  entries: ManifestEntry[];
  signer?: BundleSigner;
  /**
   * sha256 of this file with this value set to 64 zeros: a changed manifest byte is named as such
   * even in an unsigned bundle (it proves no authorship; the signature does).
   */
  selfSha256: string;
}

export interface BundleMetadata {
  source: SourceInfo;
  kubernetesVersion: string | null;
  collectedAt: string | null;
  createdAt: string;
  tool: { name: 'dra-posture'; version: string };
  settings: AnalysisSettings;
  authorizers: readonly AuthorizerName[];
  objectCounts: Record<string, number>;
  /** The source's own warnings (skipped objects, dropped Secrets...), restored on import. */
  sourceWarnings: string[];
}

export const ZERO_DIGEST = '0'.repeat(64);

/** manifest.json bytes (canonical: key order as written, two-space indent, final newline). */
export function renderManifest(manifest: Manifest): string {
  const ordered: Manifest = {
    format: manifest.format,
    formatVersion: manifest.formatVersion,
    createdAt: manifest.createdAt,
    tool: { name: manifest.tool.name, version: manifest.tool.version },
    algorithm: manifest.algorithm,
    entries: manifest.entries.map((e) => ({ name: e.name, size: e.size, sha256: e.sha256 })),
    ...(manifest.signer
      ? { signer: { algorithm: manifest.signer.algorithm, publicKey: manifest.signer.publicKey, publicKeySha256: manifest.signer.publicKeySha256 } }
      : {}),
    selfSha256: manifest.selfSha256,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

const SELF_FIELD = /"selfSha256": "([0-9a-f]{64})"\n\}\n$/;

/** The manifest text with selfSha256 zeroed, and the value it carried; undefined when the field is not where it belongs. */
export function splitSelfDigest(text: string): { zeroed: string; claimed: string } | undefined {
  const m = SELF_FIELD.exec(text);
  if (!m) return undefined;
  return { zeroed: text.slice(0, m.index) + `"selfSha256": "${ZERO_DIGEST}"\n}\n`, claimed: m[1] };
}

/** SHA256SUMS text: `<hex>  <name>` lines, as sha256sum writes them. */
export function renderSums(entries: readonly { name: string; sha256: string }[]): string {
  return entries.map((e) => `${e.sha256}  ${e.name}\n`).join('');
}

export function parseSums(text: string): Map<string, string> | undefined {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const m = /^([0-9a-f]{64}) {2}([A-Za-z0-9._-]+)$/.exec(line);
    if (!m) return undefined;
    out.set(m[2], m[1]);
  }
  return out;
}
