'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { formatCount } from '@/lib/analysis/issues/count-text';
import { cn } from '@/components/ui/cn';
import { useViewer, viewerMay } from '@/components/auth/viewer-context';
import { NAV_ITEMS } from './nav-items';

/** A count shown next to a navigation item, keyed by its href. */
export type NavBadges = Partial<Record<string, { count: number; label: string }>>;

export function SidebarNav({ badges, onNavigate }: { badges: NavBadges; onNavigate?: () => void }) {
  const pathname = usePathname();
  const viewer = useViewer();
  const items = NAV_ITEMS.filter((item) => !item.needs || viewerMay(viewer, item.needs));
  return (
    <nav aria-label="Main" className="px-3">
      <ul className="space-y-0.5">
        {items.map((item) => {
          const active = item.href === '/' ? pathname === '/' : pathname === item.href || pathname.startsWith(`${item.href}/`);
          const badge = badges[item.href];
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={active ? 'page' : undefined}
                onClick={onNavigate}
                className={cn(
                  'group flex items-center justify-between rounded-md px-3 py-2 text-sm font-medium transition-colors',
                  active ? 'bg-white/10 text-white' : 'text-slate-300 hover:bg-white/5 hover:text-white',
                )}
              >
                <span>{item.label}</span>
                {badge && badge.count > 0 && (
                  <span title={badge.label} className="rounded-full bg-red-500/20 px-2 py-0.5 text-xs font-semibold tabular-nums text-red-200">
                    {formatCount(badge.count)}
                    <span className="sr-only"> {badge.label}</span>
                  </span>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
