import 'server-only';
import { migrate } from './migrate';
import { openStore, type Store, type StoreFeature } from './open-store';
import { toStoreError } from './store-error';
import { defaultStorePath } from './store-path';

// Next bundles route handlers and pages separately; one connection per path for the whole process
// lives on globalThis. Features register their tables on first use.
const KEY = Symbol.for('dra-posture.stores');
type Registry = Map<string, { store: Store; features: Set<string> }>;

function registry(): Registry {
  const g = globalThis as unknown as Record<symbol, Registry | undefined>;
  return (g[KEY] ??= new Map());
}

/**
 * The process's store at DRA_POSTURE_STORE (or the default path), with `feature`'s tables migrated.
 * A failed open is not cached: fixing the file or its permissions takes effect on the next request.
 */
export function getStore(feature: StoreFeature, path: string = defaultStorePath()): Store {
  const stores = registry();
  const entry = stores.get(path);
  if (!entry) {
    const store = openStore(path, [feature]);
    stores.set(path, { store, features: new Set([feature.name]) });
    return store;
  }
  if (!entry.features.has(feature.name)) {
    try {
      migrate(entry.store.db, feature.name, feature.migrations);
    } catch (error) {
      throw toStoreError(error, path);
    }
    entry.features.add(feature.name);
  }
  return entry.store;
}

/** Closes every open store (tests and CLI exit). */
export function closeStores(): void {
  for (const { store } of registry().values()) store.close();
  registry().clear();
}
