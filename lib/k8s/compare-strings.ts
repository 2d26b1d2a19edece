/**
 * Byte-order string comparison for deterministic sorting (Go's sort order, independent of locale;
 * localeCompare would make report order depend on the machine).
 */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
