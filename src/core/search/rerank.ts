import type { Hit } from '../../shared/contract/index.js';
import type { CoreContext } from '../services/context.js';

/**
 * Re-order hits with the cross-encoder when it is loaded. Never waits for a download or a cold load: when the
 * reranker is not ready, a background load starts and the hits come back as they were, saying why.
 */
export async function rerankHits(ctx: CoreContext, query: string, hits: Hit[]): Promise<{ hits?: Hit[]; why?: string }> {
  const model = ctx.options.rerankModel;
  let reranker = ctx.models.peekReranker(model);
  if (!reranker && ctx.options.waitForModels) {
    reranker = await ctx.models.getReranker(model, { allowDownload: ctx.options.allowDownload }).catch(() => undefined);
  }
  if (!reranker) {
    const status = ctx.models.status().find((s) => s.kind === 'rerank');
    const state = !status || status.state === 'loading' ? 'not loaded yet (loading in the background)' : status.state;
    return { why: `not reranked: the reranker is ${state}${status?.error ? ` (${status.error})` : ''}` };
  }
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
