import Link from 'next/link';
import type { ReactNode } from 'react';
import { SidebarNav } from './sidebar-nav';
import { SourceBanner } from './source-banner';
import type { ShellInfoView } from './shell-types';

/** Sidebar navigation, source banner and the page. `info` is null when the source failed to load. */
export function AppShell({ info, failure, children }: { info: ShellInfoView | null; failure?: string; children: ReactNode }) {
  const urgent = info ? info.summary.critical + info.summary.high : 0;
  return (
    <div className="flex min-h-screen">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-white px-3 py-2 text-sm font-medium text-slate-900 focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        Skip to content
      </a>
      <aside className="w-60 shrink-0 bg-slate-900">
        <div className="sticky top-0 flex h-screen flex-col">
          <div className="px-6 pb-6 pt-5">
            <Link href="/" className="block rounded">
              <span className="flex items-center gap-2 text-base font-semibold tracking-tight text-white">
                <span aria-hidden="true" className="grid size-6 place-items-center rounded bg-teal-500/90 text-[11px] font-bold text-slate-900">
                  DP
                </span>
                dra-posture
              </span>
              <span className="mt-1 block text-xs text-slate-400">DRA security posture</span>
            </Link>
          </div>
          <SidebarNav badges={{ '/findings': { count: urgent, label: 'critical and high findings' } }} />
          <div className="mt-auto px-6 py-4 text-xs text-slate-400">Read-only. Nothing here changes the cluster.</div>
        </div>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        {info ? (
          <SourceBanner info={info} />
        ) : (
          <div role="alert" className="border-b border-red-200 bg-red-50 px-6 py-2.5 text-sm text-red-900">
            {failure ?? 'The cluster source could not be loaded.'}{' '}
            <a href="/sources" className="font-medium underline">
              Choose another source
            </a>
          </div>
        )}
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-7xl flex-1 px-6 py-8 focus:outline-none">
          {children}
        </main>
      </div>
    </div>
  );
}
