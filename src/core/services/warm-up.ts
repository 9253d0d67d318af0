import { isFullTextOnly } from '../../shared/contract/index.js';
import { search } from '../search/search-service.js';
import { PREWARM_MAX_ROWS } from '../store/lance-session.js';
import { within } from '../util/timeout.js';
import type { CoreContext } from './context.js';
import { scheduleIndexing } from './indexing.js';

/** What the warm-up searches for: words, so that the full-text index is read; what they find does not matter. */
export const WARM_QUERY = 'warm up search index';

/** How long the warm-up waits for a KB's embedding model to load (never for a download). */
const MODEL_WAIT_MS = 30_000;

const warming = new WeakMap<CoreContext, Promise<void>>();

/**
 * Get the search path of every enabled KB ready before the first query, off the request path: open its chunk table
 * and pin a snapshot (its lexical view: which rows the full-text index covers), run a full-text search (LanceDB
 * reads the index), then, once the KB's embedding model has loaded, a hybrid one (the model runs once, LanceDB
 * reads the vector index). One warm-up per engine: whoever asks while it runs gets the same promise, so a search
 * that arrives early waits for it instead of opening the same tables and indexes a second time. It never fails:
 * what goes wrong here (a model that cannot load) is for the KB's own searches to report.
 */
export function warmUpSearch(ctx: CoreContext): Promise<void> {
  let running = warming.get(ctx);
  if (!running) {
    running = warmKbs(ctx);
    warming.set(ctx, running);
  }
  return running;
}

async function prewarm(ctx: CoreContext, kbId: string): Promise<void> {
  const table = await ctx.store.chunks(kbId);
  // A vector index of an older kind is built again in the background (services/indexing.ts, store/ann-params.ts),
  // and a table from before the packed hit column gets it (store/chunk-rows.ts HIT_COLUMN).
  if (table?.upgradeDue) scheduleIndexing(ctx, kbId);
  if (table && (await table.count()) <= PREWARM_MAX_ROWS) await table.prewarmIndexes();
}

async function warmKbs(ctx: CoreContext): Promise<void> {
  const kbs = ctx.store.registry.list().filter((kb) => kb.enabled);
  const query = { query: WARM_QUERY, top_k: 1, use_rerank: false } as const;
  // Full-text first, every KB, while the models load in their worker; then its indexes, whole where small.
  for (const kb of kbs) await search(ctx, { ...query, kb_ids: [kb.kb_id], mode: 'fts' }).catch(() => undefined);
  for (const kb of kbs) await prewarm(ctx, kb.kb_id).catch(() => undefined);
  for (const kb of kbs) {
    if (isFullTextOnly(kb.embedding_model)) continue; // no model; its full-text search was warmed above
    const model = await within(
      ctx.models.getEmbedder(kb.embedding_model, { allowDownload: false }).catch(() => undefined),
      MODEL_WAIT_MS,
    );
    if (model) await search(ctx, { ...query, kb_ids: [kb.kb_id], mode: 'hybrid' }).catch(() => undefined);
  }
}
