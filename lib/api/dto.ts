import type { BlastRadius } from '@/lib/analysis/node-writers/blast-radius';
import type { DecidedBy, NonResourceAttributes, RbacGrant, ResourceAttributes, UserInfo } from '@/lib/authz/types';
import type { WhoCanEntry } from '@/lib/authz/who-can';
import type { GraphSearchHit, GraphView } from '@/lib/graph/types';
import type { Finding, Report } from '@/lib/analysis/types';
import type { FindingsPage } from '@/lib/view/findings-page';

// Response shapes of app/api/v1 (shared by route handlers, react-query hooks and e2e tests).

export type ApiErrorCode =
  'bad_request' | 'forbidden' | 'not_found' | 'too_large' | 'too_many_requests' | 'invalid_snapshot' | 'source_unavailable' | 'store_unavailable' | 'internal';

export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string };
}

export type ReportResponse = Report;
export type FindingResponse = Finding;
export type FindingsListResponse = FindingsPage;
export type BlastRadiusResponse = BlastRadius;

export type AccessTarget = { resource: Omit<ResourceAttributes, 'fieldSelector'> } | { nonResource: NonResourceAttributes };

export interface WhoCanResponse {
  request: Omit<ResourceAttributes, 'fieldSelector'> | NonResourceAttributes;
  subjects: WhoCanEntry[];
  /** Set when TYPE was not a known built-in and was used as given (as kubectl does). */
  warning?: string;
}

export interface CanIResponse {
  allowed: boolean;
  reason: string;
  decidedBy: DecidedBy | null;
  grant: RbacGrant | null;
  user: UserInfo;
  request: Omit<ResourceAttributes, 'fieldSelector'> | NonResourceAttributes;
  warning?: string;
}

export type GraphResponse = GraphView;

export interface GraphSearchResponse {
  hits: GraphSearchHit[];
}
