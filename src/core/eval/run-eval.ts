import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChunkingOverride, SearchMode } from '../../shared/contract/index.js';
import { Core } from '../core.js';
import type { ModelManager } from '../embed/types.js';
import { maintainIndexes } from '../services/indexing.js';
import type { FusionMethod } from '../search/fusion.js';
import { loadBeir } from './beir.js';
import { scoreModes } from './score.js';

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

export { scoreModes } from './score.js';
export type { JudgedQuery } from './score.js';

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
