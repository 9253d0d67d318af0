import type { ChunkingConfig, Location } from '../../shared/contract/index.js';
import type { ParsedDocument } from '../parse/types.js';

export interface ChunkDraft {
  chunk_index: number;
  text: string;
  characters: number;
  tokens: number;
  location: Location;
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
}

export interface ChunkContext {
  tokenizer: TokenCounter;
  /** Passage embeddings for the semantic strategy; absent when no model is loaded (semantic then falls back to sentence). */
  embed?: (texts: string[]) => Promise<Float32Array[]>;
}

export type Chunker = (doc: ParsedDocument, config: ChunkingConfig, ctx: ChunkContext) => Promise<ChunkDraft[]>;
