import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChunkingOverride, Kb, SearchMode } from '../../shared/contract/index.js';
import { Core } from '../core.js';
import type { ModelManager } from '../embed/types.js';
import { rankKb } from '../search/search-service.js';
import type { CoreContext } from '../services/context.js';
import { maintainIndexes } from '../services/indexing.js';
import type { FusionMethod } from '../search/fusion.js';
import { analyzeForIndex } from '../text/analyzer.js';
import { loadBeir } from './beir.js';
import { mrrAt, ndcgAt, recallAt } from './metrics.js';

export interface EvalOptions {
  dataset: string;
  model: string;
  modes: SearchMode[];
  fusion?: FusionMethod;
  chunking?: ChunkingOverride;
  allowDownload?: boolean;
  models?: ModelManager;
  onProgress?: (stage: string, done: number, total: number) => void;
}

export interface EvalReport {
  dataset: string;
  mode: SearchMode;
  queries: number;
  ndcg_at_10: number;
  recall_at_100: number;
  mrr_at_10: number;
  fusion?: FusionMethod;
  model: string;
  degraded?: string;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** A judged query: relevant doc_ids with their gains (1 for plain relevance). */
export interface JudgedQuery {
  query: string;
  relevant: Map<string, number>;
}

/** Score each mode on judged queries against one KB as it is: nDCG@10, Recall@100, MRR@10 over doc_ids. */
export async function scoreModes(
  ctx: CoreContext,
  kb: Kb,
  queries: JudgedQuery[],
  options: {
    dataset: string;
    model: string;
    modes: SearchMode[];
    fusion?: FusionMethod;
    onProgress?: (stage: string, done: number, total: number) => void;
  },
): Promise<EvalReport[]> {
  const reports: EvalReport[] = [];
  for (const mode of options.modes) {
    let ndcg = 0;
    let recall = 0;
    let mrr = 0;
    let n = 0;
    let degraded: string | undefined;
    for (const { query, relevant: rel } of queries) {
      const out = await rankKb(ctx, kb, query, analyzeForIndex(query), mode, undefined, 100, options.fusion ?? 'adaptive');
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
      ...(degraded ? { degraded } : {}),
    });
  }
  return reports;
}

/**
 * Index a BEIR dataset into a throw-away KB (temp data dir) through the real ingestion path, then score
 * each mode on the test queries. Documents are stored whole by default (BEIR judges documents).
 */
export async function runEval(options: EvalOptions): Promise<EvalReport[]> {
  const ds = await loadBeir(options.dataset);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-eval-'));
  const core = await Core.open({
    dataDir,
    allowDownload: options.allowDownload ?? false,
    waitForModels: true,
    ...(options.models ? { models: options.models } : {}),
  });
  try {
    await core.client.createKb({ kb_id: 'eval', embedding_model: options.model, chunking: options.chunking ?? { strategy: 'whole' } });
    const batch = 500;
    for (let i = 0; i < ds.corpus.length; i += batch) {
      const docs = ds.corpus.slice(i, i + batch).map((d) => ({
        doc_id: String(d._id),
        title: d.title ?? '',
        content: d.text || d.title || '-',
        ...(options.chunking ? { chunking: options.chunking } : {}),
      }));
      await core.client.addDocumentsBatch({ kb_id: 'eval', documents: docs });
      options.onProgress?.('index', Math.min(i + batch, ds.corpus.length), ds.corpus.length);
    }
    await core.ctx.store.writes.idle();
    await maintainIndexes(core.ctx, 'eval', true);
    const kb = core.ctx.store.registry.get('eval');
    const queries = [...ds.qrels].map(([qid, relevant]) => ({ query: ds.queries.get(qid)!, relevant }));
    return await scoreModes(core.ctx, kb, queries, { ...options, dataset: ds.name });
  } finally {
    await core.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
