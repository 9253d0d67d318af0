import type { MetadataFieldType } from '../../shared/contract/index.js';
import type { Embedder } from '../embed/types.js';
import type { ChunkTable } from '../store/chunk-table.js';
import { sqlString } from '../store/sql.js';
import { passageText } from '../embed/passage.js';
import { ensureChunkTable } from '../store/ensure-chunk-table.js';
import type { CoreContext } from './context.js';

/** Chunks read, embedded and written per step (one embedder call, one LanceDB append). */
export const REEMBED_BATCH = 128;

/** How the target chunk table differs from the source, by chunk_id. */
export interface ChunkDiff {
  /** In the source, not yet in the target. */
  missing: string[];
  /** In the target, gone from the source (deleted or replaced by a newer version). */
  extra: string[];
  /** Chunks in the source. */
  total: number;
  /** Source chunks already in the target. */
  done: number;
}

export async function diffChunks(source: ChunkTable, target: ChunkTable): Promise<ChunkDiff> {
  const [src, dst] = await Promise.all([source.chunkIds(), target.chunkIds()]);
  const want = new Set(src);
  const have = new Set(dst);
  const missing = src.filter((id) => !have.has(id));
  const extra = dst.filter((id) => !want.has(id));
  return { missing, extra, total: src.length, done: src.length - missing.length };
}

export interface CopyOptions {
  /** The KB's metadata fields now: the target gets any column it lacks before rows that may carry it are added. */
  fields: () => Readonly<Record<string, MetadataFieldType>>;
  signal?: AbortSignal;
  onBatch?: (copied: number) => void;
  /** Awaited before each batch (the pause gate). */
  beforeBatch?: () => Promise<void>;
}

/**
 * Copy chunks (text, locations, metadata, the same chunk_ids) from one chunk table into another, embedding
 * them with `embedder` on the way: what a model change and a model evaluation on a copy both do.
 * Ids no longer in the source (deleted meanwhile) are passed over. Returns how many rows were copied.
 */
export async function copyReembedded(
  source: ChunkTable,
  target: ChunkTable,
  ids: string[],
  embedder: Embedder,
  options: CopyOptions,
): Promise<number> {
  let copied = 0;
  for (let i = 0; i < ids.length; i += REEMBED_BATCH) {
    await options.beforeBatch?.();
    options.signal?.throwIfAborted();
    const rows = await source.rowsForCopy(ids.slice(i, i + REEMBED_BATCH));
    if (rows.length === 0) continue;
    // Fields first registered by a write are on the KB before its rows are in the source, so reading the rows
    // first and the fields second never misses a column.
    await target.ensureMetadataColumns(options.fields());
    const vectors = await embedder.embedPassages(rows.map((r) => passageText(String(r.title ?? ''), String(r.text ?? ''))));
    await target.addCopies(rows, vectors);
    copied += rows.length;
    options.onBatch?.(rows.length);
  }
  return copied;
}

/** Remove chunks by id (those gone from the source). */
export async function deleteChunks(target: ChunkTable, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await target.deleteWhere(
      `chunk_id IN (${ids
        .slice(i, i + 500)
        .map(sqlString)
        .join(', ')})`,
    );
  }
}

/** Embed chunks stored while the model was unavailable. Returns how many got vectors. */
export async function backfillVectors(ctx: CoreContext, kbId: string, embedder: Embedder): Promise<number> {
  let done = 0;
  for (;;) {
    await ctx.pause.wait();
    const table = await ctx.store.chunks(kbId);
    if (!table) return done;
    if (table.dim === 0)
      await ctx.store.write(kbId, () => ensureChunkTable(ctx.store, ctx.store.registry.get(kbId), embedder, ctx.models.presets()));
    // After a model change the KB's table belongs to another model: this embedder has nothing left to fill in.
    if (table.dim !== embedder.dim || ctx.store.registry.find(kbId)?.embedding_model !== embedder.model) return done;
    const batch = await table.chunksWithoutVectors(256);
    if (batch.length === 0) return done;
    const vectors = await embedder.embedPassages(batch.map((b) => passageText(b.title, b.text)));
    await ctx.store.write(kbId, () => table.setVectors(batch.map((b, i) => ({ chunk_id: b.chunk_id, vector: vectors[i]! }))));
    done += batch.length;
  }
}
