import 'server-only';
import type Database from 'better-sqlite3';

/**
 * Each feature (approvals, snapshots, ...) owns its tables and their migrations, numbered from 1 in
 * the order given; applied steps are recorded per feature, so features evolve independently. All
 * pending steps of a feature run in one transaction: a failed step leaves the store as it was.
 */
export function migrate(db: Database.Database, feature: string, steps: readonly string[]): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS store_migrations (feature TEXT NOT NULL, version INTEGER NOT NULL, applied_at TEXT NOT NULL, PRIMARY KEY (feature, version))',
  );
  const row = db.prepare('SELECT MAX(version) AS v FROM store_migrations WHERE feature = ?').get(feature) as { v: number | null };
  const current = row.v ?? 0;
  if (current > steps.length) {
    throw new Error(`the store's "${feature}" tables are at version ${current}, newer than this dra-posture knows (${steps.length}); upgrade dra-posture`);
  }
  if (current === steps.length) return;
  const record = db.prepare('INSERT INTO store_migrations (feature, version, applied_at) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let v = current + 1; v <= steps.length; v++) {
      db.exec(steps[v - 1]!);
      record.run(feature, v, new Date().toISOString());
    }
  })();
}
