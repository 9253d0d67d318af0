/**
 * A memo of at most `max` entries kept in two generations. New entries go into the young map; once it holds
 * `max / 2`, it becomes the old one and the previous old one is dropped. A hit in the old generation is copied into
 * the young one, so the keys in use survive each turnover. A map emptied whenever it is full forgets its hot keys
 * with its cold ones: the analyzer's and the chunker's word memos were such maps of 200,000 words, and ingest text
 * with many words seen once (numbers, names, codes) emptied them over and over. Two generations of 25,000 keep the
 * hot words in a quarter of the memory: the bench's 50,000-file folder peaked 626-631 → 596-606 MB, its 20 MB
 * folder took the same time (docs/benchmarks.md).
 *
 * `set` keeps the key it is given: callers pass a key of their own (util/own-string.ts), made once for the value
 * they compute from it too. `own` makes one for a hit copied from the old generation, whose key is the one looked
 * up: a word sliced out of a document would otherwise keep the whole text alive.
 */
export class GenerationalMemo<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;

  constructor(
    max: number,
    private readonly own: (key: K) => K = (key) => key,
  ) {
    this.half = Math.max(1, Math.floor(max / 2));
  }

  get(key: K): V | undefined {
    const hit = this.young.get(key);
    if (hit !== undefined) return hit;
    const kept = this.old.get(key);
    if (kept !== undefined) this.set(this.own(key), kept);
    return kept;
  }

  set(key: K, value: V): void {
    if (this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  /** Entries held (a key copied into the young generation counts twice until the old one is dropped). */
  get size(): number {
    return this.young.size + this.old.size;
  }
}
