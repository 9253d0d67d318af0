import { CHUNK_STRATEGIES } from '../../shared/contract/index.js';
import type { ChunkingConfig } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import type { ParsedDocument } from '../parse/types.js';
import { createLocator } from './location.js';
import { markdownStrategy } from './markdown.js';
import { byPage } from './pages.js';
import { semanticStrategy } from './semantic.js';
import { sentenceStrategy } from './sentence.js';
import type { SizeLimits, Span } from './span.js';
import { spanText, TokenCost } from './span.js';
import { tokenStrategy } from './token.js';
import type { ChunkContext, ChunkDraft, Chunker } from './types.js';
import { wholeStrategy } from './whole.js';

export type { ChunkContext, ChunkDraft, Chunker, TokenCounter } from './types.js';
export { createLocator } from './location.js';
export type { Locator } from './location.js';

export interface ChunkResult {
  chunks: ChunkDraft[];
  /** Degradations worth telling the user, e.g. semantic chunking without an embedding model. */
  warnings: string[];
}

export const SEMANTIC_FALLBACK_WARNING =
  'semantic chunking needs an embedding model and none is loaded; the document was chunked by sentence instead';

/** Throws `invalid_parameter` unless the config names a strategy and 0 <= chunk_overlap < chunk_size (integers). */
export function validateChunkingConfig(config: ChunkingConfig): void {
  const bad = (message: string): never => {
    throw new RagError('invalid_parameter', message, { details: { chunking: { ...config } } });
  };
  if (!(CHUNK_STRATEGIES as readonly string[]).includes(config.strategy)) {
    bad(`unknown chunking strategy "${String(config.strategy)}"; expected one of ${CHUNK_STRATEGIES.join(', ')}`);
  }
  if (!Number.isInteger(config.chunk_size) || config.chunk_size < 1) bad('chunk_size must be a positive integer');
  if (!Number.isInteger(config.chunk_overlap) || config.chunk_overlap < 0) bad('chunk_overlap must be a non-negative integer');
  if (config.chunk_overlap >= config.chunk_size) bad('chunk_overlap must be smaller than chunk_size');
}

/** Chunks a parsed document and reports degradations. Chunks are in text order, trimmed, never empty. */
export async function chunkDocumentWithWarnings(doc: ParsedDocument, config: ChunkingConfig, ctx: ChunkContext): Promise<ChunkResult> {
  validateChunkingConfig(config);
  const tc = new TokenCost(ctx.tokenizer);
  const limits: SizeLimits = { size: config.chunk_size, overlap: config.chunk_overlap };
  const warnings: string[] = [];
  const strategy = async (d: ParsedDocument): Promise<Span[]> => {
    switch (config.strategy) {
      case 'whole':
        return wholeStrategy(d, tc);
      case 'sentence':
        return sentenceStrategy(d, limits, tc);
      case 'token':
        return tokenStrategy(d, limits, tc);
      case 'markdown':
        return markdownStrategy(d, limits, tc);
      case 'semantic':
        if (ctx.embed) return semanticStrategy(d, limits, tc, ctx.embed, warnings);
        if (!warnings.includes(SEMANTIC_FALLBACK_WARNING)) warnings.push(SEMANTIC_FALLBACK_WARNING);
        return sentenceStrategy(d, limits, tc);
    }
  };
  // The chunks' token ids from the same index of the text their counts came from (a page's, under byPage).
  const run = async (d: ParsedDocument): Promise<Span[]> => {
    const spans = await strategy(d);
    for (const span of spans) {
      const ids = tc.idsOf(d.text, span);
      if (ids) span.ids = ids;
    }
    return spans;
  };
  // `whole` is one chunk by definition (its location names the page range); every other strategy respects pages.
  const spans = config.strategy === 'whole' ? await run(doc) : await byPage(doc, run);
  const locate = createLocator(doc);
  const chunks = spans.map((span, i): ChunkDraft => {
    const text = spanText(doc.text, span);
    const draft: ChunkDraft = {
      chunk_index: i,
      text,
      characters: text.length,
      tokens: span.tokens,
      location: locate(span.start, span.end),
    };
    if (span.ids) draft.ids = span.ids;
    return draft;
  });
  return { chunks, warnings: [...new Set(warnings)] };
}

/** Chunks a parsed document by `config.strategy`; sizes and overlap in `ctx.tokenizer` tokens. */
export const chunkDocument: Chunker = async (doc, config, ctx) => (await chunkDocumentWithWarnings(doc, config, ctx)).chunks;
