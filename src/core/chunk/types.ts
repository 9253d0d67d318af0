import type { ChunkingConfig, Location } from '../../shared/contract/index.js';
import type { ParsedDocument } from '../parse/types.js';

export interface ChunkDraft {
  chunk_index: number;
  text: string;
  characters: number;
  tokens: number;
  location: Location;
  /**
   * The chunk text's token ids (no special tokens) when the KB's tokenizer gave them while chunking
   * (TokenCounter.index): handed to the embedding worker instead of tokenizing the text again.
   */
  ids?: Int32Array;
}

/** Counts and ids of any range of one text, from one scan of it (TokenCounter.index). */
export interface TokenIndex {
  /** `count(text.slice(start, end))`, without slicing or scanning the range again. */
  count(start: number, end: number): number;
  /**
   * The token ids of text[start, end) without special tokens (a view that must not be written to), or undefined
   * where that text must go through the tokenizer whole (a character its normalizer drops, an added token's text).
   */
  ids(start: number, end: number): Int32Array | undefined;
}

/** Counts tokens the way the KB's embedding model does (or an honest estimate when no tokenizer is at hand). */
export interface TokenCounter {
  /** Identifies the tokenizer, e.g. the model id, or `estimate`. */
  readonly id: string;
  count(text: string): number;
  /**
   * The count adds up over whitespace: `count(a + ' ' + b) === count(a) + count(b)` for any texts, and
   * `count('') === 0` (true of counters that sum a count per whitespace-separated word). Then a chunk made of
   * pieces joined by whitespace is counted as the sum of its pieces' counts, not counted again as a whole.
   */
  readonly additive?: boolean;
  /** An additive counter's index of `text`: counts of its ranges, and their token ids (for the embedding). */
  index?(text: string): TokenIndex;
  /** The token ids of a whole text (a title, a table's repeated head), as TokenIndex.ids gives them. */
  ids?(text: string): Int32Array | undefined;
}

export interface ChunkContext {
  tokenizer: TokenCounter;
  /** Passage embeddings for the semantic strategy; absent when no model is loaded (semantic then falls back to sentence). */
  embed?: (texts: string[]) => Promise<Float32Array[]>;
}

export type Chunker = (doc: ParsedDocument, config: ChunkingConfig, ctx: ChunkContext) => Promise<ChunkDraft[]>;
