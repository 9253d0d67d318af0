import { FULL_TEXT_ONLY, isFullTextOnly } from '../../shared/contract/index.js';
import type { ChangeKbModelInput, Kb, ModelChange, ModelChangeStatus, CancelModelChangeResult } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import type { Embedder } from '../embed/types.js';
import { chunkTableName, physicalChunkTable, type ChunkTable } from '../store/chunk-table.js';
import type { CoreContext } from './context.js';
import { ANN_MIN_ROWS, scheduleIndexing } from './indexing.js';
import { modelChangesOf, publicView, type ChangeRecord, type LiveChange } from './model-change-state.js';
import { copyReembedded, deleteChunks, diffChunks } from './reembed.js';
import { crashPoint } from '../store/crash-point.js';

/**
 * Changing a KB's embedding model safely. The KB's chunks are re-embedded into a shadow chunk table in the
 * background while searches and writes keep using the old table and model. Passes over the chunk ids copy what
 * the shadow lacks; then the shadow gets its full-text (and, when large enough, ANN) index; then, under the KB's
 * write lock, the writes that landed meanwhile are caught up (missing chunks embedded, deleted ones dropped) and
 * one atomic registry write points the KB at the shadow with the new model and dimension. The old table is
 * dropped after a grace period, so searches that started on it finish on it. Cancelling drops the shadow; a
 * restart finds the change interrupted and resumes it, keeping what the shadow already holds.
 */

/** After the first pass, past this many chunks left another pass runs outside the write lock before the locked catch-up. */
const LOCKED_CATCH_UP_MAX = 256;
const MAX_PASSES = 5;
/** How long an old chunk table outlives the swap (searches that started before it read it meanwhile). */
const DROP_GRACE_MS = 5_000;

const shadowName = (kbId: string) => `${chunkTableName(kbId)}.m${Date.now().toString(36)}`;
const serial = (kbId: string) => `model:${kbId}`;

async function loadEmbedder(ctx: CoreContext, model: string): Promise<Embedder> {
  try {
    return await ctx.models.getEmbedder(model, { allowDownload: ctx.options.allowDownload });
  } catch (err) {
    if (err instanceof RagError) throw err;
    throw new RagError('model_unavailable', `model ${model} could not be loaded: ${String(err)}`, { cause: err });
  }
}

/** Start changing a KB's model (or resume the interrupted change to the same model). */
export async function changeKbModel(ctx: CoreContext, input: ChangeKbModelInput): Promise<ModelChange> {
  const kbId = input.kb_id;
  const model = input.model.trim();
  ctx.store.registry.get(kbId);
  if (isFullTextOnly(model)) {
    throw new RagError(
      'invalid_parameter',
      `a knowledge base keeps its vectors once it has a model: create a new one with model ${FULL_TEXT_ONLY} for full-text only`,
      {
        details: { kb_id: kbId },
      },
    );
  }
  return ctx.store.writes.run(serial(kbId), async () => {
    const changes = modelChangesOf(ctx);
    const current = changes.active(kbId);
    if (current) {
      const r = current.record;
      if (r.to_model !== model) {
        const resume = r.state === 'running' || r.state === 'indexing' ? '' : ` (or resume it by asking for ${r.to_model} again)`;
        throw new RagError('busy', `a change of "${kbId}" to model ${r.to_model} is ${r.state}; cancel it first${resume}`, {
          details: { kb_id: kbId, to_model: r.to_model },
        });
      }
      if (!current.runner) {
        changes.update(current, { resumed: r.resumed + 1, error: null, finished_at: null });
        launch(ctx, current);
      }
      return publicView(current);
    }
    const embedder = await loadEmbedder(ctx, model);
    if (!(embedder.dim > 0)) throw new RagError('model_unavailable', `model ${model} did not report its vector dimension`);
    const kb = ctx.store.registry.get(kbId);
    if (model === kb.embedding_model && embedder.dim === kb.embedding_dim) {
      throw new RagError('invalid_parameter', `knowledge base "${kbId}" already uses model ${model}`, { details: { kb_id: kbId } });
    }
    const now = new Date().toISOString();
    const record: ChangeRecord = {
      kb_id: kbId,
      from_model: kb.embedding_model,
      from_dim: kb.embedding_dim,
      to_model: model,
      to_dim: embedder.dim,
      state: 'running',
      chunks_total: 0,
      chunks_done: 0,
      started_at: now,
      updated_at: now,
      finished_at: null,
      eta_ms: null,
      resumed: 0,
      error: null,
      source_table: physicalChunkTable(kb),
      shadow_table: shadowName(kbId),
    };
    // Nothing to re-embed: point the KB at a new (not yet created) table for the new model right away.
    const switched = await ctx.store.write(kbId, async () => {
      const fresh = ctx.store.registry.get(kbId);
      const table = await ctx.store.chunks(fresh);
      record.chunks_total = table ? await table.count() : 0;
      if (record.chunks_total > 0) return false;
      ctx.store.registry.put({
        ...ctx.store.registry.get(kbId),
        embedding_model: model,
        embedding_dim: embedder.dim,
        chunk_table: record.shadow_table,
        updated_at: now,
      });
      if (table) scheduleDrop(ctx, physicalChunkTable(fresh));
      return true;
    });
    if (switched) {
      const done: LiveChange = { record: { ...record, state: 'done', finished_at: now } };
      changes.set(done);
      return publicView(done);
    }
    await dropLeftovers(ctx, kb);
    const live: LiveChange = { record };
    changes.set(live);
    launch(ctx, live);
    return publicView(live);
  });
}

export function modelChangeStatus(ctx: CoreContext, kbId: string): ModelChangeStatus {
  ctx.store.registry.get(kbId);
  const change = modelChangesOf(ctx).get(kbId);
  return { kb_id: kbId, migration: change ? publicView(change) : null };
}

/** A change not finished yet (for kbStats / kb_diagnostic); null when there is none. */
export function activeModelChange(ctx: CoreContext, kbId: string): ModelChange | null {
  const change = modelChangesOf(ctx).active(kbId);
  return change ? publicView(change) : null;
}

/** Stop the change and drop its shadow table; the KB keeps its model and index as they were. */
export async function cancelModelChange(ctx: CoreContext, kbId: string): Promise<CancelModelChangeResult> {
  ctx.store.registry.get(kbId);
  return ctx.store.writes.run(serial(kbId), async () => {
    const changes = modelChangesOf(ctx);
    const live = changes.active(kbId);
    if (!live) {
      const last = changes.get(kbId);
      return { kb_id: kbId, cancelled: false, migration: last ? publicView(last) : null };
    }
    live.abort?.abort();
    await live.runner;
    // The swap may have completed before the runner saw the abort: then there is nothing left to cancel.
    if (live.record.state === 'done') return { kb_id: kbId, cancelled: false, migration: publicView(live) };
    await ctx.store.write(kbId, () => ctx.store.dropTable(live.record.shadow_table));
    changes.update(live, { state: 'cancelled', finished_at: new Date().toISOString(), error: null });
    return { kb_id: kbId, cancelled: true, migration: publicView(live) };
  });
}

/** Before a KB is deleted: stop its change and forget it (the KB's tables are dropped with it). */
export async function forgetModelChange(ctx: CoreContext, kbId: string): Promise<void> {
  await ctx.store.writes.run(serial(kbId), async () => {
    const changes = modelChangesOf(ctx);
    const live = changes.get(kbId);
    live?.abort?.abort();
    await live?.runner;
    changes.forget(kbId);
  });
}

/**
 * At start (servers, the desktop app): resume interrupted changes and drop chunk tables that no KB points at
 * any more (an old table whose drop a crash cut short, the shadow of a change that was cancelled by a crash).
 */
export async function resumeModelChanges(ctx: CoreContext): Promise<void> {
  const changes = modelChangesOf(ctx);
  for (const kb of ctx.store.registry.list()) {
    await ctx.store.writes.run(serial(kb.kb_id), async () => {
      await dropLeftovers(ctx, kb);
      const live = changes.active(kb.kb_id);
      if (live?.record.state === 'interrupted' && !live.runner) {
        changes.update(live, { resumed: live.record.resumed + 1 });
        launch(ctx, live);
      }
    });
  }
}

/** Stop running changes (they stay resumable) and drop old tables now: before the store closes. */
export async function stopModelChanges(ctx: CoreContext): Promise<void> {
  const changes = modelChangesOf(ctx);
  for (const live of changes.live.values()) live.abort?.abort();
  await Promise.all([...changes.live.values()].map((l) => l.runner));
  await dropOldTablesNow(ctx);
}

/** Drop the old tables of finished changes now instead of after their grace period (closing, tests). */
export async function dropOldTablesNow(ctx: CoreContext): Promise<void> {
  const changes = modelChangesOf(ctx);
  for (const [name, timer] of changes.pendingDrops) {
    clearTimeout(timer);
    changes.pendingDrops.delete(name);
    await ctx.store.dropTable(name).catch(() => undefined);
  }
}

async function dropLeftovers(ctx: CoreContext, kb: Kb): Promise<void> {
  const changes = modelChangesOf(ctx);
  const keep = new Set([physicalChunkTable(ctx.store.registry.get(kb.kb_id)), ...changes.pendingDrops.keys()]);
  const active = changes.active(kb.kb_id);
  if (active) keep.add(active.record.shadow_table);
  for (const name of await ctx.store.kbTableNames(kb.kb_id)) if (!keep.has(name)) await ctx.store.dropTable(name);
}

function scheduleDrop(ctx: CoreContext, name: string): void {
  const changes = modelChangesOf(ctx);
  const timer = setTimeout(() => {
    changes.pendingDrops.delete(name);
    ctx.store
      .dropTable(name)
      .catch((err: unknown) => process.stderr.write(`ragdesk: could not drop the old chunk table ${name}: ${String(err)}\n`));
  }, DROP_GRACE_MS);
  timer.unref();
  changes.pendingDrops.set(name, timer);
}

function launch(ctx: CoreContext, live: LiveChange): void {
  const abort = new AbortController();
  live.abort = abort;
  delete live.pace;
  live.runner = run(ctx, live, abort.signal).finally(() => {
    delete live.runner;
    delete live.abort;
  });
}

async function sourceOf(ctx: CoreContext, kbId: string): Promise<ChunkTable> {
  const table = await ctx.store.chunks(kbId);
  if (!table) throw new RagError('internal', `the chunk table of "${kbId}" is missing`);
  return table;
}

/** The runner: never rejects; a failure is recorded on the change (resume or cancel it). */
async function run(ctx: CoreContext, live: LiveChange, signal: AbortSignal): Promise<void> {
  const changes = modelChangesOf(ctx);
  const rec = live.record;
  const kbId = rec.kb_id;
  try {
    if (physicalChunkTable(ctx.store.registry.get(kbId)) === rec.shadow_table) {
      // A crash came between the swap and recording it: the change is complete.
      changes.update(live, { state: 'done', finished_at: new Date().toISOString(), chunks_done: rec.chunks_total });
      return;
    }
    changes.update(live, { state: 'running', error: null });
    const embedder = await loadEmbedder(ctx, rec.to_model);
    if (embedder.dim !== rec.to_dim)
      throw new RagError('model_unavailable', `model ${rec.to_model} now makes ${embedder.dim}-d vectors, not ${rec.to_dim}`);
    signal.throwIfAborted();
    const shadow = (await ctx.store.openTable(rec.shadow_table)) ?? (await ctx.store.createTable(rec.shadow_table, rec.to_dim));
    const copy = {
      fields: () => ctx.store.registry.get(kbId).metadata_fields,
      signal,
      onBatch: (n: number) => changes.update(live, { chunks_done: Math.min(rec.chunks_done + n, rec.chunks_total) }),
    };
    // Bulk passes outside the lock; writes landing meanwhile are picked up by the next pass or the final catch-up.
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const source = await sourceOf(ctx, kbId);
      const diff = await diffChunks(source, shadow);
      changes.update(live, { chunks_total: diff.total, chunks_done: diff.done });
      live.pace ??= { t0: Date.now(), done0: diff.done };
      if (diff.missing.length === 0 || (pass > 0 && diff.missing.length <= LOCKED_CATCH_UP_MAX)) break;
      // Bulk passes wait while indexing is paused (the catch-up under the write lock below is short and does not).
      await copyReembedded(source, shadow, diff.missing, embedder, { ...copy, beforeBatch: () => ctx.pause.wait() });
    }
    changes.update(live, { state: 'indexing' });
    if ((await shadow.count()) > 0) await shadow.ensureFtsIndex();
    const withVectors = await shadow.count('vector IS NOT NULL');
    if (withVectors >= ANN_MIN_ROWS && !shadow.vectorIndexReady) await shadow.buildVectorIndex(withVectors);
    let old = rec.source_table;
    await ctx.store.write(kbId, async () => {
      signal.throwIfAborted();
      const source = await sourceOf(ctx, kbId);
      const diff = await diffChunks(source, shadow);
      await copyReembedded(source, shadow, diff.missing, embedder, copy);
      await deleteChunks(shadow, diff.extra);
      await shadow.ensureMetadataColumns(ctx.store.registry.get(kbId).metadata_fields);
      if (!shadow.ftsIndexReady && (await shadow.count()) > 0) await shadow.ensureFtsIndex();
      const kb = ctx.store.registry.get(kbId);
      old = physicalChunkTable(kb);
      const now = new Date().toISOString();
      crashPoint('model-swap');
      // The swap: one atomic registry write (model, dimension and table together).
      ctx.store.registry.put({
        ...kb,
        embedding_model: rec.to_model,
        embedding_dim: rec.to_dim,
        chunk_table: rec.shadow_table,
        updated_at: now,
      });
      changes.update(live, { state: 'done', finished_at: now, chunks_total: diff.total, chunks_done: diff.total });
    });
    scheduleIndexing(ctx, kbId);
    scheduleDrop(ctx, old);
  } catch (err) {
    if (rec.state === 'done') return;
    if (signal.aborted) changes.update(live, { state: 'interrupted' });
    else changes.update(live, { state: 'failed', error: err instanceof Error ? err.message : String(err) });
  }
}
