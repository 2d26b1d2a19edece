'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { cn } from '@/components/ui/cn';
import { SidebarNav, type NavBadges } from './sidebar-nav';

const PANEL_ID = 'main-navigation-panel';

/**
 * The sidebar at desktop widths; below `md` (768 px) a top bar whose menu button shows the navigation.
 * Any navigation (a link here, a link in the page, back/forward) closes the menu; Escape closes it and
 * returns focus to the button.
 */
export function CollapsibleSidebar({ brand, footer, badges }: { brand: ReactNode; footer: ReactNode; badges: NavBadges }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const [shownPath, setShownPath] = useState(pathname);
  // A new page closes the menu (state adjusted while rendering, React's pattern for a changed input).
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
  }
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <aside className="bg-slate-900 md:w-60 md:shrink-0">
      <div className="md:sticky md:top-0 md:flex md:h-screen md:flex-col">
        <div className="flex items-center justify-between gap-3 px-4 py-3 md:block md:px-6 md:pb-6 md:pt-5">
          {brand}
          <button
            ref={button}
            type="button"
            aria-expanded={open}
            aria-controls={PANEL_ID}
            onClick={() => setOpen(!open)}
            className="flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-slate-200 ring-1 ring-inset ring-white/20 hover:bg-white/10 hover:text-white md:hidden"
          >
            <MenuIcon open={open} />
            Menu
          </button>
        </div>
        <div id={PANEL_ID} className={cn('pb-3 md:flex md:flex-1 md:flex-col md:pb-0', open ? 'block' : 'hidden')}>
          {/* Any link closes the menu, also one that keeps the path (same page, another query). */}
          <SidebarNav badges={badges} onNavigate={() => setOpen(false)} />
          <div className="space-y-3 px-6 pt-3 text-xs text-slate-400 md:mt-auto md:pb-4 md:pt-4">{footer}</div>
        </div>
      </div>
    </aside>
  );
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 5h14M3 10h14M3 15h14" />}
    </svg>
  );
}
