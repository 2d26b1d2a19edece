import 'server-only';
import type { KindDescriptor } from '@/lib/k8s/kinds';
import type { KubeHttp } from './kube-http';
import { KubeError } from './kube-errors';

export const PAGE_LIMIT = 500;
const MAX_RESTARTS = 3;

export interface ListPage {
  apiVersion?: string;
  kind?: string;
  metadata?: { continue?: string; resourceVersion?: string };
  items?: unknown[];
}

export interface ListResult {
  pages: ListPage[];
  resourceVersion?: string;
  listCalls: number;
  restarts: number;
}

export function collectionPath(kind: KindDescriptor, version: string, namespace?: string): string {
  const prefix = kind.group === '' ? `/api/${version}` : `/apis/${kind.group}/${version}`;
  return namespace ? `${prefix}/namespaces/${encodeURIComponent(namespace)}/${kind.resource}` : `${prefix}/${kind.resource}`;
}

/**
 * Lists every object of a kind in pages of at most 500. When a continue token expires (410), the
 * list restarts from the first page, so the result is one consistent snapshot with no duplicates.
 */
export async function listKind(http: KubeHttp, kind: KindDescriptor, version: string, namespace?: string): Promise<ListResult> {
  const base = collectionPath(kind, version, namespace);
  let listCalls = 0;
  for (let restarts = 0; ; restarts++) {
    const pages: ListPage[] = [];
    let token: string | undefined;
    try {
      do {
        const query = new URLSearchParams({ limit: String(PAGE_LIMIT) });
        if (token) query.set('continue', token);
        listCalls++;
        const page = (await http.get<ListPage>(`${base}?${query}`)).body;
        pages.push(page);
        token = page.metadata?.continue || undefined;
      } while (token);
      return { pages, resourceVersion: pages[pages.length - 1]?.metadata?.resourceVersion, listCalls, restarts };
    } catch (e) {
      if ((e as KubeError).code === 'gone' && token && restarts < MAX_RESTARTS) continue;
      throw e;
    }
  }
}
