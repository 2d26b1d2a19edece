// A table from (namespace, name) to a number (a position in a list, an id), for the loops that meet
// hundreds of thousands of names: the snapshot reader finding duplicate objects, the pod index
// numbering service accounts. Open addressing in typed arrays: a Map of names (and per-namespace Maps
// for names such as "default") cost ~0.7 s of CPU while loading the 450,000 objects of the diverse
// bench cluster, most of it in the collector, because every entry was a heap reference from an old
// table to a young string. Here the table holds only numbers and hashes; the names stay where they
// are, and the owner tells whether a recorded number stands for a name.

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over namespace, a separator and name (exported for the collision tests). */
export function nameHash(namespace: string, name: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < namespace.length; i++) h = Math.imul(h ^ namespace.charCodeAt(i), FNV_PRIME);
  // A separator no name contains, so ("a", "bc") and ("ab", "c") differ.
  h = Math.imul(h ^ 0x2f, FNV_PRIME);
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), FNV_PRIME);
  return h;
}

export class NamePositions {
  /** Value + 1 (0: empty slot). */
  private slots = new Int32Array(1024);
  private hashes = new Int32Array(1024);
  private size = 0;

  /** `isNamed(value, namespace, name)`: whether the recorded value (≥ 0) stands for that namespace and name. */
  constructor(private readonly isNamed: (value: number, namespace: string, name: string) => boolean) {}

  /** The value recorded for (namespace, name), or -1 after recording `value` (≥ 0) for it. */
  findOrAdd(namespace: string, name: string, value: number): number {
    if (2 * (this.size + 1) > this.slots.length) this.grow();
    const h = nameHash(namespace, name);
    const mask = this.slots.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const slot = this.slots[i];
      if (slot === 0) {
        this.slots[i] = value + 1;
        this.hashes[i] = h;
        this.size++;
        return -1;
      }
      if (this.hashes[i] === h && this.isNamed(slot - 1, namespace, name)) return slot - 1;
    }
  }

  /** The value recorded for (namespace, name), or -1. */
  find(namespace: string, name: string): number {
    const h = nameHash(namespace, name);
    const mask = this.slots.length - 1;
    for (let i = h & mask; this.slots[i] !== 0; i = (i + 1) & mask) {
      if (this.hashes[i] === h && this.isNamed(this.slots[i] - 1, namespace, name)) return this.slots[i] - 1;
    }
    return -1;
  }

  private grow(): void {
    const slots = this.slots;
    const hashes = this.hashes;
    this.slots = new Int32Array(2 * slots.length);
    this.hashes = new Int32Array(2 * slots.length);
    const mask = this.slots.length - 1;
    for (let j = 0; j < slots.length; j++) {
      if (slots[j] === 0) continue;
      let i = hashes[j] & mask;
      while (this.slots[i] !== 0) i = (i + 1) & mask;
      this.slots[i] = slots[j];
      this.hashes[i] = hashes[j];
    }
  }
}
