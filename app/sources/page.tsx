import type { Metadata } from 'next';
import { SnapshotUpload } from '@/components/sources/snapshot-upload';
import { PageHeader, Panel } from '@/components/ui/panel';
import { getShellInfo } from '@/server/services/shell-info';
import { getUploadedSnapshot, maxUploadBytes } from '@/server/services/uploaded-source';

export const metadata: Metadata = { title: 'Sources' };
export const dynamic = 'force-dynamic';

export default async function SourcesPage() {
  const info = await getShellInfo();
  return (
    <>
      <PageHeader
        title="Sources"
        description="The cluster every view shows. The server's own configuration chooses it (demo, a snapshot path, or a kubeconfig context); an uploaded snapshot replaces it until you go back. Kubeconfigs are never accepted from the browser."
      />
      <Panel id="current-source" title="Current source" className="mb-6">
        <p className="text-sm text-slate-700">
          {info.source.kind} · {info.source.name} · Kubernetes {info.source.kubernetesVersion ?? 'version unknown'}
        </p>
      </Panel>
      <Panel id="upload" title="Upload a snapshot" description={`Output of kubectl get … -o json, a List, or multi-document YAML; at most ${Math.round(maxUploadBytes() / 1024 / 1024)} MiB. Secrets in it are dropped unread.`}>
        <SnapshotUpload uploaded={!!getUploadedSnapshot()} maxBytes={maxUploadBytes()} />
      </Panel>
    </>
  );
}
