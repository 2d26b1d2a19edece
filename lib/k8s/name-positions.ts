// Where each (namespace, name) of one kind sits in its list while a snapshot is read, to find
// duplicates. An open-addressing table in typed arrays: a Map of names (and per-namespace Maps for
// names such as "default") cost ~0.7 s of CPU while loading the 450,000 objects of the diverse bench
// cluster, most of it in the collector, because every entry was a heap reference from an old table
// to a young string. Here the table holds only positions and hashes; the names stay on the objects.

import type { KubeObject } from './types';

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
  /** Position + 1 of the object in the list (0: empty slot). */
  private slots = new Int32Array(1024);
  private hashes = new Int32Array(1024);
  private size = 0;

  /**
   * The position in `list` of the object already named (namespace, name), or -1 after recording
   * `position` for that name. `list[p]` must keep its namespace and name for every recorded p.
   */
  findOrAdd(list: readonly KubeObject[], namespace: string, name: string, position: number): number {
    if (2 * (this.size + 1) > this.slots.length) this.grow();
    const h = nameHash(namespace, name);
    const mask = this.slots.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const slot = this.slots[i];
      if (slot === 0) {
        this.slots[i] = position + 1;
        this.hashes[i] = h;
        this.size++;
        return -1;
      }
      if (this.hashes[i] === h) {
        const metadata = list[slot - 1].metadata;
        if (metadata.name === name && (metadata.namespace ?? '') === namespace) return slot - 1;
      }
    }
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
