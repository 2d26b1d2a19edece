'use client';

import { createContext, useContext, type ReactNode } from 'react';
import type { DashboardAction } from '@/lib/api/dashboard-actions';
import type { ViewerResponse } from '@/lib/api/dto';

// Who is looking, from the layout (one TokenReview and a few SubjectAccessReviews per page, cached on
// the server). Components hide what the viewer may not do; the server refuses it anyway.
const ViewerContext = createContext<ViewerResponse>({ auth: 'none' });

export function ViewerProvider({ viewer, children }: { viewer: ViewerResponse; children: ReactNode }) {
  return <ViewerContext.Provider value={viewer}>{children}</ViewerContext.Provider>;
}

export function useViewer(): ViewerResponse {
  return useContext(ViewerContext);
}

/** Whether the viewer may do an action (always, without sign-in). */
export function viewerMay(viewer: ViewerResponse, action: DashboardAction): boolean {
  return viewer.auth === 'none' || viewer.allowed.includes(action);
}

export function useCan(action: DashboardAction): boolean {
  return viewerMay(useViewer(), action);
}
