// apimachinery's equality.Semantic.DeepEqual, as far as JSON objects go: a nil and an empty slice or
// map are equal, and key order never matters (a manifest written by hand and one read back differ in both).

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map((v) => canonical(v) ?? null);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = canonical((value as Record<string, unknown>)[key]);
      if (v !== undefined) out[key] = v;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value === null ? undefined : value;
}

export function semanticEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a) ?? null) === JSON.stringify(canonical(b) ?? null);
}
