import type { CoreContext } from './context.js';

/**
 * Exact (flat) vector search over 384-d vectors takes ~15 ms at 10k chunks on 2 cores (`npm run bench`), so past
 * this size it would miss the 20 ms hybrid target: an ANN index (IVF + HNSW, scalar-quantised) is built.
 */
export const ANN_MIN_ROWS = 10_000;
/** Fold new rows into the indexes once this many are waiting (they are searched flat until then). */
const OPTIMIZE_AFTER_ROWS = 2_000;
const DEBOUNCE_MS = 1_500;

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
