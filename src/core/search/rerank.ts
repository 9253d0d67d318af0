import type { Hit } from '../../shared/contract/index.js';
import type { Reranker } from '../embed/types.js';
import type { CoreContext } from '../services/context.js';

/**
 * The cross-encoder a search may rerank with, decided before its hits are read: a search whose reranker is not
 * ready reads only its top_k hits, not the rerank pool. Never waits for a download or a cold load: when the
 * reranker is not ready, a background load starts and the search answers as ranked, saying why.
 */
export async function readyReranker(ctx: CoreContext): Promise<{ reranker?: Reranker; why?: string }> {
  const model = ctx.options.rerankModel;
  let reranker = ctx.models.peekReranker(model);
  if (!reranker && ctx.options.waitForModels) {
    reranker = await ctx.models.getReranker(model, { allowDownload: ctx.options.allowDownload }).catch(() => undefined);
  }
  if (reranker) return { reranker };
  const status = ctx.models.status().find((s) => s.kind === 'rerank');
  const state = !status || status.state === 'loading' ? 'not loaded yet (loading in the background)' : status.state;
  return { why: `not reranked: the reranker is ${state}${status?.error ? ` (${status.error})` : ''}` };
}

/** Re-order hits by the cross-encoder's scores; on a failure, says why and leaves them as they were. */
export async function rerankHits(reranker: Reranker, query: string, hits: Hit[]): Promise<{ hits?: Hit[]; why?: string }> {
  try {
    const scores = await reranker.score(
      query,
      hits.map((h) => (h.title ? `${h.title}\n${h.text}` : h.text)),
    );
    return { hits: hits.map((h, i) => ({ ...h, score: scores[i] ?? h.score })).sort((a, b) => b.score - a.score) };
  } catch (err) {
    return { why: `not reranked: ${err instanceof Error ? err.message : String(err)}` };
  }
}
