import type { Page } from '@playwright/test';
import { expect } from './fixtures';

// Whether a page fits its viewport's width (narrow-layout.spec.ts on the demo, large-cluster.spec.ts
// on the bench cluster).

/**
 * Elements that stick out past the right edge of the viewport and are not inside a container that
 * scrolls or clips them (a wide table in its own scroll box is fine; the page body scrolling is not).
 */
export async function elementsPastTheRightEdge(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const contained = (el: Element): boolean => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible') return true;
      }
      return false;
    };
    const out: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= innerWidth + 0.5 || contained(el)) continue;
      // Report the outermost offender only: its children are past the edge because it is.
      if (el.parentElement && el.parentElement.getBoundingClientRect().right > innerWidth + 0.5 && !contained(el.parentElement)) continue;
      out.push(
        `${el.tagName.toLowerCase()}.${String(el.getAttribute('class') ?? '').slice(0, 60)} "${(el.textContent ?? '').trim().slice(0, 40)}" right=${Math.round(r.right)}`,
      );
    }
    return out.slice(0, 10);
  });
}

/** The page body is no wider than the screen, and nothing sticks out past it. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }));
  expect(width.scroll, 'the page body scrolls sideways').toBeLessThanOrEqual(width.inner);
  expect(await elementsPastTheRightEdge(page)).toEqual([]);
}
