import { queryOptions } from '@tanstack/react-query';
import type {
  BlastRadiusResponse,
  CanIResponse,
  FindingsListResponse,
  GraphResponse,
  GraphSearchResponse,
  ReportResponse,
  WhoCanResponse,
} from '@/lib/api/dto';
import { queryKeys } from '@/lib/api/query-keys';
import { api, type AccessQuery, type CanIQuery, type GraphQuery } from '@/lib/api/routes';
import { findingFiltersToQuery, type FindingFilters } from '@/lib/view/findings-view';
import { fetchJson } from './fetch-json';

// Client query options: the browser reads /api/v1; server pages prefetch the same keys by calling
// server/services directly and hydrate them.

export const reportQuery = () => queryOptions({ queryKey: queryKeys.report(), queryFn: ({ signal }) => fetchJson<ReportResponse>(api.report(), signal) });

export const findingsQuery = (f: FindingFilters) =>
  queryOptions({
    queryKey: queryKeys.findings(f),
    queryFn: ({ signal }) => fetchJson<FindingsListResponse>(api.findings(findingFiltersToQuery(f)), signal),
    placeholderData: (prev) => prev,
  });

export const blastRadiusQuery = (node: string) =>
  queryOptions({ queryKey: queryKeys.blastRadius(node), queryFn: ({ signal }) => fetchJson<BlastRadiusResponse>(api.blastRadius(node), signal) });

export const whoCanQuery = (q: AccessQuery) =>
  queryOptions({ queryKey: queryKeys.whoCan(q), queryFn: ({ signal }) => fetchJson<WhoCanResponse>(api.whoCan(q), signal) });

export const canIQuery = (q: CanIQuery) => queryOptions({ queryKey: queryKeys.canI(q), queryFn: ({ signal }) => fetchJson<CanIResponse>(api.canI(q), signal) });

export const graphQuery = (q: GraphQuery) =>
  queryOptions({ queryKey: queryKeys.graph(q), queryFn: ({ signal }) => fetchJson<GraphResponse>(api.graph(q), signal), placeholderData: (prev) => prev });

export const graphSearchQuery = (q: string) =>
  queryOptions({
    queryKey: queryKeys.graphSearch(q),
    queryFn: ({ signal }) => fetchJson<GraphSearchResponse>(api.graphSearch(q), signal),
    enabled: q.trim().length > 0,
  });
