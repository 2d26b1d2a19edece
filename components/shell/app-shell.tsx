import Link from 'next/link';
import type { ReactNode } from 'react';
import { ViewerMenu } from '@/components/auth/viewer-menu';
import { CollapsibleSidebar } from './collapsible-sidebar';
import { SourceBanner } from './source-banner';
import type { ShellInfoView } from './shell-types';

/** Navigation (a sidebar, or a top bar with a menu below 768 px), source banner and the page. `info` is null when the source failed to load. */
export function AppShell({ info, failure, children }: { info: ShellInfoView | null; failure?: string; children: ReactNode }) {
  const urgent = info ? info.summary.critical + info.summary.high : 0;
  return (
    <div className="flex min-h-screen flex-col md:flex-row">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-white px-3 py-2 text-sm font-medium text-slate-900 focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        Skip to content
      </a>
      <CollapsibleSidebar
        brand={
          <Link href="/" className="block rounded">
            <span className="flex items-center gap-2 text-base font-semibold tracking-tight text-white">
              <span aria-hidden="true" className="grid size-6 place-items-center rounded bg-teal-500/90 text-[11px] font-bold text-slate-900">
                DP
              </span>
              dra-posture
            </span>
            <span className="mt-1 block text-xs text-slate-400">DRA security posture</span>
          </Link>
        }
        footer={
          <>
            <ViewerMenu />
            <p>Read-only. Nothing here changes the cluster.</p>
          </>
        }
        badges={{ '/findings': { count: urgent, label: 'critical and high findings' } }}
      />
      <div className="flex min-w-0 flex-1 flex-col">
        {info ? (
          <SourceBanner info={info} />
        ) : (
          <div role="alert" className="border-b border-red-200 bg-red-50 px-4 py-2.5 md:px-6 text-sm text-red-900">
            {failure ?? 'The cluster source could not be loaded.'}{' '}
            <a href="/sources" className="font-medium underline">
              Choose another source
            </a>
          </div>
        )}
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 focus:outline-none md:px-6 md:py-8">
          {children}
        </main>
      </div>
    </div>
  );
}
