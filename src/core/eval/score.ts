import type { Kb, SearchMode } from '../../shared/contract/index.js';
import type { FusionMethod } from '../search/fusion.js';
import { rankKbs } from '../search/search-service.js';
import type { CoreContext } from '../services/context.js';
import { analyzeForIndex } from '../text/analyzer.js';
import { mrrAt, ndcgAt, recallAt } from './metrics.js';
import type { EvalReport } from './run-eval.js';

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** The depth every ranking is read to unless told otherwise (Recall@100 needs 100). */
export const DEFAULT_EVAL_CANDIDATES = 100;

/** A judged query: relevant doc_ids with their gains (1 for plain relevance). */
export interface JudgedQuery {
  query: string;
  relevant: Map<string, number>;
}

/**
 * Score each mode on judged queries against one KB as it is, or several searched together (one ranking, as
 * search_all_accessible_kbs ranks them): nDCG@10, Recall@100, MRR@10 over doc_ids.
 */
export async function scoreModes(
  ctx: CoreContext,
  kb: Kb | Kb[],
  queries: JudgedQuery[],
  options: {
    dataset: string;
    model: string;
    modes: SearchMode[];
    fusion?: FusionMethod;
    /** How deep each ranking is read (and fused) per query (default 100, what search_kb reads for hybrid). */
    candidates?: number;
    onProgress?: (stage: string, done: number, total: number) => void;
  },
): Promise<EvalReport[]> {
  const reports: EvalReport[] = [];
  const targets = (Array.isArray(kb) ? kb : [kb]).map((k) => ({ kb: k }));
  const depth = options.candidates ?? DEFAULT_EVAL_CANDIDATES;
  for (const mode of options.modes) {
    let ndcg = 0;
    let recall = 0;
    let mrr = 0;
    let n = 0;
    let degraded: string | undefined;
    for (const { query, relevant: rel } of queries) {
      const out = await rankKbs(ctx, targets, query, analyzeForIndex(query), mode, depth, options.fusion ?? 'adaptive');
      degraded ??= out.degraded;
      const ranked: string[] = [];
      for (const h of out.refs) if (!ranked.includes(h.doc_id)) ranked.push(h.doc_id);
      ndcg += ndcgAt(ranked, rel, 10);
      recall += recallAt(ranked, rel, 100);
      mrr += mrrAt(ranked, rel, 10);
      n++;
      if (n % 50 === 0) options.onProgress?.(mode, n, queries.length);
    }
    const avg = (x: number) => (n ? round(x / n) : 0);
    reports.push({
      dataset: options.dataset,
      mode,
      queries: n,
      ndcg_at_10: avg(ndcg),
      recall_at_100: avg(recall),
      mrr_at_10: avg(mrr),
      model: options.model,
      ...(mode === 'hybrid' ? { fusion: options.fusion ?? 'adaptive' } : {}),
      ...(depth !== DEFAULT_EVAL_CANDIDATES ? { candidates: depth } : {}),
      ...(degraded ? { degraded } : {}),
    });
  }
  return reports;
}
