// Parsed documents (any source) → ClusterState. Lists are flattened, every known kind is normalised
// (resource.k8s.io to v1), Secrets are dropped unread, unknown kinds are counted and ignored, and the
// input order is kept. What was dropped or skipped is reported in `warnings`, next to the data.

import { emptyClusterState, type ClusterCollectionKey, type ClusterState, type SourceInfo } from './cluster-state';
import { isApiServerPod } from './api-server-flags';
import { KINDS } from './kinds';
import { NamePositions } from './name-positions';
import { normalizeObject } from './normalize-object';
import { SnapshotError } from './snapshot-error';
import type { KubeObject } from './types';

export interface RawItemOrigin {
  file?: string;
  /** 0-based index of the document in its file. */
  document?: number;
}

export interface RawItem {
  value: unknown;
  origin: RawItemOrigin;
}

export type OnInvalid = 'fail' | 'skip';

export interface BuildClusterStateOptions {
  /** `fail` (default) throws the first SnapshotError; `skip` leaves the object out with a warning. */
  onInvalid?: OnInvalid;
  /** Cap on objects (list items included) per build; past it the build fails whatever onInvalid says. */
  maxObjects?: number;
  /**
   * Only these kinds are normalised and kept (what one question needs, `kindsForCanI`/`kindsForWhoCan`);
   * objects of other kinds are parsed and counted but not read, so their contents cannot fail the build.
   */
  kinds?: ReadonlySet<string>;
}

/** Optional metadata document a snapshot may carry: `{apiVersion, kind, name?, kubernetesVersion?, collectedAt?}`. */
export const CLUSTER_INFO_API_VERSION = 'dra-posture.io/v1';
export const CLUSTER_INFO_KIND = 'ClusterInfo';
export const DEFAULT_MAX_OBJECTS = 500_000;

/** Past this many, per-object warnings are summarised in one line so warnings stay readable. */
const MAX_LISTED_WARNINGS = 100;

interface AcceptedKind {
  collection: ClusterCollectionKey;
  /** apiVersion string → accepted. */
  apiVersions: Set<string>;
}

const ACCEPTED = new Map<string, AcceptedKind>(
  KINDS.map((d) => [d.kind, { collection: d.collection, apiVersions: new Set(d.versions.map((v) => (d.group ? `${d.group}/${v}` : v))) }]),
);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeObject(kind: string, value: Record<string, unknown>): string {
  const metadata = value.metadata;
  if (!isPlainObject(metadata) || typeof metadata.name !== 'string') return kind;
  const ns = typeof metadata.namespace === 'string' && metadata.namespace ? `${metadata.namespace}/` : '';
  return `${kind} "${ns}${metadata.name}"`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Builds a ClusterState one parsed document (or list item) at a time, as buildClusterState does. */
export class ClusterStateBuilder {
  readonly state: ClusterState;
  private readonly onInvalid: OnInvalid;
  private readonly maxObjects: number;
  private readonly kinds: ReadonlySet<string> | undefined;
  private objects = 0;
  private secrets = 0;
  private skipped = 0;
  private duplicates = 0;
  private readonly ignored = new Map<string, number>();
  /** Where each name of each collection sits in it, to find duplicates. */
  private readonly seen = new Map<ClusterCollectionKey, NamePositions>();

  constructor(source: SourceInfo, options: BuildClusterStateOptions) {
    this.state = emptyClusterState({ ...source });
    this.onInvalid = options.onInvalid ?? 'fail';
    this.maxObjects = options.maxObjects ?? DEFAULT_MAX_OBJECTS;
    this.kinds = options.kinds;
  }

  addDocument(item: RawItem): void {
    const value = item.value;
    // Empty YAML documents (a trailing `---`) carry nothing.
    if (value === null || value === undefined) return;
    this.addValue(value, item.origin, undefined, undefined, undefined, 0);
  }

  /**
   * Item `index` of a `kind: List` document at `origin`, read on its own: exactly what addDocument
   * does with each item of the whole list, for items that name their own kind and apiVersion.
   */
  addListItem(value: unknown, origin: RawItemOrigin, index: number): void {
    this.addValue(value, origin, index, undefined, undefined, 1);
  }

  private addValue(
    value: unknown,
    origin: RawItemOrigin,
    itemIndex: number | undefined,
    defaultKind: string | undefined,
    defaultApiVersion: string | undefined,
    listDepth: number,
  ): void {
    if (!isPlainObject(value)) {
      this.countObject(origin, itemIndex);
      this.invalid(new SnapshotError('expected a Kubernetes object (a mapping with apiVersion and kind)'), origin, itemIndex, undefined);
      return;
    }
    let kind = value.kind;
    if (kind === undefined || kind === null || kind === '') kind = defaultKind;
    let apiVersion = value.apiVersion;
    if (apiVersion === undefined || apiVersion === null || apiVersion === '') apiVersion = defaultApiVersion;
    if (typeof kind === 'string' && (kind === 'List' || (kind.endsWith('List') && value.items !== undefined))) {
      this.addList(value, kind, apiVersion, origin, itemIndex, listDepth);
      return;
    }
    this.countObject(origin, itemIndex);
    if (typeof kind !== 'string') {
      const reason = kind === undefined ? 'missing (expected a string)' : 'expected a string';
      this.invalid(new SnapshotError(reason, { path: 'kind' }), origin, itemIndex, undefined);
      return;
    }
    if (kind === 'Secret') {
      this.secrets++;
      return;
    }
    if (kind === CLUSTER_INFO_KIND && apiVersion === CLUSTER_INFO_API_VERSION) {
      this.addClusterInfo(value, origin, itemIndex);
      return;
    }
    const accepted = ACCEPTED.get(kind);
    if (accepted === undefined) {
      this.ignore(kind);
      return;
    }
    if (typeof apiVersion !== 'string') {
      const reason = apiVersion === undefined ? 'missing (expected a string)' : 'expected a string';
      this.invalid(new SnapshotError(reason, { path: 'apiVersion' }), origin, itemIndex, describeObject(kind, value));
      return;
    }
    if (!accepted.apiVersions.has(apiVersion)) {
      // Same kind name in another group (a CRD called Role) or a version the model does not read.
      this.ignore(`${kind} (${apiVersion})`);
      return;
    }
    // A narrowed read still keeps the API server's pod: its flags set how every question is decided.
    if (this.kinds && !this.kinds.has(kind) && !(kind === 'Pod' && isPlainObject(value.metadata) && isApiServerPod(value.metadata))) return;
    let object: KubeObject;
    try {
      object = normalizeObject(value, kind, apiVersion);
    } catch (error) {
      if (!(error instanceof SnapshotError)) throw error;
      this.invalid(error, origin, itemIndex, describeObject(kind, value));
      return;
    }
    this.append(accepted.collection, object, origin);
  }

  private countObject(origin: RawItemOrigin, itemIndex: number | undefined): void {
    if (++this.objects > this.maxObjects) {
      throw new SnapshotError(
        `more than ${this.maxObjects} objects: this is over the object limit`,
        { file: origin.file, document: origin.document, item: itemIndex },
        'too_large',
      );
    }
  }

  private addList(
    value: Record<string, unknown>,
    kind: string,
    apiVersion: unknown,
    origin: RawItemOrigin,
    itemIndex: number | undefined,
    listDepth: number,
  ): void {
    const items = value.items;
    if (items === null || items === undefined) return;
    if (!Array.isArray(items) || listDepth > 0) {
      const reason = listDepth > 0 ? 'lists nested in lists are not read' : 'expected an array';
      this.invalid(new SnapshotError(reason, { path: 'items' }), origin, itemIndex, kind);
      return;
    }
    // A typed list (PodList, RoleList...) may omit kind and apiVersion on its items; a plain List may not.
    const itemKind = kind === 'List' ? undefined : kind.slice(0, -4);
    const itemApiVersion = kind === 'List' || typeof apiVersion !== 'string' ? undefined : apiVersion;
    for (let i = 0; i < items.length; i++) {
      this.addValue(items[i], origin, i, itemKind, itemApiVersion, listDepth + 1);
    }
  }

  private addClusterInfo(value: Record<string, unknown>, origin: RawItemOrigin, itemIndex: number | undefined): void {
    const source = this.state.source;
    const next: Partial<SourceInfo> = {};
    for (const field of ['name', 'kubernetesVersion', 'collectedAt'] as const) {
      const v = value[field];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string') {
        this.invalid(new SnapshotError('expected a string', { path: field }), origin, itemIndex, CLUSTER_INFO_KIND);
        return;
      }
      next[field] = v;
    }
    Object.assign(source, next);
  }

  private ignore(label: string): void {
    this.ignored.set(label, (this.ignored.get(label) ?? 0) + 1);
  }

  private invalid(error: SnapshotError, origin: RawItemOrigin, itemIndex: number | undefined, object: string | undefined): void {
    error.locate({ file: origin.file, document: origin.document, item: itemIndex, object });
    if (this.onInvalid === 'fail') throw error;
    this.skipped++;
    if (this.skipped <= MAX_LISTED_WARNINGS) this.state.warnings.push(`skipped invalid object: ${error.message}`);
  }

  private append(collection: ClusterCollectionKey, object: KubeObject, origin: RawItemOrigin): void {
    const list = this.state[collection] as KubeObject[];
    let positions = this.seen.get(collection);
    if (positions === undefined) {
      positions = new NamePositions((at, ns, name) => list[at].metadata.name === name && (list[at].metadata.namespace ?? '') === ns);
      this.seen.set(collection, positions);
    }
    const name = object.metadata.name;
    const namespace = object.metadata.namespace ?? '';
    const previous = positions.findOrAdd(namespace, name, list.length);
    if (previous === -1) {
      list.push(object);
      return;
    }
    // Keep the last copy (a later file or document is the newer dump) in the first one's place.
    list[previous] = object;
    this.duplicates++;
    if (this.duplicates <= MAX_LISTED_WARNINGS) {
      const where = [origin.file, origin.document !== undefined ? `document ${origin.document + 1}` : undefined].filter(Boolean).join(', ');
      const ns = namespace ? `${namespace}/` : '';
      this.state.warnings.push(`duplicate ${object.kind} "${ns}${name}": kept the last copy${where ? ` (${where})` : ''}`);
    }
  }

  finish(): ClusterState {
    const warnings = this.state.warnings;
    if (this.skipped > MAX_LISTED_WARNINGS) warnings.push(`skipped ${this.skipped - MAX_LISTED_WARNINGS} more invalid objects`);
    if (this.duplicates > MAX_LISTED_WARNINGS) warnings.push(`${this.duplicates - MAX_LISTED_WARNINGS} more duplicate objects: kept the last copy of each`);
    if (this.secrets > 0) warnings.push(`dropped ${plural(this.secrets, 'Secret object', 'Secret objects')}: Secrets are never loaded`);
    if (this.ignored.size > 0) {
      let total = 0;
      const parts: string[] = [];
      for (const [label, count] of this.ignored) {
        total += count;
        parts.push(count === 1 ? label : `${label} ×${count}`);
      }
      warnings.push(`ignored ${plural(total, 'object', 'objects')} of kinds dra-posture does not read: ${parts.join(', ')}`);
    }
    // The name index only finds duplicates while reading: ~8 MiB on a large cluster that would
    // otherwise live as long as whatever still holds the builder (a reader's closures).
    this.seen.clear();
    return this.state;
  }
}

export function buildClusterState(items: readonly RawItem[], source: SourceInfo, options: BuildClusterStateOptions = {}): ClusterState {
  const builder = new ClusterStateBuilder(source, options);
  for (const item of items) builder.addDocument(item);
  return builder.finish();
}
