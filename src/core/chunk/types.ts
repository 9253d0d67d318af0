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
}

export interface ChunkContext {
  tokenizer: TokenCounter;
  /** Passage embeddings for the semantic strategy; absent when no model is loaded (semantic then falls back to sentence). */
  embed?: (texts: string[]) => Promise<Float32Array[]>;
}

export type Chunker = (doc: ParsedDocument, config: ChunkingConfig, ctx: ChunkContext) => Promise<ChunkDraft[]>;
