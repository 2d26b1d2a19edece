import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeStores, getStore } from './get-store';
import { openStore, type StoreFeature } from './open-store';
import { isStoreError } from './store-error';

const NOTES: StoreFeature = {
  name: 'notes',
  migrations: ['CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)', 'ALTER TABLE notes ADD COLUMN author TEXT'],
};

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'dra-store-'));
}

afterEach(() => closeStores());

describe('openStore', () => {
  it('creates the file and its folder on first use and keeps data across reopen', () => {
    const path = join(tempDir(), 'nested', 'store.sqlite');
    const first = openStore(path, [NOTES]);
    first.write((db) => db.prepare('INSERT INTO notes (body, author) VALUES (?, ?)').run('kept', 'ana'));
    first.close();
    const second = openStore(path, [NOTES]);
    expect(second.read((db) => db.prepare('SELECT body, author FROM notes').all())).toEqual([{ body: 'kept', author: 'ana' }]);
    second.close();
  });

  it('applies only the migrations not yet applied', () => {
    const path = join(tempDir(), 'store.sqlite');
    openStore(path, [{ name: 'notes', migrations: NOTES.migrations.slice(0, 1) }]).close();
    const store = openStore(path, [NOTES]);
    const versions = store.read((db) => db.prepare("SELECT version FROM store_migrations WHERE feature = 'notes' ORDER BY version").all());
    expect(versions).toEqual([{ version: 1 }, { version: 2 }]);
    store.close();
  });

  it('refuses a store newer than the code', () => {
    const path = join(tempDir(), 'store.sqlite');
    openStore(path, [NOTES]).close();
    expect(() => openStore(path, [{ name: 'notes', migrations: NOTES.migrations.slice(0, 1) }])).toThrow(/newer than this dra-posture knows/);
  });

  it('rolls back a failed write as a whole', () => {
    const store = openStore(join(tempDir(), 'store.sqlite'), [NOTES]);
    expect(() =>
      store.write((db) => {
        db.prepare('INSERT INTO notes (body) VALUES (?)').run('half');
        db.prepare('INSERT INTO notes (body) VALUES (?)').run(null);
      }),
    ).toThrow(/store .* failed/);
    expect(store.read((db) => db.prepare('SELECT COUNT(*) AS n FROM notes').get())).toEqual({ n: 0 });
    store.close();
  });

  it('names a corrupt file and leaves it byte for byte as it was', () => {
    const path = join(tempDir(), 'store.sqlite');
    const garbage = 'this is not a database, but an operator may still want it back\n'.repeat(100);
    writeFileSync(path, garbage);
    let error: unknown;
    try {
      openStore(path, [NOTES]);
    } catch (e) {
      error = e;
    }
    expect(isStoreError(error) && error.code).toBe('corrupt');
    expect((error as Error).message).toContain(path);
    expect(readFileSync(path, 'utf8')).toBe(garbage);
  });

  it('names a path it cannot create', () => {
    // A regular file where the folder should be: fails the same way for root and for users.
    const blocker = join(tempDir(), 'not-a-folder');
    writeFileSync(blocker, 'x');
    const path = join(blocker, 'store.sqlite');
    expect(() => openStore(path, [NOTES])).toThrow(expect.objectContaining({ code: 'unwritable', path }));
  });
});

describe('getStore', () => {
  it('shares one connection per path and migrates each feature once', () => {
    const path = join(tempDir(), 'store.sqlite');
    const a = getStore(NOTES, path);
    const b = getStore({ name: 'other', migrations: ['CREATE TABLE other (x TEXT)'] }, path);
    expect(a).toBe(b);
    const features = a.read((db) => db.prepare('SELECT DISTINCT feature FROM store_migrations ORDER BY feature').all());
    expect(features).toEqual([{ feature: 'notes' }, { feature: 'other' }]);
  });

  it('does not cache a failed open', () => {
    const path = join(tempDir(), 'store.sqlite');
    writeFileSync(path, 'garbage'.repeat(200));
    expect(() => getStore(NOTES, path)).toThrow(/not a valid SQLite database/);
    writeFileSync(path, '');
    expect(getStore(NOTES, path).read((db) => db.prepare('SELECT COUNT(*) AS n FROM notes').get())).toEqual({ n: 0 });
  });
});
