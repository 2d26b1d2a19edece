import type { Metadata } from 'next';
import { WhenAllowed } from '@/components/auth/when-allowed';
import { ContextSwitcher } from '@/components/sources/context-switcher';
import { AuditUpload } from '@/components/sources/audit-upload';
import { SnapshotUpload } from '@/components/sources/snapshot-upload';
import { PageHeader, Panel } from '@/components/ui/panel';
import { listKubeContexts } from '@/server/services/kube-contexts';
import { getShellInfo } from '@/server/services/shell-info';
import { sourceFailureMessage } from '@/server/http/api-errors';
import { getSourceSelection } from '@/server/services/source-selection';
import { getUploadedSnapshot, maxUploadBytes } from '@/server/services/uploaded-source';
import { getUploadedAudit } from '@/server/services/uploaded-audit';
import { maxAuditUploadBytes } from '@/server/sources/read-audit-upload';

export const metadata: Metadata = { title: 'Sources' };
export const dynamic = 'force-dynamic';

export default async function SourcesPage() {
  // This page must render when the source fails: it is where another one is chosen.
  const info = await getShellInfo().catch((error: unknown) => ({ failure: sourceFailureMessage(error) ?? 'the cluster source could not be read or analysed' }));
  const selection = getSourceSelection();
  const uploaded = !!getUploadedSnapshot();
  const liveContext = 'source' in info && info.source.kind === 'live' && !uploaded ? info.source.name : undefined;
  return (
    <>
      <PageHeader
        title="Sources"
        description="The cluster every view shows. The server's own configuration chooses it (demo, a snapshot path, or a kubeconfig context); an uploaded snapshot replaces it until you go back. Kubeconfigs are never accepted from the browser."
      />
      <Panel id="current-source" title="Current source" className="mb-6">
        {'source' in info ? (
          <p className="text-sm text-slate-700">
            {info.source.kind} · {info.source.name} · Kubernetes {info.source.kubernetesVersion ?? 'version unknown'}
          </p>
        ) : (
          <p role="alert" className="text-sm text-red-800">
            {info.failure}
          </p>
        )}
      </Panel>
      <Panel
        id="contexts"
        title="Demo or a live context"
        description="Contexts of the server's own kubeconfig. Choosing one reads that cluster live with the server's credentials; a context that cannot be read leaves the current source as it is."
        className="mb-6"
      >
        <WhenAllowed action="create sources" what="switch the source">
          <ContextSwitcher contexts={listKubeContexts()} selected={liveContext} overridden={!!selection || uploaded} />
        </WhenAllowed>
      </Panel>
      <Panel
        id="upload"
        title="Upload a snapshot"
        description={`Output of kubectl get … -o json, a List, or multi-document YAML; at most ${Math.round(maxUploadBytes() / 1024 / 1024)} MiB. Secrets in it are dropped unread.`}
      >
        <WhenAllowed action="create sources" what="upload a snapshot">
          <SnapshotUpload maxBytes={maxUploadBytes()} />
        </WhenAllowed>
      </Panel>
      <Panel
        id="audit-upload"
        className="mt-6"
        title="Upload an audit log"
        description={`Kubernetes audit events (audit.k8s.io/v1) from the log backend, read as they arrive; at most ${Math.round(maxAuditUploadBytes() / 1024 / 1024)} MiB. They add the Activity page and AUDIT findings to the current source.`}
      >
        <WhenAllowed action="create sources" what="upload an audit log">
          <AuditUpload
            maxBytes={maxAuditUploadBytes()}
            uploaded={!!getUploadedAudit()}
            current={getUploadedAudit()?.name ?? (process.env.DRA_POSTURE_AUDIT ? 'given at start (serve --audit)' : undefined)}
          />
        </WhenAllowed>
      </Panel>
    </>
  );
}
