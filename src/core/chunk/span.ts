import type { TokenCounter, TokenIndex } from './types.js';

/** A finished chunk before it becomes a draft: a trimmed, non-empty range of the document text and its token count. */
export interface Span {
  start: number;
  end: number;
  /** `tokenizer.count` of the chunk's text (`spanText`). */
  tokens: number;
  /**
   * Text the chunk repeats before its range, joined by a line break: the head of a table whose later rows the chunk
   * holds. The chunk's text is then not a slice of the document; its location is still the range.
   */
  prefix?: string;
  /** The chunk text's token ids, when the counter gives them (TokenCost.idsOf). */
  ids?: Int32Array;
}

/** A span's chunk text: its prefix (if any), a line break, and its range of `text`. */
export function spanText(text: string, span: Pick<Span, 'start' | 'end' | 'prefix'>): string {
  const own = text.slice(span.start, span.end);
  return span.prefix === undefined ? own : `${span.prefix}\n${own}`;
}

/** Chunk size limits shared by the strategies: `size` and `overlap` in tokens of the KB's tokenizer. */
export interface SizeLimits {
  size: number;
  overlap: number;
}

const WS = /\s/;

/** Shrinks [start, end) past leading and trailing whitespace (the same set `String.prototype.trim` removes). */
export function trimRange(text: string, start: number, end: number): [number, number] {
  let s = start;
  let e = end;
  while (s < e && WS.test(text[s] as string)) s++;
  while (e > s && WS.test(text[e - 1] as string)) e--;
  return [s, e];
}

/**
 * Token costs for packing. Tokenizers that count special tokens ([CLS], [SEP], <s>...) add a fixed overhead to
 * every call; summing per-piece counts would add it once per piece. `cost` removes it, so the count of a chunk is
 * about `overhead + Σ cost(piece)`, and `budget` is what the pieces of one chunk may add up to.
 */
export class TokenCost {
  readonly overhead: number;
  /** Counts add up over whitespace (TokenCounter.additive) with no overhead: a chunk is the sum of its pieces. */
  readonly additive: boolean;

  constructor(readonly counter: TokenCounter) {
    this.overhead = Math.max(0, counter.count(''));
    this.additive = counter.additive === true && this.overhead === 0;
  }

  /** The full count of a text, as stored on the chunk. */
  count(text: string): number {
    return this.counter.count(text);
  }

  /** The count of a text without the fixed per-call overhead. */
  cost(text: string): number {
    return Math.max(0, this.counter.count(text) - this.overhead);
  }

  /** The counter's index of `text` (TokenCounter.index), built once for the text being chunked. */
  private indexed?: { text: string; index: TokenIndex };

  private indexOf(text: string): TokenIndex | undefined {
    if (!this.additive || !this.counter.index) return undefined;
    if (this.indexed?.text !== text) this.indexed = { text, index: this.counter.index(text) };
    return this.indexed.index;
  }

  /** `cost(text.slice(start, end))`: from the counter's index of `text` when it keeps one. */
  costOf(text: string, start: number, end: number): number {
    const index = this.indexOf(text);
    return index ? index.count(start, end) : this.cost(text.slice(start, end));
  }

  /** The full count of a span's text (`spanText`). */
  countSpan(text: string, span: Pick<Span, 'start' | 'end' | 'prefix'>): number {
    const index = this.indexOf(text);
    if (!index) return this.count(spanText(text, span));
    // Additive: the prefix, the line break (no token) and the range add up.
    return (span.prefix === undefined ? 0 : this.count(span.prefix)) + index.count(span.start, span.end);
  }

  /** The token ids of a span's text (`spanText`), when the counter gives ids (TokenCounter.index). */
  idsOf(text: string, span: Pick<Span, 'start' | 'end' | 'prefix'>): Int32Array | undefined {
    const own = this.indexOf(text)?.ids(span.start, span.end);
    if (!own || span.prefix === undefined) return own;
    const head = this.counter.ids?.(span.prefix);
    return head ? concatIds(head, own) : undefined;
  }

  /** How much `cost` a chunk of `size` tokens may hold (at least 1, so chunking always makes progress). */
  budget(size: number): number {
    return Math.max(1, size - this.overhead);
  }
}

/**
 * The trimmed span of [start, end) (after `prefix`, if given), or undefined when it is only whitespace. `tokens`:
 * its count when the caller knows it (pieces of an additive counter), else it is counted.
 */
export function makeSpan(text: string, start: number, end: number, tc: TokenCost, prefix?: string, tokens?: number): Span | undefined {
  const [s, e] = trimRange(text, start, end);
  if (s >= e) return undefined;
  const span: Span = prefix === undefined ? { start: s, end: e, tokens: 0 } : { start: s, end: e, tokens: 0, prefix };
  span.tokens = tokens ?? tc.countSpan(text, span);
  return span;
}

/** Two runs of token ids one after the other. */
export function concatIds(a: Int32Array, b: Int32Array): Int32Array {
  if (a.length === 0) return b;
  const out = new Int32Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Index of the first element of ascending `arr[lo, hi)` that is >= value (hi when none). */
export function lowerBound(arr: ArrayLike<number>, value: number, lo = 0, hi = arr.length): number {
  let a = lo;
  let b = hi;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if ((arr[mid] as number) < value) a = mid + 1;
    else b = mid;
  }
  return a;
}

/** Index of the first element of ascending `arr[lo, hi)` that is > value (hi when none). */
export function upperBound(arr: ArrayLike<number>, value: number, lo = 0, hi = arr.length): number {
  let a = lo;
  let b = hi;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if ((arr[mid] as number) <= value) a = mid + 1;
    else b = mid;
  }
  return a;
}
