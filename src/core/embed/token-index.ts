import type { TokenCounter, TokenIndex } from '../chunk/types.js';
import { lowerBound, upperBound } from '../chunk/span.js';
import { ownString } from '../util/own-string.js';
import { hashOf, SPAN_HASH_SEED, spanHash, SpanMemo } from '../util/span-memo.js';
import { SPACE } from './space-table.js';
import type { WordIdSource } from './word-ids.js';

/**
 * The chunker's token counts and the embedding's token ids from one tokenization (a counter for BERT-style
 * tokenizers, whose texts are their whitespace-separated words' tokens one after the other: word-ids.ts).
 *
 * Chunking counts every range it weighs (sentences, blocks, windows, whole chunks) and the embedding worker then
 * tokenized every chunk's text again: each word was split into pieces and looked up twice, on two threads, and the
 * chunk texts were copied to the worker to be read once more. Here a document's text is scanned once
 * (`index`): each word's span, its ids (memoised by span, util/span-memo.ts) and running totals. The count of any
 * range is then a difference of totals, and a chunk's ids a view of the document's ids, handed to the worker with
 * its text (word-ids.ts GivenIds). A range that starts or ends inside a word counts that piece as a word of its own,
 * as counting the range's text does.
 */

/** Words longer than this are tokenized each time, not kept (a run of CJK text has no spaces). */
const MAX_KEPT_WORD = 64;
/**
 * Distinct words kept; the memo turns over in two generations past this (util/span-memo.ts). As many as the
 * embedding worker kept when it tokenized every chunk again (word-ids.ts): this is now the one tokenization.
 */
const MAX_WORDS = 200_000;
/** Ids in the memo's pool before it starts over (words dropped by the memo's turnover leave theirs behind). */
const MAX_POOL_IDS = 1 << 21;
/**
 * A word's memo value: (offset of its ids in the pool × 256 + their count) × 2, + 1 when the word is unclean; under
 * 2^30, a small integer V8 keeps unboxed. A word of 256 ids or more is not kept.
 */
const SLOT_LEN = 256;

/** A counter (and index) over the per-word path of `source`; `id` names the tokenizer (the model it belongs to). */
export function wordIdsCounter(id: string, source: WordIdSource): TokenCounter {
  const words = new WordTable(source);
  return {
    id,
    additive: true,
    // Whole texts outside chunking (a title, a table's repeated head): counted through an index of their own.
    count: (text) => new DocumentTokens(text, words).count(0, text.length),
    index: (text) => new DocumentTokens(text, words),
    ids: (text) => new DocumentTokens(text, words).ids(0, text.length),
  };
}

class WordTable {
  private readonly memo = new SpanMemo<number>(MAX_WORDS);
  pool = new Int32Array(1 << 16);
  private used = 0;
  /** Whether the last word `fresh` gave ids of is clean. */
  freshClean = true;

  constructor(readonly source: WordIdSource) {}

  /** The tokens of a piece of one word (a range that starts or ends inside it). */
  pieceCount(text: string, start: number, end: number): number {
    const slot = this.slot(text, start, end, hashOf(text, start, end));
    return slot >= 0 ? slotLength(slot) : this.fresh(text, start, end).length;
  }

  /** The memo value of text[start, end) (computed and kept on a miss), or -1 for a word that is not kept. */
  slot(text: string, start: number, end: number, hash: number): number {
    if (end - start > MAX_KEPT_WORD) return -1;
    const known = this.memo.get(text, start, end, hash);
    if (known !== undefined) return known;
    const word = ownString(text.slice(start, end));
    const ids = this.source.idsOf(word);
    if (ids.length >= SLOT_LEN) return -1;
    if (this.used + ids.length > MAX_POOL_IDS) {
      this.memo.clear();
      this.used = 0;
    }
    if (this.used + ids.length > this.pool.length) {
      const grown = new Int32Array(this.pool.length * 2);
      grown.set(this.pool.subarray(0, this.used));
      this.pool = grown;
    }
    const pool = this.pool;
    for (let q = 0; q < ids.length; q++) pool[this.used + q] = ids[q]!;
    const slot = (this.used * SLOT_LEN + ids.length) * 2 + (this.source.clean(word) ? 0 : 1);
    this.used += ids.length;
    this.memo.set(word, hash, slot);
    return slot;
  }

  /** The ids of text[start, end), a word not kept; `freshClean` says whether it is clean. */
  fresh(text: string, start: number, end: number): number[] {
    const word = text.slice(start, end);
    const ids = this.source.idsOf(word).slice();
    this.freshClean = this.source.clean(word);
    return ids;
  }

  /** The ids of a piece of one word (a range that starts or ends inside it), or undefined when it is unclean. */
  piece(text: string, start: number, end: number): number[] | undefined {
    const slot = this.slot(text, start, end, hashOf(text, start, end));
    if (slot < 0) {
      const ids = this.fresh(text, start, end);
      return this.freshClean ? ids : undefined;
    }
    if (slot % 2 === 1) return undefined;
    const off = slotOffset(slot);
    return Array.from(this.pool.subarray(off, off + slotLength(slot)));
  }
}

/** `a` copied into a new array of `size`. */
function grown(a: Int32Array, size: number): Int32Array {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

const slotLength = (slot: number): number => Math.floor(slot / 2) % SLOT_LEN;
const slotOffset = (slot: number): number => Math.floor(slot / 2 / SLOT_LEN);

/** One text's words (spans), their ids one after the other, and running totals: the counts and ids of any range. */
class DocumentTokens implements TokenIndex {
  private n = 0;
  private starts: Int32Array;
  private ends: Int32Array;
  /** cum[k]: ids of the words before word k (and where word k's ids start in `all`). */
  private cum: Int32Array;
  /** unclean[k]: unclean words before word k. */
  private unclean: Int32Array;
  private all: Int32Array;
  private readonly dirty: number[] = [];

  constructor(
    private readonly text: string,
    private readonly words: WordTable,
  ) {
    const guess = Math.max(16, Math.ceil(text.length / 5));
    this.starts = new Int32Array(guess);
    this.ends = new Int32Array(guess);
    this.cum = new Int32Array(guess + 1);
    this.unclean = new Int32Array(guess + 1);
    this.all = new Int32Array(Math.max(16, Math.ceil(text.length / 3)));
    const dirtySpaces = words.source.dirtySpaces;
    let start = -1;
    let hash = SPAN_HASH_SEED;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (SPACE[c] === 1) {
        if (start >= 0) this.add(start, i, hash);
        start = -1;
        if (dirtySpaces[c] === 1) this.dirty.push(i);
      } else {
        if (start < 0) {
          start = i;
          hash = SPAN_HASH_SEED;
        }
        hash = spanHash(hash, c);
      }
    }
    if (start >= 0) this.add(start, text.length, hash);
  }

  private add(start: number, end: number, hash: number): void {
    const slot = this.words.slot(this.text, start, end, hash);
    const k = this.n;
    if (k === this.starts.length) this.growWords();
    this.starts[k] = start;
    this.ends[k] = end;
    const at = this.cum[k]!;
    let len: number;
    let bad: number;
    if (slot >= 0) {
      len = slotLength(slot);
      bad = slot % 2;
      if (at + len > this.all.length) this.growIds(at + len);
      const off = slotOffset(slot);
      const pool = this.words.pool;
      const all = this.all;
      for (let q = 0; q < len; q++) all[at + q] = pool[off + q]!;
    } else {
      const ids = this.words.fresh(this.text, start, end);
      len = ids.length;
      bad = this.words.freshClean ? 0 : 1;
      if (at + len > this.all.length) this.growIds(at + len);
      this.all.set(ids, at);
    }
    this.cum[k + 1] = at + len;
    this.unclean[k + 1] = this.unclean[k]! + bad;
    this.n = k + 1;
  }

  private growWords(): void {
    const size = this.starts.length * 2;
    this.starts = grown(this.starts, size);
    this.ends = grown(this.ends, size);
    this.cum = grown(this.cum, size + 1);
    this.unclean = grown(this.unclean, size + 1);
  }

  private growIds(need: number): void {
    this.all = grown(this.all, Math.max(need, this.all.length * 2));
  }

  /**
   * [first, last) words wholly inside [start, end), and the pieces of words cut by its ends: `head` (the range
   * starts inside word first - 1) and `tail` (it ends inside word last). A range inside one word is a single piece.
   */
  private split(start: number, end: number): { first: number; last: number; head?: [number, number]; tail?: [number, number] } {
    // Words ending after `start`, and words starting before `end`.
    const i = upperBound(this.ends, start, 0, this.n);
    const j = lowerBound(this.starts, end, 0, this.n);
    if (i >= j) return { first: i, last: i };
    let first = i;
    let last = j;
    let head: [number, number] | undefined;
    let tail: [number, number] | undefined;
    if (this.starts[i]! < start) {
      head = [start, Math.min(this.ends[i]!, end)];
      first = i + 1;
    }
    if (j - 1 >= first && this.ends[j - 1]! > end) {
      tail = [this.starts[j - 1]!, end];
      last = j - 1;
    }
    return { first, last: Math.max(first, last), ...(head ? { head } : {}), ...(tail ? { tail } : {}) };
  }

  count(start: number, end: number): number {
    const { first, last, head, tail } = this.split(start, end);
    let total = this.cum[last]! - this.cum[first]!;
    if (head) total += this.words.pieceCount(this.text, head[0], head[1]);
    if (tail) total += this.words.pieceCount(this.text, tail[0], tail[1]);
    return total;
  }

  ids(start: number, end: number): Int32Array | undefined {
    const d = lowerBound(this.dirty, start);
    if (d < this.dirty.length && this.dirty[d]! < end) return undefined;
    const { first, last, head, tail } = this.split(start, end);
    if (this.unclean[last]! - this.unclean[first]! > 0) return undefined;
    const middle = this.all.subarray(this.cum[first]!, this.cum[last]!);
    if (!head && !tail) return middle;
    const h = head ? this.words.piece(this.text, head[0], head[1]) : [];
    const t = tail ? this.words.piece(this.text, tail[0], tail[1]) : [];
    if (!h || !t) return undefined;
    const out = new Int32Array(h.length + middle.length + t.length);
    out.set(h, 0);
    out.set(middle, h.length);
    out.set(t, h.length + middle.length);
    return out;
  }
}
