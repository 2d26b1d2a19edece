import { queryOptions } from '@tanstack/react-query';
import type { NodeSearchResponse, NodeViewResponse, WriterGroupPageResponse } from '@/lib/api/dto';
import { queryKeys } from '@/lib/api/query-keys';
import { api } from '@/lib/api/routes';
import { ApiClientError, fetchJson } from '@/components/query/fetch-json';

// The Nodes page's client queries: the picker's node search, one node's panels and the pages of a writer group.

export const nodeSearchQuery = (q: string) =>
  queryOptions({
    queryKey: queryKeys.nodeSearch(q),
    queryFn: ({ signal }) => fetchJson<NodeSearchResponse>(api.nodeSearch(q), signal),
    enabled: q.length > 0,
    staleTime: 5 * 60_000,
  });

export const nodeWritersQuery = (group: string, offset: number, q: string) =>
  queryOptions({
    queryKey: queryKeys.nodeWriters(group, offset, q),
    queryFn: ({ signal }) => fetchJson<WriterGroupPageResponse>(api.nodeWriters({ group, offset, q }), signal),
    placeholderData: (prev) => prev,
  });

/** One node's panels (writers and blast radius): a node switch fetches only these. */
export const nodeViewQuery = (node: string) =>
  queryOptions({
    queryKey: queryKeys.nodeView(node),
    queryFn: ({ signal }) => fetchJson<NodeViewResponse>(api.nodeView(node), signal),
    staleTime: 5 * 60_000,
    // An unknown node is an answer ("No node named …"), not a failure to retry.
    retry: (count, error) => !(error instanceof ApiClientError && error.status === 404) && count < 2,
  });
