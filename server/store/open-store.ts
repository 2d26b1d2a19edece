import 'server-only';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate';
import { toStoreError } from './store-error';

export interface StoreFeature {
  /** Names the feature's migrations; never change it once released. */
  name: string;
  /** SQL per version, in order; append only. */
  migrations: readonly string[];
}

export interface Store {
  path: string;
  db: Database.Database;
  /** Runs fn in one transaction; any error rolls it back and comes out as a StoreError. */
  write<T>(fn: (db: Database.Database) => T): T;
  /** Runs a read; errors come out as StoreErrors. */
  read<T>(fn: (db: Database.Database) => T): T;
  close(): void;
}

/**
 * Opens (creating on first use) the SQLite store at path and brings the given features' tables up to
 * date. A file that is not SQLite, or a folder that cannot be written, fails here with a StoreError
 * naming the path; nothing is created over or next to a corrupt file.
 */
export function openStore(path: string, features: readonly StoreFeature[] = []): Store {
  let db: Database.Database | undefined;
  try {
    mkdirSync(dirname(path), { recursive: true });
    db = new Database(path, { timeout: 5000 });
    // Reading the schema makes SQLite look at the header: a non-database file fails here, before
    // any write could touch it.
    db.pragma('schema_version');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    for (const feature of features) migrate(db, feature.name, feature.migrations);
  } catch (error) {
    try {
      db?.close();
    } catch {
      // already failing: the first error is the one to report
    }
    throw toStoreError(error, path);
  }
  const open = db;
  return {
    path,
    db: open,
    write(fn) {
      try {
        return open.transaction(fn)(open);
      } catch (error) {
        throw toStoreError(error, path);
      }
    },
    read(fn) {
      try {
        return fn(open);
      } catch (error) {
        throw toStoreError(error, path);
      }
    },
    close() {
      open.close();
    },
  };
}
