import { FULL_TEXT_ONLY, isFullTextOnly, type Hit, type Kb, type SearchMode, type SearchResult } from '../../shared/contract/index.js';
import type { ParsedInput } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import type { Embedder } from '../embed/types.js';
import type { CoreContext } from '../services/context.js';
import { noteSearch } from '../services/indexing.js';
import { queryTerms } from '../store/bm25.js';
import type { FusionList } from '../store/ann-params.js';
import type { ChunkRef, StoredChunk } from '../store/chunk-table.js';
import type { TableSnapshot } from '../store/snapshot.js';
import { compileFilter } from '../store/filters.js';
import { analyzeForIndex } from '../text/analyzer.js';
import { within } from '../util/timeout.js';
import { fuse, type FusionMethod, type Ranked } from './fusion.js';
import { MIN_LEXICAL_DEPTH, rankLexicalExact } from './lexical-depth.js';
import { refKey, type KbRef } from './lexical-rank.js';
import { rerankHits, readyReranker } from './rerank.js';

export interface SearchOptions {
  /** KBs the caller may read; undefined means all. */
  allowed?: ReadonlySet<string>;
  fusion?: FusionMethod;
  /** Candidates fetched per mode before fusion/rerank (default max(4·top_k, 100) for hybrid, else 50). */
  candidates?: number;
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

async function queryEmbedder(ctx: CoreContext, kb: Kb, mode: SearchMode, alone: boolean): Promise<{ embedder?: Embedder; why?: string }> {
  if (mode === 'fts') return {};
  // A full-text only KB: hybrid is its full-text ranking (nothing is missing, so no note); a vector search of it
  // alone is refused, and among other KBs it adds nothing.
  if (isFullTextOnly(kb.embedding_model)) {
    if (mode === 'hybrid' || !alone) return {};
    throw new RagError(
      'invalid_parameter',
      `knowledge base "${kb.kb_id}" is full-text only (model ${FULL_TEXT_ONLY}): search it with mode fts or hybrid`,
      {
        details: { kb_id: kb.kb_id },
      },
    );
  }
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

/** A KB to rank and the filter compiled for it. */
export interface RankTarget {
  kb: Kb;
  where?: string | undefined;
}

export interface MultiRanking {
  refs: KbRef[];
  degraded?: string;
  /** The snapshot each KB was ranked on (its hits are read from it: one committed state per search). */
  snapshots: Map<string, TableSnapshot>;
}

/**
 * Rank chunks of one or several KBs for a query as one collection: keys and scores only (no top_k cap:
 * evaluation asks for 100+). Full-text scores use the KBs' summed statistics (lexical-rank.ts), each KB's list read
 * as deep as it takes for the ranking's head to be exact (lexical-depth.ts: `head` rows for fts, the whole list
 * fusion reads for hybrid); vector candidates of KBs on the same model are merged by cosine similarity; hybrid fuses
 * the merged lexical ranking with each model's merged vector ranking once, so a collection split over KBs ranks as it
 * does in one.
 * `withRows`: full-text candidates, and the nearest rows of a vector search of one KB, carry their hit columns
 * (one read instead of a ranking then a fetch, where the lists are short and their head becomes the hits). In
 * hybrid search of a small table (hybridListColumnsMaxRows, 2,000 rows) the full-text list is read with its columns
 * while the query is embedded and the vector list searched: hits it holds need no second read; past it, no list reads
 * columns (each list knows its rows by row id alone) and the ≤ top_k hits are fetched after fusion, which
 * costs less than 100 candidates' columns (SciFact, 9.6k chunks: hybrid p50 ~7 → ~5.5 ms, context.ts). `head`: how many of the
 * ranking's best the caller reads (a KB searched alone whose index scores exactly is asked for no more, and one
 * past them to see a tie at the end).
 */
export async function rankKbs(
  ctx: CoreContext,
  targets: RankTarget[],
  query: string,
  analyzed: string,
  mode: SearchMode,
  depth: number,
  fusion: FusionMethod,
  withRows = false,
  head = depth,
): Promise<MultiRanking> {
  const terms = queryTerms(analyzed);
  // The head of the full-text ranking that must be exact: what becomes hits, or the whole list fusion reads.
  const exactHead = mode === 'fts' ? Math.min(head, depth) : depth;
  const queryVectors = new Map<string, Promise<Float32Array>>();
  // Hybrid reads each vector list for fusion: one KB's is only z-scored against itself; several KBs' are merged by
  // distance first (ann-params.ts, FusionList).
  const fusionList: FusionList | undefined = mode === 'hybrid' ? (targets.length === 1 ? 'alone' : 'merged') : undefined;
  const whys: string[] = [];
  const snapshots = new Map<string, TableSnapshot>();
  const per = await Promise.all(
    targets.map(async ({ kb, where }) => {
      // The table this KB snapshot points at: a search that began before a model-change swap finishes on it.
      const table = await ctx.store.chunks(kb);
      if (!table) return { kb, lexical: undefined, lexDepth: 0, vector: [] as ChunkRef[], hasVectors: false };
      const snap = await table.snapshot();
      snapshots.set(kb.kb_id, snap);
      const { embedder, why } = await queryEmbedder(ctx, kb, mode, targets.length === 1);
      if (why) whys.push(why);
      // Candidates come from the index's own ranking; where they are ranked under other statistics (several KBs,
      // unindexed rows) they are read until no row left behind can reach the ranking's exact head (lexical-depth.ts),
      // or, where LanceDB's scores give no bound, to twice the depth. One KB's first read goes half past the head: the
      // rows beyond it are what bounds the rest (read no deeper than the head, its last row is the lowest fetched and
      // the bound never holds: hybrid's 100 rows were read again 400 deep by every search of a KB with rows waiting
      // for upkeep, 40 + 45 ms at 1M chunks). Read 2× the head first, hybrid with one note waiting took p50 / p99
      // 77.3 / 145.6 ms at 1M chunks, 1.5× 64.2 / 115.3 (no list read deeper in 200 claims, the same hits), 1.25×
      // 62.6 / 120.6 (6 read deeper). Several KBs share the head, so each one's list read that deep goes past its
      // share (two SciFact halves, hybrid p50: 12-14 ms read 100 deep first, 16-17 ms read 200 deep).
      const resorted = targets.length > 1 || table.needsUpkeep;
      const pastHead = targets.length === 1 ? Math.ceil(exactHead * 1.5) : exactHead;
      const lexDepth = !resorted ? depth : snap.lexicalBounded ? Math.min(depth * 2, Math.max(pastHead, MIN_LEXICAL_DEPTH)) : depth * 2;
      const scoredDepth = targets.length === 1 ? (mode === 'fts' ? Math.min(depth, head + 1) : depth) : undefined;
      // A vector search is each KB's nearest `head` rows (with their columns when asked): distances are exact
      // (ann-params.ts refine step), so the best `head` of several KBs are among theirs.
      const vectorHits = mode === 'vector';
      // Hybrid over a large table: no list reads its hits' columns (CoreOptions.hybridListColumnsMaxRows). Its lists
      // know rows by row id alone (lean): the vector lists read row ids and scores, the full-text list too where it is
      // LanceDB's ranking as it is (one KB scored exactly), else its candidates' terms and lengths without their keys
      // (lexical-queries.ts LEAN_CANDIDATE_COLUMNS; rows the index does not cover yet keep theirs). Fusion knows a row
      // by its row id in every list (fusionKey), the hits are read by row id after fusion. A 100-deep vector list with
      // its refs' columns took 4.7 against 3.6 ms at 4.8k rows (LanceDB alone), 16 against 4.6 ms at 1M.
      const large = mode === 'hybrid' && (await snap.rows()) > ctx.options.hybridListColumnsMaxRows;
      const lean = large && withRows;
      const readLexical = (d: number) =>
        snap.lexicalPart(terms, d, where, withRows && !large, scoredDepth, { lean, fused: mode === 'hybrid' });
      const [lexical, vector] = await Promise.all([
        mode === 'vector' ? undefined : readLexical(lexDepth),
        embedder
          ? vectorRefs(
              embedder,
              snap,
              table.dim,
              query,
              vectorHits ? Math.min(depth, head) : depth,
              vectorHits && withRows,
              where,
              mode,
              fusionList,
              queryVectors,
              whys,
              lean,
            )
          : Promise.resolve(undefined),
      ]);
      // Upkeep keeps pace with writes while the KB is searched; a table left with unindexed rows (a crash, an older
      // version) gets its upkeep.
      if (ctx.store.registry.find(kb.kb_id)?.chunk_table === kb.chunk_table) noteSearch(ctx, kb.kb_id, table.needsUpkeep);
      return { kb, lexical, lexDepth, resorted, readLexical, vector: vector ?? [], hasVectors: vector !== undefined };
    }),
  );
  const lexical = mode === 'vector' ? [] : await rankLexicalExact(per, depth, exactHead, ctx.options.maxLexicalDepth);
  // Vector rankings merged per model (cosine similarities of one model are comparable across KBs).
  const groups = new Map<string, KbRef[]>();
  for (const p of per) {
    if (!p.hasVectors) continue;
    const key = `${p.kb.embedding_model}\u0000${p.kb.embedding_dim ?? 0}`;
    const list = groups.get(key) ?? [];
    // Object.assign, not { ...r, kb }: a key added after a spread gives each object a hidden class of its own on
    // Node 20.
    for (const r of p.vector) list.push(Object.assign({}, r, { kb: p.kb }));
    groups.set(key, list);
  }
  const vectorLists = [...groups.values()].map((l) => l.sort((a, b) => b.score - a.score).slice(0, depth));
  const degraded = whys.length ? [...new Set(whys)].join('; ') : undefined;
  const out = (refs: KbRef[]): MultiRanking => ({ refs, snapshots, ...(degraded ? { degraded } : {}) });
  if (mode === 'fts') return out(lexical);
  if (mode === 'vector') return out(vectorLists.flat().sort((a, b) => b.score - a.score));
  if (vectorLists.length === 0) return out(lexical);
  const lists: Array<Array<Ranked<KbRef>>> = [lexical, ...vectorLists].map((l) =>
    l.map((r) => ({ key: fusionKey(r), score: r.score, item: r })),
  );
  return out(fuse(lists, fusion).map((f) => ({ ...f.item, score: f.score })));
}

/**
 * What fusion knows a row by: its KB and row id, which every list read from the KB's snapshot carries (the full-text
 * candidates, indexed or not, and the vector neighbours: lean ones carry nothing else), else its chunk id.
 */
const fusionKey = (r: KbRef): string => (r.rowid === undefined ? refKey(r) : `${r.kb.kb_id}\u0000\u0001${r.rowid}`);

/** The nearest chunks of one table to the query's vector (embedded once per model per search). */
async function vectorRefs(
  embedder: Embedder,
  snap: TableSnapshot,
  dim: number,
  query: string,
  depth: number,
  withRows: boolean,
  where: string | undefined,
  mode: SearchMode,
  fusionList: FusionList | undefined,
  cache: Map<string, Promise<Float32Array>>,
  whys: string[],
  lean: boolean,
): Promise<ChunkRef[] | undefined> {
  let pending = cache.get(embedder.model);
  if (!pending) cache.set(embedder.model, (pending = embedder.embedQueries([query]).then(([v]) => v!)));
  try {
    const v = await pending;
    return dim === v.length
      ? await snap.vectorRank(v, depth, where, { withRows, lean, ...(fusionList ? { fusion: fusionList } : {}) })
      : [];
  } catch (err) {
    // A remote embedder that fails now (endpoint down, circuit open): hybrid still answers from full-text.
    if (mode !== 'hybrid' || !(err instanceof RagError) || err.code !== 'model_unavailable') throw err;
    whys.push(`${err.message}: answered from full-text only`);
    return undefined;
  }
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
  const r = await rankKbs(ctx, [{ kb, where }], query, analyzed, mode, depth, fusion);
  return { refs: r.refs.map(({ kb: _kb, ...ref }) => ref), ...(r.degraded ? { degraded: r.degraded } : {}) };
}

/** The text of the best `count` ranked chunks, as hits (each KB's rows fetched from the table its snapshot names). */
async function hydrateHits(snapshots: Map<string, TableSnapshot>, refs: KbRef[]): Promise<Hit[]> {
  const byKb = new Map<string, KbRef[]>();
  for (const r of refs) byKb.set(r.kb.kb_id, [...(byKb.get(r.kb.kb_id) ?? []), r]);
  // By ref: a ref of a lean list is known by its row id until its row is read (store/chunk-rows.ts leanRef).
  const found = new Map<KbRef, Hit>();
  await Promise.all(
    [...byKb.values()].map(async (list) => {
      const kb = list[0]!.kb;
      const snap = snapshots.get(kb.kb_id);
      if (!snap) return;
      const chunks = await snap.hydrateEach(list);
      chunks.forEach((c, i) => c && found.set(list[i]!, toHit(kb, c, c.score)));
    }),
  );
  return refs.flatMap((r) => {
    const hit = found.get(r);
    return hit ? [hit] : [];
  });
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
  // Only what can reach the answer is fetched: top_k, or the rerank pool when a reranker is ready to score it.
  const rerank = input.use_rerank ? await readyReranker(ctx) : {};
  const count = rerank.reranker ? Math.max(input.top_k * 4, 20) : input.top_k;
  const analyzed = analyzeForIndex(input.query);
  const ranking = await rankKbs(
    ctx,
    searchable.map((kb) => ({ kb, where: wheres.get(kb.kb_id) })),
    input.query,
    analyzed,
    input.mode,
    depth,
    options.fusion ?? 'adaptive',
    depth <= 200,
    count,
  );
  let hits = await hydrateHits(ranking.snapshots, ranking.refs.slice(0, count));
  const degraded = ranking.degraded ? [ranking.degraded] : [];
  let reranked = false;
  if (hits.length > 0 && rerank.reranker) {
    const r = await rerankHits(rerank.reranker, input.query, hits);
    if (r.hits) {
      hits = r.hits;
      reranked = true;
    } else if (r.why) degraded.push(r.why);
  } else if (hits.length > 0 && rerank.why) degraded.push(rerank.why);
  return {
    mode: input.mode,
    reranked,
    ...(degraded.length ? { degraded: degraded.join('; ') } : {}),
    hits: hits.slice(0, input.top_k),
  };
}
