import fs from 'node:fs';
import path from 'node:path';
import { Core } from '../../core/core.js';
import type { Embedder, ModelManager } from '../../core/embed/types.js';
import { search } from '../../core/search/search-service.js';
import { flushIndexing, maintainIndexes } from '../../core/services/indexing.js';
import { plainChunkRow } from '../../core/store/chunk-rows.js';
import type { ChunkRow } from '../../core/store/chunk-table.js';
import { analyzeForIndex } from '../../core/text/analyzer.js';
import type { SearchMode } from '../../shared/contract/index.js';
import { percentile, prng, round, rssMb } from './stats.js';

const DIM = 384;

function unit(rand: () => number, dim: number): Float32Array {
  const v = new Float32Array(dim);
  let n = 0;
  for (let i = 0; i < dim; i++) {
    v[i] = rand() - 0.5;
    n += v[i]! * v[i]!;
  }
  n = Math.sqrt(n);
  for (let i = 0; i < dim; i++) v[i]! /= n;
  return v;
}

/** Query embedding is excluded from the measurement: the embedder hands out precomputed query vectors. */
function fixedQueryEmbedder(rand: () => number): Embedder {
  return {
    model: 'synthetic',
    resolved: 'synthetic',
    dim: DIM,
    embedQueries: async (texts) => texts.map(() => unit(rand, DIM)),
    embedPassages: async (texts) => texts.map(() => unit(rand, DIM)),
  };
}

function withEmbedder(models: ModelManager, embedder: Embedder): ModelManager {
  return {
    ...models,
    presets: () => models.presets(),
    status: () => models.status(),
    peekEmbedder: () => embedder,
    getEmbedder: async () => embedder,
  };
}

/**
 * Vocabulary for synthetic chunks: the sample KB's English words and compounds of them (~20k distinct terms,
 * like a real corpus), drawn with a Zipf-like skew so that common words are common and queries hit rarer ones.
 */
function vocabulary(root: string): string[] {
  const text = fs
    .readdirSync(path.join(root, 'rag_data'))
    .filter((f) => f.startsWith('en-') && /\.(md|txt)$/.test(f))
    .map((f) => fs.readFileSync(path.join(root, 'rag_data', f), 'utf8'))
    .join(' ');
  const base = [...new Set(text.toLowerCase().match(/[a-z]{3,}/g) ?? [])];
  const out = [...base];
  for (let i = 0; out.length < 20_000; i++) out.push(`${base[i % base.length]}${base[(i * 7 + 3) % base.length]}`);
  return out;
}

export interface LatencyRow {
  chunks: number;
  vector_index: string;
  mode: SearchMode;
  p50_ms: number;
  p95_ms: number;
}

export async function benchSearch(
  root: string,
  workDir: string,
  sizes = [10_000, 100_000],
): Promise<{ latency: LatencyRow[]; rss_mb: number }> {
  const rand = prng(7);
  const words = vocabulary(root);
  const sentence = (n: number) => Array.from({ length: n }, () => words[Math.floor(rand() ** 2 * words.length)]!).join(' ');
  const core = await Core.open({ dataDir: path.join(workDir, 'search-data'), allowDownload: false });
  const ctx = { ...core.ctx, models: withEmbedder(core.ctx.models, fixedQueryEmbedder(rand)) };
  const latency: LatencyRow[] = [];
  try {
    for (const size of sizes) {
      const kbId = `lat-${size}`;
      await core.client.createKb({ kb_id: kbId, embedding_model: 'english' });
      const table = await ctx.store.createChunks(ctx.store.registry.get(kbId), DIM);
      const now = new Date().toISOString();
      for (let i = 0; i < size; i += 5_000) {
        const rows: ChunkRow[] = [];
        for (let j = i; j < Math.min(size, i + 5_000); j++) {
          const text = sentence(60);
          rows.push(
            plainChunkRow(
              {
                chunk_id: `c${j}`,
                doc_id: `d${Math.floor(j / 10)}`,
                chunk_index: j % 10,
                text,
                fts: analyzeForIndex(text),
                vector: unit(rand, DIM),
                title: `Doc ${Math.floor(j / 10)}`,
                tokens: 60,
              },
              now,
            ),
          );
        }
        await table.add(rows);
      }
      await maintainIndexes(ctx, kbId, true);
      const kb = ctx.store.registry.get(kbId);
      const queries = Array.from({ length: 120 }, () => sentence(3));
      for (const mode of ['fts', 'vector', 'hybrid'] as SearchMode[]) {
        const samples: number[] = [];
        for (const [qi, q] of queries.entries()) {
          const start = performance.now();
          await search(ctx, { query: q, kb_ids: [kb.kb_id], mode, top_k: 10, use_rerank: false });
          if (qi >= 20) samples.push(performance.now() - start); // first 20: warm-up
        }
        latency.push({
          chunks: size,
          vector_index: table.vectorIndexKind ?? 'none (flat)',
          mode,
          p50_ms: round(percentile(samples, 50)),
          p95_ms: round(percentile(samples, 95)),
        });
      }
    }
  } finally {
    // The bench's context wraps the core's, so its scheduled index upkeep is flushed here, before closing.
    await flushIndexing(ctx);
    await core.close();
  }
  return { latency, rss_mb: rssMb() };
}
