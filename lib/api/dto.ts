import type { DashboardAction } from './dashboard-actions';
import type { BlastRadius } from '@/lib/analysis/node-writers/blast-radius';
import type { WriterGroupPage } from '@/lib/view/node-writer-groups';
import type { NodeView } from '@/lib/view/nodes-page';
import type { DecidedBy, NonResourceAttributes, RbacGrant, ResourceAttributes, UserInfo } from '@/lib/authz/types';
import type { SimulationResult } from '@/lib/authz/simulate-write';
import type { WhoCanEntry } from '@/lib/authz/who-can';
import type { GraphSearchHit, GraphView } from '@/lib/graph/types';
import type { Finding, Report } from '@/lib/analysis/types';
import type { FindingsPage } from '@/lib/view/findings-page';

// Response shapes of app/api/v1 (shared by route handlers, react-query hooks and e2e tests).

export type ApiErrorCode =
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'request_timeout'
  | 'too_large'
  | 'too_many_requests'
  | 'invalid_snapshot'
  | 'source_unavailable'
  | 'store_unavailable'
  | 'auth_unavailable'
  | 'internal';

export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string };
}

export type ReportResponse = Report;
export type FindingResponse = Finding;
export type FindingsListResponse = FindingsPage;
export type BlastRadiusResponse = BlastRadius;
export type WriterGroupPageResponse = WriterGroupPage;
export type NodeViewResponse = NodeView;

export interface NodeSearchResponse {
  /** Node names containing the query. */
  total: number;
  /** The first of them, names starting with the query first. */
  matches: string[];
}

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

/** POST /api/v1/simulate: every step of the write, and what it names that the loaded source does not have. */
export type SimulateResponse = SimulationResult & {
  request: ResourceAttributes;
  /** Nodes, namespaces, claims and service accounts the write names that the source does not have. */
  missing: string[];
};

export type GraphResponse = GraphView;

export interface GraphSearchResponse {
  hits: GraphSearchHit[];
}

/** GET /api/v1/session: who the dashboard thinks is looking, and what they may do. */
export type ViewerResponse =
  /** `serve --auth none`: no sign-in; everything is allowed to whoever reaches the server. */
  | { auth: 'none' }
  | {
      auth: 'kubernetes';
      username: string;
      groups: string[];
      /** 'session': signed in on the sign-in page (can sign out); 'bearer': a reverse proxy's token. */
      via: 'session' | 'bearer';
      allowed: DashboardAction[];
    };
