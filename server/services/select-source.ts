import 'server-only';
import { z } from 'zod';
import { ApiError } from '@/server/http/api-errors';
import { connectContext } from './current-cluster';
import { listKubeContexts } from './kube-contexts';
import { setSourceSelection, type SourceSelection } from './source-selection';
import { clearUploadedSnapshot } from './uploaded-source';

export const SelectSourceBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('demo') }).strict(),
  z.object({ kind: z.literal('context'), name: z.string().min(1).max(253) }).strict(),
]);

const CONNECT_TIMEOUT_MS = 20_000;

/**
 * Makes the demo or a context of the server's own kubeconfig the current source. A context is
 * switched to only once its cluster has been read; otherwise the error says why and nothing changes.
 */
export async function selectSource(input: unknown): Promise<SourceSelection> {
  const selection = SelectSourceBody.parse(input);
  if (selection.kind === 'context') {
    const context = listKubeContexts().find((c) => c.name === selection.name);
    if (!context) throw new ApiError('not_found', `the server's kubeconfig has no context "${selection.name}"`);
    try {
      await withTimeout(connectContext(process.env.DRA_POSTURE_KUBECONFIG || undefined, context.name), CONNECT_TIMEOUT_MS);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      throw new ApiError(
        'source_unavailable',
        `context "${context.name}" (${context.server || 'no server'}) cannot be read: ${reason}; the current source is unchanged`,
      );
    }
  }
  clearUploadedSnapshot();
  setSourceSelection(selection);
  return selection;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
