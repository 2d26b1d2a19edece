import 'server-only';
// What can go wrong with the embedded store, said so that an operator knows what to do. The store
// file is never replaced or truncated on error: a corrupt file stays as it is for the operator.

export type StoreErrorCode = 'corrupt' | 'unwritable' | 'busy' | 'io';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

export function isStoreError(error: unknown): error is StoreError {
  return error instanceof Error && error.name === 'StoreError' && 'code' in error && 'path' in error;
}

/** Maps a better-sqlite3 error (code SQLITE_*) or a file-system error to a StoreError naming the file. */
export function toStoreError(error: unknown, path: string): StoreError {
  if (isStoreError(error)) return error;
  const code = String((error as { code?: unknown })?.code ?? '');
  const detail = error instanceof Error ? error.message : String(error);
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT_')) {
    return new StoreError(
      'corrupt',
      path,
      `the store ${path} is not a valid SQLite database (${detail}); it was left untouched — move it aside to start a new one`,
    );
  }
  if (
    code === 'SQLITE_READONLY' ||
    code.startsWith('SQLITE_READONLY_') ||
    code === 'SQLITE_CANTOPEN' ||
    code === 'SQLITE_PERM' ||
    code === 'EACCES' ||
    code === 'EROFS' ||
    code === 'EPERM' ||
    code === 'ENOTDIR' ||
    code === 'EEXIST'
  ) {
    return new StoreError(
      'unwritable',
      path,
      `the store ${path} cannot be written (${detail}); check the permissions of the file and its folder, or set DRA_POSTURE_STORE`,
    );
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new StoreError('busy', path, `the store ${path} is locked by another process; try again`);
  }
  return new StoreError('io', path, `the store ${path} failed: ${detail}`);
}
