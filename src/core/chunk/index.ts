import { CHUNK_STRATEGIES } from '../../shared/contract/index.js';
import type { ChunkingConfig } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import type { ParsedDocument } from '../parse/types.js';
import { DocLocator } from './location.js';
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
  const job: ChunkJob = {
    config,
    ctx,
    tc: new TokenCost(ctx.tokenizer),
    limits: { size: config.chunk_size, overlap: config.chunk_overlap },
    warnings: [],
  };
  // `whole` is one chunk by definition (its location names the page range); every other strategy respects pages.
  const spans = config.strategy === 'whole' ? await pageSpans(doc, job) : await byPage(doc, (d) => pageSpans(d, job));
  const locator = new DocLocator(doc);
  const chunks = new Array<ChunkDraft>(spans.length);
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i]!;
    const text = spanText(doc.text, span);
    const draft: ChunkDraft = {
      chunk_index: i,
      text,
      characters: text.length,
      tokens: span.tokens,
      location: locator.at(span.start, span.end),
    };
    if (span.ids) draft.ids = span.ids;
    chunks[i] = draft;
  }
  return { chunks, warnings: [...new Set(job.warnings)] };
}

/**
 * One chunking: what its steps share. The steps are functions of the module, not closures made per document: V8
 * drops a closure's optimised code with the closure, so closures made per document were optimised again after
 * every major GC (see DocLocator).
 */
interface ChunkJob {
  config: ChunkingConfig;
  ctx: ChunkContext;
  tc: TokenCost;
  limits: SizeLimits;
  warnings: string[];
}

async function strategySpans(d: ParsedDocument, job: ChunkJob): Promise<Span[]> {
  const { tc, limits } = job;
  switch (job.config.strategy) {
    case 'whole':
      return wholeStrategy(d, tc);
    case 'sentence':
      return sentenceStrategy(d, limits, tc);
    case 'token':
      return tokenStrategy(d, limits, tc);
    case 'markdown':
      return markdownStrategy(d, limits, tc);
    case 'semantic':
      if (job.ctx.embed) return semanticStrategy(d, limits, tc, job.ctx.embed, job.warnings);
      if (!job.warnings.includes(SEMANTIC_FALLBACK_WARNING)) job.warnings.push(SEMANTIC_FALLBACK_WARNING);
      return sentenceStrategy(d, limits, tc);
  }
}

/** A page's spans (the whole document's, for `whole` or a document without pages), with their token ids. */
async function pageSpans(d: ParsedDocument, job: ChunkJob): Promise<Span[]> {
  const spans = await strategySpans(d, job);
  // The chunks' token ids from the same index of the text their counts came from (a page's, under byPage).
  for (const span of spans) {
    const ids = job.tc.idsOf(d.text, span);
    if (ids) span.ids = ids;
  }
  return spans;
}

/** Chunks a parsed document by `config.strategy`; sizes and overlap in `ctx.tokenizer` tokens. */
export const chunkDocument: Chunker = async (doc, config, ctx) => (await chunkDocumentWithWarnings(doc, config, ctx)).chunks;
