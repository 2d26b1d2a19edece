import type { Metadata } from 'next';
import { SnapshotsWorkspace } from '@/components/snapshots/snapshots-workspace';
import { PageHeader } from '@/components/ui/panel';
import { isStoreError } from '@/server/store/store-error';
import { snapshotHistory } from '@/server/services/snapshots';
import { snapshotTakes } from '@/server/services/snapshot-takes';

export const metadata: Metadata = { title: 'Snapshots' };
export const dynamic = 'force-dynamic';

export default function SnapshotsPage() {
  let initial;
  let storeError: string | undefined;
  try {
    initial = { snapshots: snapshotHistory(), takes: snapshotTakes() };
  } catch (e) {
    if (!isStoreError(e)) throw e;
    storeError = e.message;
  }
  return (
    <>
      <PageHeader
        title="Snapshots"
        description="Compliance snapshots of the current source: export a verifiable bundle (report, objects, CSV, Markdown, printable HTML, sha256 manifest), keep a history, and see what drifted between two."
      />
      <SnapshotsWorkspace initial={initial} storeError={storeError} />
    </>
  );
}
