// One error type for everything that can be wrong with snapshot input, so the CLI, the upload route
// and the UI can all point the user at the exact file, document, object and field.

export type SnapshotErrorCode = 'invalid_snapshot' | 'too_large' | 'not_found';

export interface SnapshotErrorLocation {
  file?: string;
  /** 0-based index of the document in the file (YAML `---` documents, JSON array elements, JSON lines). */
  document?: number;
  /** 0-based index of the item inside a `kind: List` (or typed list) document. */
  item?: number;
  /** 1-based line, for syntax errors where the parser knows it. */
  line?: number;
  /** `Kind "namespace/name"` of the object, when it could be read. */
  object?: string;
  /** Field path inside the object, e.g. `spec.containers[2].securityContext.privileged`. */
  path?: string;
}

export class SnapshotError extends Error {
  readonly code: SnapshotErrorCode;
  /** The bare reason, without the location prefix that `message` carries. */
  readonly reason: string;
  file?: string;
  document?: number;
  item?: number;
  line?: number;
  object?: string;
  path: string;

  constructor(reason: string, location: SnapshotErrorLocation = {}, code: SnapshotErrorCode = 'invalid_snapshot') {
    super(reason);
    this.name = 'SnapshotError';
    this.code = code;
    this.reason = reason;
    this.file = location.file;
    this.document = location.document;
    this.item = location.item;
    this.line = location.line;
    this.object = location.object;
    this.path = location.path ?? '';
    this.message = this.describe();
  }

  /**
   * Fills in location parts the thrower could not know (the normaliser knows the field path, the
   * loader knows the file and document). Parts already set are kept: the innermost knowledge wins.
   */
  locate(location: SnapshotErrorLocation): this {
    if (this.file === undefined) this.file = location.file;
    if (this.document === undefined) this.document = location.document;
    if (this.item === undefined) this.item = location.item;
    if (this.line === undefined) this.line = location.line;
    if (this.object === undefined) this.object = location.object;
    if (!this.path && location.path) this.path = location.path;
    this.message = this.describe();
    return this;
  }

  override toString(): string {
    return this.message;
  }

  // Documents and items are shown 1-based because that is how people count `---` separators;
  // the fields stay 0-based for code.
  private describe(): string {
    const where: string[] = [];
    if (this.document !== undefined) where.push(`document ${this.document + 1}`);
    if (this.item !== undefined) where.push(`item ${this.item + 1}`);
    if (this.line !== undefined) where.push(`line ${this.line}`);
    let head = this.file ?? '';
    if (where.length > 0) head = head ? `${head}: ${where.join(', ')}` : where.join(', ');
    if (this.object) head = head ? `${head} (${this.object})` : this.object;
    const parts: string[] = [];
    if (head) parts.push(head);
    if (this.path) parts.push(this.path);
    parts.push(this.reason);
    return parts.join(': ');
  }
}

// By name and code, not instanceof: the production server bundles this class into several chunks, and
// an error made by one chunk's copy (a cached analysis on globalThis) reaches another chunk's checks.
export function isSnapshotError(error: unknown): error is SnapshotError {
  return error instanceof Error && error.name === 'SnapshotError' && 'code' in error && 'reason' in error;
}
