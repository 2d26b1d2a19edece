import { BUNDLE_FORMAT, CONTENT_ENTRIES, ENTRY, parseSums, renderSums, splitSelfDigest, type Manifest } from './bundle-format';
import { sha256Hex, type Sha256 } from './sha256';
import { entryBytes, findNonCanonicalRegion, readTar, TarError, type TarEntry } from './tar';

// Checks a bundle byte for byte and names what changed. Every content entry's digest appears twice
// (manifest.json and SHA256SUMS) and the manifest carries its own digest, so one changed byte is
// pinned on the entry, the manifest or SHA256SUMS; the tar headers and padding are compared with
// what the writer produces, so no byte of the file goes unchecked.

export interface BundleProblem {
  /** The entry (or part of the file) that changed or is missing. */
  entry: string;
  message: string;
}

export interface SignatureCheck {
  ok: boolean;
  /** What was checked against what (shown whether it holds or not). */
  detail: string;
}

export interface VerifyBundleOptions {
  sha256: Sha256;
  /** Checks manifest.sig over the manifest bytes; absent: a present signature is reported as unchecked. */
  checkSignature?: (message: Uint8Array, signature: Uint8Array, manifest: Manifest | undefined) => SignatureCheck;
  /** A key was given: a bundle without a signature fails. */
  requireSignature?: boolean;
}

export interface VerifyBundleResult {
  ok: boolean;
  problems: BundleProblem[];
  notes: string[];
  manifest?: Manifest;
  fingerprint?: string;
  /** Entry name → bytes (views into the input). */
  entries: Map<string, Uint8Array>;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function decode(bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

function parseManifest(text: string | undefined): Manifest | undefined {
  if (text === undefined) return undefined;
  try {
    const m = JSON.parse(text) as Manifest;
    if (m?.format !== BUNDLE_FORMAT || !Array.isArray(m.entries)) return undefined;
    return m;
  } catch {
    return undefined;
  }
}

export function verifyBundle(bytes: Uint8Array, options: VerifyBundleOptions): VerifyBundleResult {
  const problems: BundleProblem[] = [];
  const notes: string[] = [];
  const entries = new Map<string, Uint8Array>();
  const fail = (entry: string, message: string) => problems.push({ entry, message });
  const done = (extra: Partial<VerifyBundleResult> = {}): VerifyBundleResult => ({ ok: problems.length === 0, problems, notes, entries, ...extra });

  let tar: TarEntry[];
  try {
    tar = readTar(bytes);
  } catch (e) {
    if (!(e instanceof TarError)) throw e;
    fail('archive', `not a readable dra-posture bundle: ${e.message}`);
    return done();
  }
  for (const t of tar) {
    if (entries.has(t.name)) fail(t.name, 'appears twice in the archive');
    entries.set(t.name, entryBytes(bytes, t));
  }
  const region = findNonCanonicalRegion(bytes, tar);
  if (region) fail(region, `${region} changed (it differs from what dra-posture writes)`);

  const sha = (b: Uint8Array) => sha256Hex(options.sha256, [b]);
  const manifestBytes = entries.get(ENTRY.manifest);
  const sumsBytes = entries.get(ENTRY.sums);
  if (!manifestBytes) {
    fail(ENTRY.manifest, 'missing: the archive has no manifest.json');
    return done();
  }
  const manifestText = decode(manifestBytes);
  const manifest = parseManifest(manifestText);
  const fingerprint = sha(manifestBytes);
  const self = manifestText === undefined ? undefined : splitSelfDigest(manifestText);
  const manifestIntact = manifest !== undefined && self !== undefined && sha(new TextEncoder().encode(self.zeroed)) === self.claimed;
  if (!manifestIntact) fail(ENTRY.manifest, 'changed: its content does not match its own digest (selfSha256)');

  const sums = sumsBytes ? parseSums(decode(sumsBytes) ?? '\u0000') : undefined;
  if (!sumsBytes) fail(ENTRY.sums, 'missing');
  else if (!sums) fail(ENTRY.sums, 'changed: not in sha256sum format');

  // Content entries: the file's digest against the manifest's and SHA256SUMS' copies.
  const listed = new Map((manifest?.entries ?? []).map((e) => [e.name, e]));
  let sumsBlamed = false;
  for (const name of new Set<string>([...CONTENT_ENTRIES, ...listed.keys()])) {
    const body = entries.get(name);
    const inManifest = listed.get(name);
    if (!body) {
      fail(name, 'missing from the archive');
      continue;
    }
    if (!inManifest) {
      if (manifestIntact) fail(name, 'not listed in manifest.json');
      continue;
    }
    const actual = sha(body);
    const inSums = sums?.get(name);
    if (actual !== inManifest.sha256 || body.byteLength !== inManifest.size) {
      if (actual === inSums && !manifestIntact) continue; // the manifest changed: already said
      fail(name, `content changed: sha256 ${actual}, the manifest says ${inManifest.sha256}`);
    } else if (sums && inSums !== actual) {
      sumsBlamed = true;
      fail(ENTRY.sums, `changed: its line for ${name} does not match the entry or the manifest`);
    }
  }
  if (sums && !sumsBlamed && manifest) {
    const expected = renderSums([...manifest.entries, { name: ENTRY.manifest, sha256: fingerprint }]);
    if (manifestIntact && decode(sumsBytes!) !== expected) fail(ENTRY.sums, 'changed: it differs from the manifest');
  }
  const known = new Set<string>([...listed.keys(), ...CONTENT_ENTRIES, ENTRY.manifest, ENTRY.sums, ENTRY.signature]);
  for (const name of entries.keys()) if (!known.has(name)) fail(name, 'unexpected entry: not listed in the manifest');

  const signature = entries.get(ENTRY.signature);
  if (signature) {
    if (options.checkSignature) {
      const check = options.checkSignature(manifestBytes, signature, manifest);
      if (check.ok) notes.push(check.detail);
      else fail(ENTRY.signature, check.detail);
    } else {
      notes.push('manifest.sig present but not checked');
    }
  } else if (options.requireSignature) {
    fail(ENTRY.signature, 'missing: a key was given but the bundle is not signed');
  } else {
    notes.push('not signed');
  }
  return done({ manifest, fingerprint });
}

/** One line per problem, for the CLI and errors. */
export function describeProblems(problems: readonly BundleProblem[]): string[] {
  return problems.map((p) => (p.message.startsWith(p.entry) ? p.message : `${p.entry}: ${p.message}`));
}
