/** 10000 → "10,000": counts in the words of an issue. */
export function formatCount(n: number): string {
  // toLocaleString reads the locale's rules on every call (thousands of issues, several counts each):
  // a whole count is grouped here, anything else is left to it.
  if (!Number.isSafeInteger(n) || n < 0 || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(n);
  if (digits.length <= 3) return digits;
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}

/** 1 → "1 node", 3 → "3 nodes". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${formatCount(n)} ${n === 1 ? one : many}`;
