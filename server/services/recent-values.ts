import 'server-only';

/**
 * Values made on demand and kept for the most recently asked keys only: a node's view or blast
 * radius is asked again often (a node switch, back and forward), but keeping one per node of a
 * 10,000-node cluster would grow the server without bound.
 */
export class RecentValues<V> {
  private readonly values = new Map<string, V>();

  constructor(private readonly maxEntries: number) {}

  /** The value kept for `key`, else `make()`'s; either way `key` becomes the most recent. */
  get(key: string, make: () => V): V {
    let value = this.values.get(key);
    if (value !== undefined) this.values.delete(key);
    else value = make();
    this.values.set(key, value);
    if (this.values.size > this.maxEntries) this.values.delete(this.values.keys().next().value!);
    return value;
  }

  get size(): number {
    return this.values.size;
  }

  /** The keys kept, least recently asked first. */
  keys(): IterableIterator<string> {
    return this.values.keys();
  }
}
