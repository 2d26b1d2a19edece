/** 10000 → "10,000": counts in the words of an issue. */
export const formatCount = (n: number): string => n.toLocaleString('en-US');

/** 1 → "1 node", 3 → "3 nodes". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${formatCount(n)} ${n === 1 ? one : many}`;
