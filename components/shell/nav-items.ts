import type { DashboardAction } from '@/lib/api/dashboard-actions';

export interface NavItem {
  href: string;
  label: string;
  description: string;
  /** The action the page needs besides "get reports" (the navigation hides it from viewers without it). */
  needs?: DashboardAction;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { href: '/', label: 'Overview', description: 'Posture at a glance' },
  { href: '/findings', label: 'Findings', description: 'Every check result' },
  { href: '/graph', label: 'Identity graph', description: 'Who reaches which DRA resource' },
  { href: '/nodes', label: 'Nodes', description: 'nodes/status and claim-status writers' },
  { href: '/quotas', label: 'Quotas', description: 'DRA quota usage' },
  { href: '/devices', label: 'Devices', description: 'DeviceClasses and zeroing' },
  { href: '/activity', label: 'Activity', description: 'What identities did (audit log)' },
  { href: '/explorer', label: 'Who-can explorer', description: 'Ask the authorizer' },
  { href: '/roles', label: 'Role builder', description: 'Least-privilege roles, approved' },
  { href: '/snapshots', label: 'Snapshots', description: 'Export, history and drift', needs: 'get snapshots' },
  { href: '/sources', label: 'Sources', description: 'Demo, snapshot or live cluster' },
];
