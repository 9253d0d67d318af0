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
  /** How deep each ranking is read and fused (default 100; Recall@100 then counts at most that many). */
  candidates?: number;
  chunking?: ChunkingOverride;
  allowDownload?: boolean;
  models?: ModelManager;
  onProgress?: (stage: string, done: number, total: number) => void;
  /**
   * Split the collection over this many KBs by alternating doc ids (document i goes to KB i mod n) and search
   * them together, as search_all_accessible_kbs does (default 1: one KB). `ragdesk eval --split-kbs 2`.
   */
  splitKbs?: number;
  /**
   * How documents are written (default: addDocumentsBatch, 500 per call, then index upkeep). The bench passes
   * one add_document call per document and leaves the index as the writes left it (read-your-writes).
   */
  ingest?: (core: Core, kbId: string, docs: EvalDoc[]) => Promise<void>;
  /** Called after scoring, before the throw-away data dir goes (the bench measures write costs there). */
  after?: (core: Core, kbIds: string[]) => Promise<void>;
}

/** One corpus document as the evaluation writes it. */
export interface EvalDoc {
  doc_id: string;
  title: string;
  content: string;
  chunking?: ChunkingOverride;
}

export interface EvalReport {
  dataset: string;
  mode: SearchMode;
  queries: number;
  ndcg_at_10: number;
  recall_at_100: number;
  mrr_at_10: number;
  fusion?: FusionMethod;
  /** The depth each ranking was read to, when not the default 100. */
  candidates?: number;
  model: string;
  /** KBs the collection was split over (absent: one). */
  kbs?: number;
  degraded?: string;
}

export { scoreModes } from './score.js';
export type { JudgedQuery } from './score.js';

/** The default ingestion: batches of 500 through the contract, then the indexes brought up to date. */
async function inBatches(core: Core, kbId: string, docs: EvalDoc[]): Promise<void> {
  for (let i = 0; i < docs.length; i += 500) await core.client.addDocumentsBatch({ kb_id: kbId, documents: docs.slice(i, i + 500) });
  await core.ctx.store.writes.idle();
  await maintainIndexes(core.ctx, kbId, true);
}

/**
 * Index a BEIR dataset into a throw-away KB (temp data dir), or several (`splitKbs`), through the real
 * ingestion path, then score each mode on the test queries. Documents are stored whole by default (BEIR judges
 * documents).
 */
export async function runEval(options: EvalOptions): Promise<EvalReport[]> {
  const ds = await loadBeir(options.dataset);
  const split = Math.max(1, Math.floor(options.splitKbs ?? 1));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-eval-'));
  const core = await Core.open({
    dataDir,
    allowDownload: options.allowDownload ?? false,
    waitForModels: true,
    ...(options.models ? { models: options.models } : {}),
  });
  try {
    const ids = split === 1 ? ['eval'] : Array.from({ length: split }, (_, k) => `eval-${k + 1}`);
    const parts: EvalDoc[][] = ids.map(() => []);
    ds.corpus.forEach((d, i) =>
      parts[i % split]!.push({
        doc_id: String(d._id),
        title: d.title ?? '',
        content: d.text || d.title || '-',
        ...(options.chunking ? { chunking: options.chunking } : {}),
      }),
    );
    const ingest = options.ingest ?? inBatches;
    let done = 0;
    for (const [k, kbId] of ids.entries()) {
      await core.client.createKb({ kb_id: kbId, embedding_model: options.model, chunking: options.chunking ?? { strategy: 'whole' } });
      await ingest(core, kbId, parts[k]!);
      options.onProgress?.('index', (done += parts[k]!.length), ds.corpus.length);
    }
    const kbs = ids.map((id) => core.ctx.store.registry.get(id));
    const queries = [...ds.qrels].map(([qid, relevant]) => ({ query: ds.queries.get(qid)!, relevant }));
    const dataset = split === 1 ? ds.name : `${ds.name} (${split} KBs)`;
    const reports = await scoreModes(core.ctx, kbs, queries, { ...options, dataset });
    await options.after?.(core, ids);
    return split === 1 ? reports : reports.map((r) => ({ ...r, kbs: split }));
  } finally {
    await core.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
