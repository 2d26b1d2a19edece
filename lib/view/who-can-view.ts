import type { WhoCanEntry } from '@/lib/authz/who-can';

// A who-can answer on a large cluster lists hundreds of subjects (222 for one question on the bench
// cluster, a 28,900 px page): the explorer filters it by text and shows it a page at a time.

/** Rows shown at first, and added by each "show more". */
export const WHO_CAN_PAGE = 20;

/** Answers longer than this get the text filter (a short one reads at a glance). */
export const WHO_CAN_FILTER_FROM = 10;

/** The text a row is found by: the subject (kind, namespace/name), each binding and role, and the note. */
export function whoCanSearchText(e: WhoCanEntry): string {
  const s = e.subject;
  const parts = [s.kind, s.namespace ? `${s.namespace}/${s.name}` : s.name, e.note ?? ''];
  for (const g of e.grants) {
    parts.push(g.binding.namespace ? `${g.binding.namespace}/${g.binding.name}` : g.binding.name, g.role.name);
    if (g.aggregatedFrom) parts.push(g.aggregatedFrom);
  }
  return parts.join('\n').toLowerCase();
}

/** The rows matching every word of `text` (case-insensitive); all rows for empty text. */
export function filterWhoCan(entries: readonly WhoCanEntry[], text: string): WhoCanEntry[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...entries];
  return entries.filter((e) => {
    const hay = whoCanSearchText(e);
    return words.every((w) => hay.includes(w));
  });
}
