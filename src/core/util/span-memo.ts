/**
 * A memo keyed by a span of a text (`text[start, end)`) and the span's hash, so that a lookup needs neither the
 * substring nor V8's hash of it: the analyzer's index form of each word (text/analyzer.ts analyzeForIndex) was
 * looked up by slicing every word out of its chunk, and V8 then hashed each new string again for the map. Its
 * scan now hashes a word's code units as it passes over them (`spanHash`), and only a miss cuts the word out.
 *
 * Like GenerationalMemo: at most `max` entries in two generations; a hit in the old one is copied into the young
 * one, so the words in use survive each turnover. Each generation is an open-addressing table at most half full.
 *
 * Documents may be hostile, and words of one hash would make every probe walk them all: the hash starts from a
 * random seed per process, and a probe gives up after MAX_PROBE slots (a lookup then misses and `set` keeps
 * nothing, so the caller computes the value, as it would without a memo).
 */

/** Slots a lookup or an insert looks at before giving up. */
const MAX_PROBE = 16;

/** The hash's starting value, random per process (see the module comment). */
export const SPAN_HASH_SEED = (Math.random() * 0x100000000) | 0;

/** One step of the span hash (FNV-1a over UTF-16 code units): `h = spanHash(h, code)`, from SPAN_HASH_SEED. */
export function spanHash(h: number, code: number): number {
  return Math.imul(h ^ code, 0x01000193);
}

/** The hash of `text[start, end)`, as a scan computing spanHash over it gets. */
export function hashOf(text: string, start = 0, end = text.length): number {
  let h = SPAN_HASH_SEED;
  for (let i = start; i < end; i++) h = spanHash(h, text.charCodeAt(i));
  return h;
}

class Generation<V> {
  readonly keys: Array<string | undefined>;
  readonly hashes: Int32Array;
  readonly values: Array<V | undefined>;
  count = 0;

  constructor(slots: number) {
    this.keys = new Array<string | undefined>(slots).fill(undefined);
    this.hashes = new Int32Array(slots);
    this.values = new Array<V | undefined>(slots).fill(undefined);
  }

  /** The slot holding `text[start, end)` with `hash`, else -1. */
  find(text: string, start: number, end: number, hash: number, mask: number): number {
    const len = end - start;
    for (let p = 0, i = hash & mask; p < MAX_PROBE; p++, i = (i + 1) & mask) {
      const key = this.keys[i];
      if (key === undefined) return -1;
      if (this.hashes[i] === hash && key.length === len && text.startsWith(key, start)) return i;
    }
    return -1;
  }

  clear(): void {
    this.keys.fill(undefined);
    this.values.fill(undefined);
    this.count = 0;
  }
}

export class SpanMemo<V> {
  private young: Generation<V>;
  private old: Generation<V>;
  private readonly half: number;
  private readonly mask: number;

  constructor(max: number) {
    this.half = Math.max(1, Math.floor(max / 2));
    let slots = 2;
    while (slots < 2 * this.half) slots *= 2;
    this.mask = slots - 1;
    this.young = new Generation<V>(slots);
    this.old = new Generation<V>(slots);
  }

  /** The value kept for `text[start, end)`, whose hash (from SPAN_HASH_SEED) is `hash`. */
  get(text: string, start: number, end: number, hash: number): V | undefined {
    const y = this.young.find(text, start, end, hash, this.mask);
    if (y >= 0) return this.young.values[y];
    const o = this.old.find(text, start, end, hash, this.mask);
    if (o < 0) return undefined;
    const value = this.old.values[o]!;
    this.set(this.old.keys[o]!, hash, value);
    return value;
  }

  /**
   * Keep `value` for `key`, whose hash is `hash`. `key` must be a string of the caller's own (util/own-string.ts):
   * a span sliced out of a large text would keep that text alive. Nothing is kept when MAX_PROBE slots are taken.
   */
  set(key: string, hash: number, value: V): void {
    if (this.young.count >= this.half) {
      const emptied = this.old;
      emptied.clear();
      this.old = this.young;
      this.young = emptied;
    }
    const g = this.young;
    for (let p = 0, i = hash & this.mask; p < MAX_PROBE; p++, i = (i + 1) & this.mask) {
      if (g.keys[i] !== undefined) continue;
      g.keys[i] = key;
      g.hashes[i] = hash;
      g.values[i] = value;
      g.count++;
      return;
    }
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  /** Entries held (a key copied into the young generation counts twice until the old one is dropped). */
  get size(): number {
    return this.young.count + this.old.count;
  }
}
