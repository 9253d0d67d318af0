import { isFullTextOnly } from '../../shared/contract/index.js';
import type { ChunkTable } from '../store/chunk-table.js';
import { crashDuring } from '../store/crash-point.js';
import { MAX_KEPT_DELTA_ROWS } from '../store/delta-rows.js';
import type { CoreContext } from './context.js';
import { buildTogether, COMPACT_AT_FRAGMENTS, compactAfterWrites, compactFirst, compactionDue } from './upkeep-policy.js';

/**
 * Past this many vectors an ANN index (IVF-RQ: store/ann-params.ts) is built. Measured on SciFact (9.6k chunks,
 * potion 128-d, 2 cores): LanceDB's exact search takes ~8-9 ms a query, an IVF-HNSW-SQ index ~3.5 ms at recall@10
 * 0.99 against exact, built in 0.5 s; exact search over 384-d vectors is ~3× slower than 128-d. So from 5k chunks on
 * exact search alone would use up most of the hybrid latency target (docs/benchmarks.md, `npm run bench`).
 */
export const ANN_MIN_ROWS = 5_000;
/** Upkeep runs this long after the first write that needs it, at the soonest... */
const MIN_DELAY_MS = 1_500;
/**
 * ...and at the latest while few rows wait (at most MAX_KEPT_DELTA_ROWS since the last run began: each search of a
 * version reads them once, store/delta-rows.ts) in few fragments (at most COMPACT_AT_FRAGMENTS writes since the last
 * compaction: each costs every read until one; a writer that never pauses would otherwise leave compactAfterWrites'
 * count, ~250 at 1M chunks, before upkeep came)...
 */
export const MAX_DELAY_FEW_ROWS_MS = 10 * 60_000;
/**
 * ...or while more do (while writes keep coming the timer is not pushed back, so the unindexed rows stay few; a
 * delay armed for few rows is cut back to this once more come).
 */
export const MAX_DELAY_MS = 60_000;
/**
 * Upkeep (compaction when due, and a rewrite of the full-text index) costs O(table); a compaction holds the KB's
 * write lock, a full-text build alone lets writes land beside it. Its delay is ten times its last duration, so it
 * takes at most ~10% of a KB's time. Searches are exact meanwhile (store/lexical-index.ts); the unindexed rows cost
 * each search a little (at 1M chunks with one row waiting, p50 fts 26 against 18 ms settled, hybrid 53 against
 * 37). With the old bound of 60 s for every KB, a 1M-chunk KB (runs of 25-85 s) written by an agent every 30 s ran
 * upkeep after every other write: one core kept busy with full-text builds, ~0.12 GB of disk left per build until
 * a compaction, and every third run a compaction that held writes up to 58 s.
 */
const DELAY_PER_COST = 10;

/**
 * While a job writes a KB that nobody searches, its upkeep waits for the job (checking this often): every upkeep
 * is O(table) under the write lock, so mid-job runs only stall the job, and the job's end brings one anyway.
 * Measured on 20 MB of Markdown with potion (54k chunks): three mid-job runs took 6-8 of the `add`'s 24 s.
 */
const DEFER_POLL_MS = 2_000;
/** ...unless the KB was searched this recently: then its upkeep keeps the usual pace (the searches scan new rows)... */
export const SEARCH_RECENT_MS = 60_000;
/** ...or the job wrote nothing for this long (paused, or reading a slow scan)... */
export const BULK_IDLE_MS = 15_000;
// ...or the job wrote `CoreOptions.upkeepDeferRows` rows since the last upkeep (100,000 in a server: what the first
// search during a job may have to scan; the old pace let ~60 s of ingest, ~120k rows with potion, wait too).

interface Slot {
  timer?: NodeJS.Timeout;
  run?: Promise<void>;
  /** Upkeep runs started and not settled yet. */
  running: number;
  lastMs: number;
  /** performance.now() of the KB's last write, of its last search (-Infinity: none yet). */
  lastWriteAt: number;
  lastSearchAt: number;
  /** Jobs writing the KB now (bulkWriting). */
  bulkWriters: number;
  /** Rows written since the last upkeep began. */
  rowsSinceUpkeep: number;
  /** Asked to arm while upkeep ran: armed when it ends (see arm). */
  armAfterRun?: boolean;
  /** Upkeep runs in a row that left the fragments as they were (see compactionDue). */
  uncompactedRuns: number;
  /** Writes that appended rows since the KB's last compaction, and how long that compaction took (compactAfterWrites). */
  writesSinceCompaction: number;
  lastCompactMs: number;
  /** When the armed timer fires (performance.now()). */
  timerAt: number;
}

const pending = new WeakMap<CoreContext, Map<string, Slot>>();
/** One upkeep run: the KB, its rows, how long it took (of it under the KB's write lock), whether it compacted the table. */
export interface UpkeepRun {
  kb_id: string;
  rows: number;
  ms: number;
  lockedMs: number;
  compacted: boolean;
}
const history = new WeakMap<CoreContext, UpkeepRun[]>();

/** Upkeep runs so far in this process (the bench reports their cost), newest last; the last 1000 are kept. */
export function upkeepRuns(ctx: CoreContext): readonly UpkeepRun[] {
  return history.get(ctx) ?? [];
}

function slot(ctx: CoreContext, kbId: string): Slot {
  let map = pending.get(ctx);
  if (!map) pending.set(ctx, (map = new Map()));
  let s = map.get(kbId);
  if (!s)
    map.set(
      kbId,
      (s = {
        running: 0,
        lastMs: 0,
        lastWriteAt: -Infinity,
        lastSearchAt: -Infinity,
        bulkWriters: 0,
        rowsSinceUpkeep: 0,
        uncompactedRuns: 0,
        writesSinceCompaction: 0,
        lastCompactMs: 0,
        timerAt: 0,
      }),
    );
  return s;
}

/**
 * Keep a KB's indexes current after a write of `rows` chunk rows: in the background, serialised with writes, never
 * blocking a search.
 */
export function scheduleIndexing(ctx: CoreContext, kbId: string, rows = 0): void {
  const s = slot(ctx, kbId);
  s.lastWriteAt = performance.now();
  s.rowsSinceUpkeep += rows;
  if (rows > 0) s.writesSinceCompaction++;
  // Enough fragments wait: an upkeep armed for later by its cost comes now; many rows or fragments: no later than
  // MAX_DELAY_MS.
  const tooLate = compactionWaits(s) ? s.lastWriteAt : manyWaiting(s) ? s.lastWriteAt + MAX_DELAY_MS : Infinity;
  if (s.timer && s.timerAt > tooLate) {
    clearTimeout(s.timer);
    s.timer = undefined;
  }
  arm(ctx, kbId, s);
}

/** Until this process has compacted the KB, its last upkeep's cost stands in (a full-text build alone: 20-40 % of one). */
const compactionWaits = (s: Slot) => s.writesSinceCompaction >= compactAfterWrites(s.lastCompactMs || s.lastMs);

/** The delay of the next upkeep: none once enough fragments wait, else ten times the cost of the last one. */
function nextDelay(s: Slot): number {
  return compactionWaits(s) ? 0 : upkeepDelay(s.lastMs, manyWaiting(s));
}

/** More rows or fragments wait than the long delay is for (see MAX_DELAY_FEW_ROWS_MS). */
const manyWaiting = (s: Slot) => s.rowsSinceUpkeep > MAX_KEPT_DELTA_ROWS || s.writesSinceCompaction > COMPACT_AT_FRAGMENTS;

/** Ten times the last run's cost, within MIN_DELAY_MS and MAX_DELAY_FEW_ROWS_MS, or MAX_DELAY_MS when `many` wait. */
export function upkeepDelay(lastMs: number, many: boolean): number {
  return Math.min(many ? MAX_DELAY_MS : MAX_DELAY_FEW_ROWS_MS, Math.max(MIN_DELAY_MS, lastMs * DELAY_PER_COST));
}

function arm(ctx: CoreContext, kbId: string, s: Slot, delay = nextDelay(s)): void {
  if (s.timer) return;
  // A write that ends while upkeep runs (it held the lock first) waits for the run's end, and for a delay from its
  // cost: armed now, with the cost of the run before, a 219k-chunk KB's next upkeep (6.6 s) ran right after the one
  // under way (7.0 s), and the single add behind it waited for both.
  if (s.running > 0) {
    s.armAfterRun = true;
    return;
  }
  s.timer = setTimeout(() => {
    s.timer = undefined;
    if (!upkeepDue(s, performance.now(), ctx.options.upkeepDeferRows)) return arm(ctx, kbId, s, DEFER_POLL_MS);
    startUpkeep(
      ctx,
      kbId,
      s,
      maintainIndexes(ctx, kbId).catch((err) => {
        process.stderr.write(`ragdesk: index upkeep for ${kbId} failed: ${String(err)}\n`);
      }),
    );
  }, delay);
  s.timerAt = performance.now() + delay;
  s.timer.unref();
}

/** Whether a KB's scheduled upkeep runs now, or waits for the job writing it (see DEFER_POLL_MS). */
export function upkeepDue(
  s: Pick<Slot, 'bulkWriters' | 'lastWriteAt' | 'lastSearchAt' | 'rowsSinceUpkeep'>,
  now: number,
  maxRows: number,
): boolean {
  return (
    s.bulkWriters === 0 || now - s.lastWriteAt >= BULK_IDLE_MS || now - s.lastSearchAt < SEARCH_RECENT_MS || s.rowsSinceUpkeep >= maxRows
  );
}

/** The upkeep state of a KB, for tests (see upkeepDue, compactAfterWrites). */
export function upkeepState(
  ctx: CoreContext,
  kbId: string,
): Readonly<
  Pick<
    Slot,
    'bulkWriters' | 'lastWriteAt' | 'lastSearchAt' | 'rowsSinceUpkeep' | 'writesSinceCompaction' | 'lastCompactMs' | 'lastMs' | 'timerAt'
  >
> {
  return slot(ctx, kbId);
}

/** A job writes the KB until the returned function is called (its upkeep may wait meanwhile, see upkeepDue). */
export function bulkWriting(ctx: CoreContext, kbId: string): () => void {
  const s = slot(ctx, kbId);
  s.bulkWriters++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    s.bulkWriters--;
  };
}

/** A search read the KB; `stale`: its table has rows its indexes do not cover yet (a crash, an older version). */
export function noteSearch(ctx: CoreContext, kbId: string, stale: boolean): void {
  const s = slot(ctx, kbId);
  s.lastSearchAt = performance.now();
  if (stale) arm(ctx, kbId, s);
}

/** Whether upkeep is waiting to run for a KB. */
export function indexingScheduled(ctx: CoreContext, kbId: string): boolean {
  return Boolean(pending.get(ctx)?.get(kbId)?.timer);
}

/**
 * After a KB's first write: build its full-text index now when that is quick (`CoreOptions.inlineIndexRows`). A
 * larger first write is indexed by upkeep, which also retries a build that fails here (the write stands).
 */
export async function indexFirstWrite(ctx: CoreContext, table: ChunkTable, rows: number): Promise<void> {
  if (!table.ftsIndexReady && rows <= ctx.options.inlineIndexRows) await table.ensureFtsIndex().catch(() => undefined);
}

/**
 * Whether upkeep waits to run or is running for any KB. Core.close clears the heaps first then: a job's last poll
 * may start the upkeep while the CLI is still printing, and it built a 50,000-file folder's indexes beside a main
 * heap still sized for the job (~230 MB committed, ~165 MB of it garbage).
 */
export function anyIndexingAhead(ctx: CoreContext): boolean {
  return [...(pending.get(ctx)?.values() ?? [])].some((s) => Boolean(s.timer) || s.running > 0);
}

function startUpkeep(ctx: CoreContext, kbId: string, s: Slot, run: Promise<void>): void {
  s.running++;
  s.run = run.finally(() => {
    s.running--;
    if (s.running === 0 && s.armAfterRun) {
      s.armAfterRun = false;
      arm(ctx, kbId, s);
    }
  });
}

/** Run any scheduled index upkeep now and wait for it (before a CLI exits, in tests, before a benchmark). */
export async function flushIndexing(ctx: CoreContext): Promise<void> {
  const map = pending.get(ctx);
  if (!map) return;
  for (const [kbId, s] of map) {
    // Until none is armed: a write during a run arms the next one at its end (see arm).
    do {
      if (s.timer) {
        clearTimeout(s.timer);
        s.timer = undefined;
        startUpkeep(ctx, kbId, s, maintainIndexes(ctx, kbId));
      }
      await s.run;
    } while (s.timer);
  }
}

/**
 * Bring a KB's indexes up to date: build the full-text index on the first rows, else fold written and removed
 * rows in (`force`: even when nothing was written in this process), and build the ANN index once it pays.
 */
export async function maintainIndexes(ctx: CoreContext, kbId: string, force = false): Promise<void> {
  const s = slot(ctx, kbId);
  let run: UpkeepRun | undefined;
  /** The full-text build that runs after the write lock is let go (ChunkTable.rebuildFtsBeside). */
  let beside: Promise<void> | undefined;
  let t0 = 0;
  let upkept: ChunkTable | undefined;
  await ctx.store.writes.run(kbId, async () => {
    const table = (upkept = await ctx.store.chunks(kbId));
    if (!table) return;
    // What upkeep covers from here: every row written before it took the KB's write lock.
    s.rowsSinceUpkeep = 0;
    const rows = await table.count();
    if (rows === 0) return;
    t0 = performance.now();
    const work = !table.ftsIndexReady || force || table.upkeepLeft;
    let compacted = false;
    let rebuildFts = false;
    if (!table.ftsIndexReady) {
      compacted = compactFirst(table, rows, hasVectors(ctx, kbId)) && (await table.fragments()) > 1;
      // No full-text index yet: nothing is left to build beside writes.
      if (compacted) await compact(s, table);
      const vectorRows = buildTogether(table, rows) ? await annRowsDue(table, rows) : undefined;
      await table.buildIndexes({ fts: true, ...(vectorRows !== undefined ? { vectorRows } : {}) });
    } else if (force || table.upkeepLeft) {
      compacted =
        force ||
        compactionDue({
          fragments: await table.fragments(),
          uncompactedRuns: s.uncompactedRuns,
          unindexedVectors: await table.unindexedVectors(),
        });
      // Compaction rewrites fragments under the lock; the full-text index is built again after the lock is let
      // go (below), so that writes land meanwhile, unless the compaction rewrote the whole table (it then builds it).
      rebuildFts = compacted ? await compact(s, table) : true;
      s.uncompactedRuns = compacted ? 0 : s.uncompactedRuns + 1;
    }
    // Counted writes that left no fragment (another process compacted meanwhile) would bring a run after each write.
    if (!compacted && compactionWaits(s)) s.writesSinceCompaction = Math.min(s.writesSinceCompaction, await table.fragments());
    // A KB written by an older ragdesk gets the packed hit column (store/chunk-rows.ts HIT_COLUMN) and, where it was
    // indexed with IVF-HNSW-SQ, the current vector index kind (store/ann-params.ts), once.
    const outdated = table.upgradeDue;
    if (table.hitsUnpacked) await crashDuring('pack', table.packHits(), 0);
    const vectorRows = await annRowsDue(table, rows);
    if (vectorRows !== undefined) await table.buildVectorIndex(vectorRows);
    if (rebuildFts) beside = (await table.rebuildFtsBeside()).done;
    if (work || outdated) run = { kb_id: kbId, rows, ms: 0, lockedMs: 0, compacted };
  });
  if (run) run.lockedMs = performance.now() - t0;
  // A build that failed (a rollback's restore came in between: LanceDB refuses the index commit) is tried again.
  if (beside)
    await crashDuring('upkeep', beside).catch((err: unknown) => {
      s.armAfterRun = true;
      throw err;
    });
  if (run) {
    run.ms = s.lastMs = performance.now() - t0;
    let runs = history.get(ctx);
    if (!runs) history.set(ctx, (runs = []));
    runs.push(run);
    if (runs.length > 1000) runs.shift();
  }
  // The indexes this run replaced stay in LanceDB's cache: past a size, the table moves to a new connection
  // (store/lance-session.ts), its indexes loaded there first. Not timed with the run: the delay of the next follows
  // the run's own cost.
  if (run && upkept) await renewCaches(ctx, kbId, upkept);
  // The documents table (one fragment per document write) is compacted along, when enough fragments wait. Not under
  // the KB's write lock: it has its own commit order, and a write to the KB need not wait for it (0.7 s with 100 MB
  // of documents).
  await ctx.store.docs.compactIfFragmented();
}

/** See CoreOptions.renewCacheBytes. A failure leaves the table on its connection: searches go on as before. */
async function renewCaches(ctx: CoreContext, kbId: string, table: ChunkTable): Promise<void> {
  await table.renewConnection(ctx.options.renewCacheBytes).catch((err: unknown) => {
    process.stderr.write(`ragdesk: new connection for ${kbId} failed: ${String(err)}\n`);
  });
}

/**
 * Compact the table under the KB's write lock, timing it for compactAfterWrites; true when its full-text index is
 * left to be built again beside writes (ChunkTable.optimize).
 */
async function compact(s: Slot, table: ChunkTable): Promise<boolean> {
  const t0 = performance.now();
  const ftsLeft = await crashDuring('upkeep', table.optimize(true));
  s.lastCompactMs = performance.now() - t0;
  s.writesSinceCompaction = 0;
  return ftsLeft;
}

/** Whether the KB has an embedding model (a KB gone meanwhile counts as one: its table is left as the bounds say). */
function hasVectors(ctx: CoreContext, kbId: string): boolean {
  const kb = ctx.store.registry.find(kbId);
  return !kb || !isFullTextOnly(kb.embedding_model);
}

/** The vectors to build the ANN index over when the table needs one (none yet, or an outdated kind), else undefined. */
async function annRowsDue(table: ChunkTable, rows: number): Promise<number | undefined> {
  if (table.dim <= 0 || (table.vectorIndexReady && !table.vectorIndexOutdated) || rows < ANN_MIN_ROWS) return undefined;
  const withVectors = await table.count('vector IS NOT NULL');
  return withVectors >= ANN_MIN_ROWS ? withVectors : undefined;
}
