import fs from 'node:fs';
import path from 'node:path';
import type { Kb } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import type { Embedder } from '../embed/types.js';
import type { ChunkTable } from '../store/chunk-table.js';
import type { CoreContext } from './context.js';
import { passageText } from './ingest.js';

/**
 * Exact (flat) vector search over 384-d vectors takes ~15 ms at 10k chunks on 2 cores (`npm run bench`), so past
 * this size it would miss the 20 ms hybrid target: an ANN index (IVF + HNSW, scalar-quantised) is built.
 */
export const ANN_MIN_ROWS = 10_000;
/** Fold new rows into the indexes once this many are waiting (they are searched flat until then). */
const OPTIMIZE_AFTER_ROWS = 2_000;
const DEBOUNCE_MS = 1_500;

/** The vector dimension of a KB's model, without loading it when possible (preset table or folder config). */
export function knownDim(ctx: CoreContext, model: string): number | undefined {
  const preset = ctx.models.presets().find((p) => p.name === model || p.model_id === model);
  if (preset?.dim) return preset.dim;
  try {
    const config = JSON.parse(fs.readFileSync(path.join(path.resolve(model), 'config.json'), 'utf8')) as Record<string, unknown>;
    const dim = config.hidden_size ?? config.hidden_dim ?? config.dim ?? config.d_model;
    return typeof dim === 'number' ? dim : undefined;
  } catch {
    return undefined;
  }
}

/** The KB's chunk table, created on first write with the model's dimension (recorded on the KB). */
export async function ensureChunkTable(ctx: CoreContext, kb: Kb, embedder: Embedder | undefined): Promise<ChunkTable> {
  const existing = await ctx.store.chunks(kb.kb_id);
  if (existing) {
    if (embedder && existing.dim === 0) {
      await existing.addVectorColumn(embedder.dim);
      ctx.store.registry.put({ ...kb, embedding_dim: embedder.dim });
    } else if (embedder && existing.dim !== embedder.dim) {
      throw new RagError(
        'invalid_parameter',
        `knowledge base "${kb.kb_id}" holds ${existing.dim}-d vectors but model ${embedder.resolved} makes ${embedder.dim}-d ones`,
      );
    }
    return existing;
  }
  // Unknown size (model never loaded, not a preset): start without a vector column; it is added on first load.
  const dim = embedder?.dim ?? kb.embedding_dim ?? knownDim(ctx, kb.embedding_model) ?? 0;
  const table = await ctx.store.createChunks(kb, dim);
  if (dim > 0 && kb.embedding_dim !== dim) ctx.store.registry.put({ ...kb, embedding_dim: dim });
  return table;
}

const pending = new WeakMap<CoreContext, Map<string, { timer?: NodeJS.Timeout; run?: Promise<void> }>>();

function slot(ctx: CoreContext, kbId: string) {
  let map = pending.get(ctx);
  if (!map) pending.set(ctx, (map = new Map()));
  let s = map.get(kbId);
  if (!s) map.set(kbId, (s = {}));
  return s;
}

/** Keep a KB's indexes current after writes: debounced, serialised with writes, never blocking a search. */
export function scheduleIndexing(ctx: CoreContext, kbId: string): void {
  const s = slot(ctx, kbId);
  if (s.timer) clearTimeout(s.timer);
  s.timer = setTimeout(() => {
    s.timer = undefined;
    s.run = maintainIndexes(ctx, kbId).catch((err) => {
      process.stderr.write(`ragdesk: index upkeep for ${kbId} failed: ${String(err)}\n`);
    });
  }, DEBOUNCE_MS);
  s.timer.unref();
}

/** Run any scheduled index upkeep now and wait for it (before a CLI exits, in tests, before a benchmark). */
export async function flushIndexing(ctx: CoreContext): Promise<void> {
  const map = pending.get(ctx);
  if (!map) return;
  for (const [kbId, s] of map) {
    if (s.timer) {
      clearTimeout(s.timer);
      s.timer = undefined;
      s.run = maintainIndexes(ctx, kbId);
    }
    await s.run;
  }
}

export async function maintainIndexes(ctx: CoreContext, kbId: string, force = false): Promise<void> {
  await ctx.store.writes.run(kbId, async () => {
    const table = await ctx.store.chunks(kbId);
    if (!table) return;
    const rows = await table.count();
    if (rows === 0) return;
    if (!table.ftsIndexReady) await table.ensureFtsIndex();
    else if (force || (await table.unindexedRows()) >= OPTIMIZE_AFTER_ROWS) await table.optimize();
    if (table.dim > 0 && !table.vectorIndexReady && rows >= ANN_MIN_ROWS) {
      const withVectors = await table.count('vector IS NOT NULL');
      if (withVectors >= ANN_MIN_ROWS) await table.buildVectorIndex(withVectors);
    }
  });
}

/** Embed chunks stored while the model was unavailable. Returns how many got vectors. */
export async function backfillVectors(ctx: CoreContext, kbId: string, embedder: Embedder): Promise<number> {
  let done = 0;
  for (;;) {
    await ctx.pause.wait();
    const table = await ctx.store.chunks(kbId);
    if (!table) return done;
    if (table.dim === 0) await ctx.store.write(kbId, () => ensureChunkTable(ctx, ctx.store.registry.get(kbId), embedder));
    // After a model change the KB's table belongs to another model: this embedder has nothing left to fill in.
    if (table.dim !== embedder.dim || ctx.store.registry.find(kbId)?.embedding_model !== embedder.model) return done;
    const batch = await table.chunksWithoutVectors(256);
    if (batch.length === 0) return done;
    const vectors = await embedder.embedPassages(batch.map((b) => passageText(b.title, b.text)));
    await ctx.store.write(kbId, () => table.setVectors(batch.map((b, i) => ({ chunk_id: b.chunk_id, vector: vectors[i]! }))));
    done += batch.length;
  }
}
