import type { Hit, Kb, SearchMode, SearchResult } from '../../shared/contract/index.js';
import type { ParsedInput } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import type { Embedder } from '../embed/types.js';
import type { CoreContext } from '../services/context.js';
import type { ChunkRef, StoredChunk } from '../store/chunk-table.js';
import { compileFilter } from '../store/filters.js';
import { analyzeForIndex } from '../text/analyzer.js';
import { within } from '../util/timeout.js';
import { fuse, type FusionMethod, type Ranked } from './fusion.js';
import { rerankHits } from './rerank.js';

export interface SearchOptions {
  /** KBs the caller may read; undefined means all. */
  allowed?: ReadonlySet<string>;
  fusion?: FusionMethod;
  /** Candidates fetched per mode before fusion/rerank (default max(4·top_k, 100) for hybrid, else 50). */
  candidates?: number;
}

interface KbOutcome {
  hits: Hit[];
  degraded?: string;
}

function toHit(kb: Kb, c: StoredChunk, score: number): Hit {
  return {
    kb_id: kb.kb_id,
    doc_id: c.doc_id,
    title: c.title,
    text: c.text,
    score,
    chunk_index: c.chunk_index,
    location: c.location,
    source: c.source,
    metadata: c.metadata,
  };
}

async function queryEmbedder(ctx: CoreContext, kb: Kb, mode: SearchMode): Promise<{ embedder?: Embedder; why?: string }> {
  if (mode === 'fts') return {};
  const ready = ctx.models.peekEmbedder(kb.embedding_model);
  if (ready) return { embedder: ready };
  if (ctx.options.waitForModels) {
    // One-shot callers (the CLI, evaluation) have no client timeout: load (and download, if allowed) first.
    try {
      return { embedder: await ctx.models.getEmbedder(kb.embedding_model, { allowDownload: ctx.options.allowDownload }) };
    } catch (err) {
      if (mode === 'vector' || !(err instanceof RagError) || err.code !== 'model_unavailable') throw err;
      return { why: `${err.message}: answered from full-text only` };
    }
  }
  if (mode === 'hybrid') {
    const status = ctx.models.status().find((s) => s.model === kb.embedding_model && s.kind === 'embedding');
    const state = status?.state === 'loading' || !status ? 'not loaded yet (loading in the background)' : status.state;
    return { why: `model ${kb.embedding_model} is ${state}${status?.error ? ` (${status.error})` : ''}: answered from full-text only` };
  }
  // Vector mode waits for a model that is already on disk and loading, never for a download.
  try {
    const got = await within(ctx.models.getEmbedder(kb.embedding_model, { allowDownload: false }), ctx.options.vectorWaitMs);
    if (got) return { embedder: got };
    throw new RagError('model_unavailable', `model ${kb.embedding_model} is still loading; try again shortly or use mode "fts"`);
  } catch (err) {
    if (err instanceof RagError) throw err;
    throw new RagError('model_unavailable', `model ${kb.embedding_model} is unavailable`, { cause: err });
  }
}

export interface KbRanking {
  refs: ChunkRef[];
  degraded?: string;
}

/** Rank one KB's chunks for a query: keys and scores only (no top_k cap: evaluation asks for 100+). */
export async function rankKb(
  ctx: CoreContext,
  kb: Kb,
  query: string,
  analyzed: string,
  mode: SearchMode,
  where: string | undefined,
  depth: number,
  fusion: FusionMethod,
): Promise<KbRanking> {
  // The table this KB snapshot points at: a search that began before a model-change swap finishes on it.
  const table = await ctx.store.chunks(kb);
  if (!table) return { refs: [] };
  const { embedder, why: notReady } = await queryEmbedder(ctx, kb, mode);
  let why = notReady;
  let wantVector = mode !== 'fts' && embedder !== undefined;
  const [fts, vec] = await Promise.all([
    mode === 'vector' ? Promise.resolve([]) : table.ftsRank(analyzed, depth, where),
    wantVector
      ? embedder!.embedQueries([query]).then(
          ([v]) => (table.dim === v!.length ? table.vectorRank(v!, depth, where) : []),
          (err: unknown) => {
            // A remote embedder that fails now (endpoint down, circuit open): hybrid still answers from full-text.
            if (mode !== 'hybrid' || !(err instanceof RagError) || err.code !== 'model_unavailable') throw err;
            wantVector = false;
            why = `${err.message}: answered from full-text only`;
            return [];
          },
        )
      : Promise.resolve([]),
  ]);
  if (mode === 'fts' || (mode === 'hybrid' && !wantVector)) return { refs: fts, ...(why ? { degraded: why } : {}) };
  if (mode === 'vector') return { refs: vec };
  const lists: Array<Array<Ranked<ChunkRef>>> = [fts, vec].map((l) => l.map((c) => ({ key: c.chunk_id, score: c.score, item: c })));
  return { refs: fuse(lists, fusion).map((f) => ({ ...f.item, score: f.score })) };
}

/** Rank a KB and fetch the text of its best `count` chunks as hits. */
async function searchKb(
  ctx: CoreContext,
  kb: Kb,
  args: {
    query: string;
    analyzed: string;
    mode: SearchMode;
    where: string | undefined;
    depth: number;
    fusion: FusionMethod;
    count: number;
  },
): Promise<KbOutcome> {
  const ranking = await rankKb(ctx, kb, args.query, args.analyzed, args.mode, args.where, args.depth, args.fusion);
  const table = await ctx.store.chunks(kb);
  const chunks = table ? await table.hydrate(ranking.refs.slice(0, args.count)) : [];
  return { hits: chunks.map((c) => toHit(kb, c, c.score)), ...(ranking.degraded ? { degraded: ranking.degraded } : {}) };
}

/** Search one, several or all KBs: each KB in parallel, merged by score, tagged with its KB. */
export async function search(ctx: CoreContext, input: ParsedInput<'search'>, options: SearchOptions = {}): Promise<SearchResult> {
  const allowed = options.allowed;
  let kbs: Kb[];
  if (input.kb_ids) {
    kbs = input.kb_ids.map((id) => {
      const kb = ctx.store.registry.find(id);
      if (!kb || (allowed && !allowed.has(id)))
        throw new RagError('kb_not_found', `knowledge base "${id}" not found`, { details: { kb_id: id } });
      return kb;
    });
  } else {
    kbs = ctx.store.registry.list().filter((kb) => kb.enabled && (!allowed || allowed.has(kb.kb_id)));
  }
  // Compile the filter per KB: a field unknown to every KB searched is an error; a KB lacking it contributes nothing.
  const wheres = new Map<string, string | undefined>();
  let firstError: unknown;
  for (const kb of kbs) {
    try {
      wheres.set(kb.kb_id, compileFilter(input.filter, kb.metadata_fields));
    } catch (err) {
      firstError ??= err;
    }
  }
  if (firstError && (wheres.size === 0 || !(firstError instanceof RagError && /unknown filter field/.test(firstError.message))))
    throw firstError;
  const searchable = kbs.filter((kb) => wheres.has(kb.kb_id));

  const depth = options.candidates ?? Math.max(input.top_k * 4, input.mode === 'hybrid' ? 100 : 50);
  const analyzed = analyzeForIndex(input.query);
  // Each KB hydrates only what can reach the answer: top_k, or the rerank pool.
  const count = input.use_rerank ? Math.max(input.top_k * 4, 20) : input.top_k;
  const outcomes = await Promise.all(
    searchable.map((kb) =>
      searchKb(ctx, kb, {
        query: input.query,
        analyzed,
        mode: input.mode,
        where: wheres.get(kb.kb_id),
        depth,
        fusion: options.fusion ?? 'adaptive',
        count,
      }),
    ),
  );
  let hits = outcomes.flatMap((o) => o.hits).sort((a, b) => b.score - a.score);
  const degraded = [...new Set(outcomes.map((o) => o.degraded).filter((d): d is string => Boolean(d)))];
  let reranked = false;
  if (input.use_rerank && hits.length > 0) {
    const r = await rerankHits(ctx, input.query, hits.slice(0, Math.max(input.top_k * 4, 20)));
    if (r.hits) {
      hits = r.hits;
      reranked = true;
    } else if (r.why) degraded.push(r.why);
  }
  return {
    mode: input.mode,
    reranked,
    ...(degraded.length ? { degraded: degraded.join('; ') } : {}),
    hits: hits.slice(0, input.top_k),
  };
}
