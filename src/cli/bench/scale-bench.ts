import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Core } from '../../core/core.js';
import { buildFixtureModel } from '../../core/embed/fixture-model.js';
import { ANN_MIN_ROWS } from '../../core/services/indexing.js';
import { plainChunkRow } from '../../core/store/chunk-rows.js';
import type { ChunkRow } from '../../core/store/chunk-table.js';
import { analyzeForIndex } from '../../core/text/analyzer.js';
import { filesUnder } from './page-cache.js';
import { peakRssMb } from './rss-cap.js';
import { agentPhase, type AgentJob, type AgentReport } from './scale-agent.js';
import { queryPhase, type QueryJob } from './scale-queries.js';
import { ChunkTextGenerator, ragDataCorpus, scifactCorpus, type TextCorpus } from './scale-text.js';
import { round } from './stats.js';

/**
 * `ragdesk bench --only scale --scale N`: an N-chunk KB of realistic text (scale-text.ts) embedded with the real
 * model through ragdesk's embedder and written through the chunk table's write path in bounded batches, then
 * its indexes built with the product's policy, then searched through the core search by a fresh process (so
 * the query phase's peak RSS is its own, not the ingest's), beside the raw LanceDB calls on the same table.
 * With ../shared (SciFact + potion-base-4M) the figures are the real ones; without it (CI) the text comes from
 * rag_data/ and vectors from the fixture model, which measures the same code paths and memory, not quality.
 */

export const SCALE_TARGETS = {
  hybrid_p50_ms: 30,
  hybrid_p99_ms: 100,
  recall_at_10: 0.95,
  query_peak_rss_mb: 1024,
};
const BATCH = 4096;
const QUERY_ENV = 'RAGDESK_SCALE_QUERY_PHASE';
const KB = 'scale';
const TOP_K = 10;
/** `--agent-seconds`: how often the agent writes. */
const AGENT_WRITE_EVERY_MS = 30_000;

/** The agent phase's job (scale-agent.ts), told apart from the query phase's by `agent`. */
type AgentPhaseJob = AgentJob & { out: string; agent: true };

export interface ScaleReport {
  corpus: string;
  model: string;
  chunks: number;
  dim: number;
  ingest: Record<string, number>;
  index: Record<string, number | string>;
  disk_mb: number;
  queries: Record<string, unknown>;
  rows: Array<Record<string, unknown>>;
  peak_rss: { ingest_mb: number; queries_mb: number; target_queries_mb: number; query_phase_trace: Record<string, number> };
  /** `--agent-seconds`: an agent's single writes while searches go on (scale-agent.ts). */
  agent?: AgentReport;
}

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};

async function source(root: string, workDir: string): Promise<{ corpus: TextCorpus; model: string; modelName: string }> {
  const shared = process.env.RAGDESK_SHARED ?? path.resolve(root, '..', 'shared');
  const potion = path.join(shared, 'models', 'potion-base-4M-int8');
  const scifact = path.join(shared, 'datasets', 'scifact');
  if (fs.existsSync(potion) && fs.existsSync(scifact))
    return { corpus: scifactCorpus(scifact), model: potion, modelName: 'potion-base-4M-int8' };
  const fixture = await buildFixtureModel(path.join(workDir, 'scale-model'), { dim: 128 });
  return { corpus: ragDataCorpus(path.join(root, 'rag_data')), model: fixture.dir, modelName: 'fixture (tests’ ONNX model, 128-d)' };
}

/** Run a phase (the queries, the agent's writes) in a fresh process: this same command, told the job by QUERY_ENV. */
async function runPhase<T>(job: object, out: string): Promise<T> {
  const jobFile = `${out}.job.json`;
  fs.writeFileSync(jobFile, JSON.stringify(job));
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      env: { ...process.env, [QUERY_ENV]: jobFile },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0 || !fs.existsSync(out)) throw new Error(`scale bench: a phase in a fresh process exited with ${code}`);
  return JSON.parse(fs.readFileSync(out, 'utf8')) as T;
}

const runQueryPhase = (job: QueryJob) => runPhase<Record<string, unknown>>(job, job.out);

export async function benchScale(
  root: string,
  workDir: string,
  options: { chunks: number; log: (s: string) => void; agentSeconds?: number },
): Promise<ScaleReport | undefined> {
  const child = process.env[QUERY_ENV];
  if (child) {
    const job = JSON.parse(fs.readFileSync(child, 'utf8')) as QueryJob | AgentPhaseJob;
    if ('agent' in job) fs.writeFileSync(job.out, JSON.stringify(await agentPhase(job)));
    else await queryPhase(job);
    return undefined;
  }
  const { log } = options;
  const n = options.chunks;
  if (!Number.isInteger(n) || n < 1000) throw new Error(`--scale must be a whole number of chunks ≥ 1000, not ${n}`);
  const agentSeconds = options.agentSeconds ?? 0;
  if (!Number.isFinite(agentSeconds) || agentSeconds < 0)
    throw new Error(`--agent-seconds must be a number of seconds ≥ 0, not ${agentSeconds}`);
  const { corpus, model, modelName } = await source(root, workDir);
  // RAGDESK_SCALE_DATA=<dir>: build the KB there and keep it; a later run with the same size, corpus and model
  // reuses it (its ingest and index figures are the ones recorded when it was built) to iterate on query settings.
  const keep = process.env.RAGDESK_SCALE_DATA?.trim();
  const dataDir = keep ? path.resolve(keep) : path.join(workDir, 'scale-data');
  const builtFile = path.join(dataDir, 'scale-built.json');
  const built = keep && fs.existsSync(builtFile) ? (JSON.parse(fs.readFileSync(builtFile, 'utf8')) as BuiltKb) : undefined;
  const reuse = built?.chunks === n && built.corpus === corpus.name && built.model === modelName;
  if (keep && !reuse) fs.rmSync(dataDir, { recursive: true, force: true });
  if (reuse) log(`  scale: reusing the ${n}-chunk KB built in ${dataDir} (ingest and index figures from that build)`);
  const kb = reuse ? built : await buildKb(corpus, model, modelName, n, dataDir, log);
  if (keep && !reuse) fs.writeFileSync(builtFile, JSON.stringify(kb));
  const { dim, ingest, index } = kb;
  const ingestPeak = kb.ingest_peak_mb;
  const diskMb = round(filesUnder(dataDir).reduce((n, f) => n + f.bytes, 0) / 1e6, 0);
  log('  scale: query phase in a fresh process…');
  const q = await runQueryPhase({
    dataDir,
    model,
    queries: corpus.queries.slice(0, 220),
    recallQueries: 100,
    kb: KB,
    topK: TOP_K,
    out: path.join(workDir, 'scale-queries.json'),
  });
  let agent: AgentReport | undefined;
  if (agentSeconds > 0) {
    log(`  scale: an agent writes a document every 30 s for ${agentSeconds} s while searches go on, in a fresh process…`);
    const out = path.join(workDir, 'scale-agent.json');
    const job: AgentPhaseJob = {
      dataDir,
      kb: KB,
      queries: corpus.queries.slice(0, 400),
      seconds: agentSeconds,
      writeEveryMs: AGENT_WRITE_EVERY_MS,
      out,
      agent: true,
    };
    agent = await runPhase(job, out);
  }
  const lat = q.latency as Record<string, { p50: number; p99: number; cpu_ms: number }>;
  const raw = q.raw as Record<string, { p50: number; p99: number }>;
  const row = (mode: string, rawP50?: number) => ({
    mode,
    p50_ms: lat[mode]!.p50,
    p99_ms: lat[mode]!.p99,
    cpu_ms_per_query: lat[mode]!.cpu_ms,
    raw_p50_ms: rawP50 ?? '',
    ratio_p50: rawP50 ? round(lat[mode]!.p50 / rawP50, 2) : '',
    target: mode === 'hybrid' ? `p50 ≤ ${SCALE_TARGETS.hybrid_p50_ms}, p99 ≤ ${SCALE_TARGETS.hybrid_p99_ms}` : '',
  });
  return {
    corpus: corpus.name,
    model: modelName,
    chunks: n,
    dim,
    ingest,
    index,
    disk_mb: diskMb,
    queries: {
      count: q.count,
      query_embed_p50_ms: q.embed_p50,
      recall_at_10: q.recall,
      recall_target: SCALE_TARGETS.recall_at_10,
      recall_queries: q.recall_count,
      exact_p50_ms: q.exact_p50,
      ann_query: q.ann_query,
      // The KB's files the OS held in memory when the query phase began: its first searches read the rest from disk.
      ...(q.page_cache ? { page_cache_at_start: q.page_cache } : {}),
    },
    // Each raw figure from the same loop as the core search it is set against, query by query (scale-queries.ts):
    // hybrid's is both calls of a query one after the other, plus the query's embedding.
    rows: [row('fts', raw.fts!.p50), row('vector', raw.vector!.p50), row('hybrid', round(raw.hybrid!.p50 + Number(q.embed_p50), 2))],
    peak_rss: {
      ingest_mb: ingestPeak,
      // The searches' peak (core and raw calls); the exact scans of the recall measurement come after it.
      queries_mb: Number((q.rss_trace as Record<string, number>).after_raw),
      target_queries_mb: SCALE_TARGETS.query_peak_rss_mb,
      query_phase_trace: q.rss_trace as Record<string, number>,
    },
    ...(agent ? { agent } : {}),
  };
}

/** What building the KB measured (kept beside a KB built in RAGDESK_SCALE_DATA, for later runs that reuse it). */
type BuiltKb = Pick<ScaleReport, 'corpus' | 'model' | 'chunks' | 'dim' | 'ingest' | 'index'> & { ingest_peak_mb: number };

/** Ingest `n` chunks into a fresh KB in `dataDir` and build its indexes by the product's policy. */
async function buildKb(
  corpus: TextCorpus,
  model: string,
  modelName: string,
  n: number,
  dataDir: string,
  log: (s: string) => void,
): Promise<BuiltKb> {
  const core = await Core.open({ dataDir, allowDownload: false });
  let dim = 0;
  const ingest: Record<string, number> = {};
  const index: Record<string, number | string> = {};
  try {
    const embedder = await core.ctx.models.getEmbedder(model, { allowDownload: false });
    dim = embedder.dim;
    await core.client.createKb({ kb_id: KB, embedding_model: model });
    const table = await core.ctx.store.createChunks(core.ctx.store.registry.get(KB), dim);
    const gen = new ChunkTextGenerator(corpus, 1);
    const batchAt = (from: number) => Array.from({ length: Math.min(BATCH, n - from) }, (_, j) => ({ i: from + j, ...gen.next(from + j) }));
    const now = new Date().toISOString();
    let bytes = 0;
    let embedMs = 0;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    // Two batches in flight at most: the worker embeds the next batch while this thread analyses and writes.
    let texts = batchAt(0);
    let embedStart = performance.now();
    let vectors = embedder.embedPassages(texts.map((t) => t.text));
    let lastLog = 0;
    for (let from = 0; from < n; from += BATCH) {
      const current = texts;
      const vecs = await vectors;
      embedMs += performance.now() - embedStart;
      if (from + BATCH < n) {
        texts = batchAt(from + BATCH);
        embedStart = performance.now();
        vectors = embedder.embedPassages(texts.map((t) => t.text));
      }
      const rows: ChunkRow[] = current.map((c, j) => {
        bytes += Buffer.byteLength(c.text);
        return plainChunkRow(
          {
            chunk_id: `c${c.i}`,
            doc_id: c.doc_id,
            version: 'v1',
            chunk_index: c.i % 8,
            text: c.text,
            fts: analyzeForIndex(c.text),
            vector: vecs[j]!,
            title: c.title,
            source: `scale/${c.doc_id}.txt`,
          },
          now,
        );
      });
      await table.add(rows);
      const done = from + current.length;
      if (done - lastLog >= 50_000 || done === n) {
        lastLog = done;
        const s = (performance.now() - t0) / 1000;
        log(`  scale: ${done} / ${n} chunks written, ${round(done / s, 0)} chunks/s, peak RSS ${peakRssMb()} MB`);
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    Object.assign(ingest, {
      seconds: round(seconds, 1),
      cpu_s: round(cpuSeconds(cpu0), 1),
      chunks_per_s: round(n / seconds, 0),
      mb: round(bytes / 1e6, 1),
      mb_per_s: round(bytes / 1e6 / seconds, 2),
      embed_wait_s: round(embedMs / 1000, 1),
      batch: BATCH,
    });
    log('  scale: building the full-text index…');
    let t = performance.now();
    let c = process.cpuUsage();
    await table.ensureFtsIndex();
    index.fts_s = round((performance.now() - t) / 1000, 1);
    index.fts_cpu_s = round(cpuSeconds(c), 1);
    // The product's policy (services/indexing.ts): an ANN index past ANN_MIN_ROWS vectors.
    if (n >= ANN_MIN_ROWS) {
      log('  scale: building the ANN index…');
      t = performance.now();
      c = process.cpuUsage();
      await table.buildVectorIndex(n);
      index.ann_s = round((performance.now() - t) / 1000, 1);
      index.ann_cpu_s = round(cpuSeconds(c), 1);
      index.ann = `${table.vectorIndexKind} cosine`;
    } else index.ann = `none (exact search below ${ANN_MIN_ROWS} rows)`;
  } finally {
    await core.close();
  }
  return { corpus: corpus.name, model: modelName, chunks: n, dim, ingest, index, ingest_peak_mb: peakRssMb() };
}
