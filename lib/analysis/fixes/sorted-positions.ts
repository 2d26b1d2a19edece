// Lists of binding positions in an index's order, each once: a binding named twice (two subjects, or
// two users) is then side by side, and a fix's bindings are put back in the index's order.

/** `positions` sorted, each once (sorts `positions` in place). */
export function sortedOnce(positions: number[]): number[] {
  positions.sort((a, b) => a - b);
  const out: number[] = [];
  for (let i = 0; i < positions.length; i++) if (i === 0 || positions[i] !== positions[i - 1]) out.push(positions[i]);
  return out;
}

/**
 * Two lists sorted and each once, as one such list: what sortedOnce gives for both together, in one
 * pass. Either list is returned as is when the other is empty (read it, do not change it).
 */
export function mergedOnce(a: readonly number[], b: readonly number[]): readonly number[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    out.push(x <= y ? x : y);
    if (x <= y) i++;
    if (y <= x) j++;
  }
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}
