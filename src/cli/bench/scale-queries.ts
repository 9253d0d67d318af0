import type { Table } from '@lancedb/lancedb';
import fs from 'node:fs';
import path from 'node:path';
import { Core } from '../../core/core.js';
import { search } from '../../core/search/search-service.js';
import { annPartitions, annQuery, vectorDistance, withAnnQuery } from '../../core/store/ann-params.js';
import { physicalChunkTable } from '../../core/store/chunk-rows.js';
import { analyzeForIndex } from '../../core/text/analyzer.js';
import type { SearchMode } from '../../shared/contract/index.js';
import { pageCacheMb } from './page-cache.js';
import { peakRssMb } from './rss-cap.js';
import { percentile, round } from './stats.js';

/** The scale bench's query phase (scale-bench.ts runs it in a fresh process). */
export interface QueryJob {
  dataDir: string;
  kb: string;
  model: string;
  queries: string[];
  recallQueries: number;
  topK: number;
  out: string;
}

const WARMUP = 20;

const cpuMs = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

/**
 * Core search per mode against the raw LanceDB calls on the same table, query by query and in turns (the core
 * search first for one query, the raw call first for the next), so both meet the same state of LanceDB's caches
 * and the OS page cache: a 1M-chunk table's pages are read from disk by whichever call comes first (the raw calls
 * used to follow all of the core searches, on pages those had read). Then ANN recall@10 against exact search, and
 * peak RSS after each step.
 */
export async function queryPhase(job: QueryJob): Promise<void> {
  const out: Record<string, unknown> = { count: job.queries.length - WARMUP };
  // What of the KB's files the OS held in memory when the phase began (fincore; absent where it is missing).
  const cached = pageCacheMb(path.join(job.dataDir, 'lance'));
  if (cached) out.page_cache = cached;
  const core = await Core.open({ dataDir: job.dataDir, allowDownload: false });
  // Peak RSS after each step (MB): what the product's searches hold vs the bench's own raw and exact calls.
  const trace: Record<string, number> = {};
  out.rss_trace = trace;
  try {
    const ctx = core.ctx;
    const kb = ctx.store.registry.get(job.kb);
    const embedder = await ctx.models.getEmbedder(job.model, { allowDownload: false });
    const table = (await ctx.store.chunks(job.kb))!;
    // The raw calls go through the store's own connection: same process, same LanceDB caches (a second
    // connection would hold a second copy of every index it reads, and count in the peak RSS).
    const rawTable = await ctx.store.db.openTable(physicalChunkTable(kb));
    const vectors = await embedder.embedQueries(job.queries);
    trace.opened = peakRssMb();
    const embedMs: number[] = [];
    for (const q of job.queries.slice(0, 40)) {
      const t = performance.now();
      await embedder.embedQueries([q]);
      embedMs.push(performance.now() - t);
    }
    out.embed_p50 = round(percentile(embedMs.slice(10), 50));
    const rawRows = await rawTable.countRows();
    const p = annQuery(job.topK, rawRows, undefined, table.vectorIndexKind);
    const raw = {
      fts: (analyzed: string) => rawFts(rawTable, analyzed, job.topK),
      vector: (i: number) => rawVector(rawTable, vectors[i]!, job.topK, table.vectorIndexReady ? p : undefined),
    };
    const latency: Record<string, { p50: number; p99: number; cpu_ms: number }> = {};
    const rawLatency: Record<string, { p50: number; p99: number }> = {};
    for (const mode of ['fts', 'vector', 'hybrid'] as SearchMode[]) {
      const coreMs: number[] = [];
      const rawMs: number[] = [];
      let cpu = 0;
      for (const [i, query] of job.queries.entries()) {
        const coreCall = async () => {
          const c = process.cpuUsage();
          const t = performance.now();
          await search(ctx, { query, kb_ids: [job.kb], mode, top_k: job.topK, use_rerank: false });
          if (i < WARMUP) return;
          coreMs.push(performance.now() - t);
          cpu += cpuMs(c);
        };
        // Hybrid's raw cost: both calls one after the other (and the query's embedding, added to the report's row).
        const rawCall = async () => {
          const analyzed = analyzeForIndex(query);
          const t = performance.now();
          if (mode !== 'vector') await raw.fts(analyzed);
          if (mode !== 'fts') await raw.vector(i);
          if (i >= WARMUP) rawMs.push(performance.now() - t);
        };
        if (i % 2 === 0) {
          await coreCall();
          await rawCall();
        } else {
          await rawCall();
          await coreCall();
        }
      }
      latency[mode] = { p50: round(percentile(coreMs, 50)), p99: round(percentile(coreMs, 99)), cpu_ms: round(cpu / coreMs.length) };
      rawLatency[mode] = { p50: round(percentile(rawMs, 50)), p99: round(percentile(rawMs, 99)) };
      trace[`after_${mode}`] = peakRssMb();
    }
    out.latency = latency;
    trace.after_raw = peakRssMb();
    out.raw = rawLatency;
    let recall = 0;
    const exactMs: number[] = [];
    const rq = vectors.slice(WARMUP, WARMUP + job.recallQueries);
    for (const v of rq) {
      const ann = await table.vectorRank(v, job.topK);
      const t = performance.now();
      const exact = await table.vectorRank(v, job.topK, undefined, { exact: true });
      exactMs.push(performance.now() - t);
      const truth = new Set(exact.map((r) => r.chunk_id));
      recall += ann.filter((r) => truth.has(r.chunk_id)).length / Math.max(1, truth.size);
    }
    trace.after_recall = peakRssMb(); // exact search (the recall's ground truth) reads every vector
    out.recall = round(recall / rq.length, 4);
    out.recall_count = rq.length;
    out.exact_p50 = round(percentile(exactMs, 50));
    out.ann_query = { index: table.vectorIndexKind, partitions: annPartitions(rawRows), ...p };
    rawTable.close();
  } finally {
    await core.close();
  }
  out.peak_rss_mb = peakRssMb();
  fs.writeFileSync(job.out, JSON.stringify(out));
}

/** LanceDB's own full-text query for the analysed text: row keys and scores, top k. */
function rawFts(table: Table, analyzed: string, k: number) {
  return table
    .query()
    .fullTextSearch(analyzed, { columns: ['fts'] })
    .select(['chunk_id', '_score'])
    .limit(k)
    .toArray();
}

/** LanceDB's own vector query with the product's distance and ANN parameters (ann-params.ts) where the index is built. */
function rawVector(table: Table, vector: Float32Array, k: number, p: ReturnType<typeof annQuery> | undefined) {
  const distance = vectorDistance(p !== undefined);
  let q = table.vectorSearch(Array.from(vector)).column('vector').distanceType(distance).select(['chunk_id', '_distance']).limit(k);
  if (p) q = withAnnQuery(q, p);
  return q.toArray();
}
