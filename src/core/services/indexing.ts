import type { ChunkTable } from '../store/chunk-table.js';
import { crashDuring } from '../store/crash-point.js';
import type { CoreContext } from './context.js';

/**
 * Past this many vectors an ANN index (IVF-RQ: store/ann-params.ts) is built. Measured on SciFact (9.6k chunks,
 * potion 128-d, 2 cores): LanceDB's exact search takes ~8-9 ms a query, an IVF-HNSW-SQ index ~3.5 ms at recall@10
 * 0.99 against exact, built in 0.5 s; exact search over 384-d vectors is ~3× slower than 128-d. So from 5k chunks on
 * exact search alone would use up most of the hybrid latency target (docs/benchmarks.md, `npm run bench`).
 */
export const ANN_MIN_ROWS = 5_000;
/** Upkeep runs this long after the first write that needs it, at the soonest... */
const MIN_DELAY_MS = 1_500;
/** ...and at the latest (while writes keep coming the timer is not pushed back, so the unindexed rows stay few). */
const MAX_DELAY_MS = 60_000;
/**
 * Upkeep (compaction when due, and a rewrite of the full-text index) costs O(table); a compaction holds the KB's
 * write lock, a full-text build alone lets writes land beside it. Its delay is ten times its last duration, so it
 * takes at most ~10% of a KB's time. Searches are exact meanwhile (store/lexical-index.ts); the unindexed rows only
 * cost a scan per search.
 */
const DELAY_PER_COST = 10;
/**
 * What each fragment left by a write costs until upkeep compacts it away, per write and the search after it (ms):
 * LanceDB opens every fragment for a filtered read. Measured on SciFact (5,183 rows) with 25 → 375 single-add
 * fragments in both tables: an add 42 → 236 ms (its existence checks in the documents table), a full-text search
 * ~0.45 ms per fragment more (the scan of the rows the index does not cover).
 */
const FRAGMENT_COST_MS = 1;

/**
 * Upkeep also comes as soon as a KB has taken this many writes since its last compaction (each appends a fragment),
 * whatever the delay from its cost says: `compactMs` (the last compaction's time, under the write lock) paid once
 * against a cost that grows with each fragment kept, FRAGMENT_COST_MS per write and fragment, is cheapest every
 * √(2·compactMs / FRAGMENT_COST_MS) writes (~45 for SciFact's 1 s, ~160 for 13 s at 217k chunks). By time alone a
 * fast writer left hundreds of fragments, which made each add, each search and the compaction itself slower, and
 * the next delay longer (SciFact: 1,000 single adds onto a bulk base took upkeep from 0.97 to 2.26 s; 5,183 from
 * empty left 333 fragments, an add ~235 ms, a search after an overwrite ~1 s). At least COMPACT_AT_FRAGMENTS + 1,
 * the count at which upkeep compacts.
 */
export function compactAfterWrites(compactMs: number): number {
  return Math.max(COMPACT_AT_FRAGMENTS + 1, Math.round(Math.sqrt((2 * compactMs) / FRAGMENT_COST_MS)));
}

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
/** One upkeep run: the KB, its rows, how long it took, and whether it compacted the table. */
export interface UpkeepRun {
  kb_id: string;
  rows: number;
  ms: number;
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
  // Enough fragments wait: an upkeep armed for later by its cost comes now.
  if (s.timer && compactionWaits(s) && s.timerAt > s.lastWriteAt) {
    clearTimeout(s.timer);
    s.timer = undefined;
  }
  arm(ctx, kbId, s);
}

/** Until this process has compacted the KB, its last upkeep's cost stands in (a full-text build alone: 20-40 % of one). */
const compactionWaits = (s: Slot) => s.writesSinceCompaction >= compactAfterWrites(s.lastCompactMs || s.lastMs);

/** The delay of the next upkeep: none once enough fragments wait, else ten times the cost of the last one. */
function nextDelay(s: Slot): number {
  return compactionWaits(s) ? 0 : Math.min(MAX_DELAY_MS, Math.max(MIN_DELAY_MS, s.lastMs * DELAY_PER_COST));
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
  Pick<Slot, 'bulkWriters' | 'lastWriteAt' | 'lastSearchAt' | 'rowsSinceUpkeep' | 'writesSinceCompaction' | 'lastCompactMs' | 'timerAt'>
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
 * Rows written before any full-text index (a one-shot CLI's job, a large first write) are compacted before the
 * indexes are built while their vectors are small. Compacted later, once an index covers some fragments, LanceDB
 * compacts those apart from the rest and folds the rest into the index: the same rows cost two compactions and a
 * fold (54k chunks: 1.4 s against 0.27 s). But the ANN build then reads one fragment, and holds its whole vector
 * column: a 100 MB Markdown file (~340k chunks) peaked 50-70 MB higher compacted, 200 MB ~250-290 MB. So past
 * COMPACT_FIRST_MAX_BYTES of vectors the fragments stay as written (the next upkeep after a write compacts them).
 */
export const COMPACT_FIRST_MAX_BYTES = 64 * 1024 * 1024;

/** The bytes of `rows` vectors of the table (counted at 128 dimensions at least): what the bounds here weigh. */
function vectorBytes(table: Pick<ChunkTable, 'dim'>, rows: number): number {
  return rows * Math.max(table.dim, 128) * 4;
}

function compactFirst(table: ChunkTable, rows: number): boolean {
  return !table.vectorIndexReady && vectorBytes(table, rows) <= COMPACT_FIRST_MAX_BYTES;
}

/**
 * Up to this many bytes of vectors, a table's first full-text and ANN indexes are built at once
 * (ChunkTable.buildIndexes: the full-text build runs on one core, the ANN build takes the other); a larger table
 * gets them one after the other, so that the two builds' buffers are not held together. Measured with potion
 * (`ragdesk add`, 2 cores): 20 MB in 79 files (47k chunks, 24 MB of vectors) index builds 2.65-2.72 → 1.99-2.02 s
 * in two alternating pairs (0.2-0.45 s less in two more), the tail's RSS under the ingest's peak either way
 * (382 against 479 MB); the bench's 50,000 notes (114k chunks, 59 MB of vectors) peaked at 583 MB in the tail
 * built together, 487 MB one after the other: too near the 600 MB target.
 */
export const BUILD_TOGETHER_MAX_BYTES = 32 * 1024 * 1024;

export function buildTogether(table: Pick<ChunkTable, 'dim'>, rows: number): boolean {
  return vectorBytes(table, rows) <= BUILD_TOGETHER_MAX_BYTES;
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
    const work = !table.ftsIndexReady || force || table.needsUpkeep;
    let compacted = false;
    let rebuildFts = false;
    if (!table.ftsIndexReady) {
      compacted = compactFirst(table, rows) && (await table.fragments()) > 1;
      if (compacted) await compact(s, table);
      const vectorRows = buildTogether(table, rows) ? await annRowsDue(table, rows) : undefined;
      await table.buildIndexes({ fts: true, ...(vectorRows !== undefined ? { vectorRows } : {}) });
    } else if (force || table.needsUpkeep) {
      compacted =
        force ||
        compactionDue({
          fragments: await table.fragments(),
          uncompactedRuns: s.uncompactedRuns,
          unindexedVectors: await table.unindexedVectors(),
        });
      // Compaction rewrites the fragments under the lock; a run without one only builds the full-text index
      // again, after the lock is let go (below), so that writes land meanwhile.
      if (compacted) await compact(s, table);
      rebuildFts = !compacted;
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
    if (work || outdated) run = { kb_id: kbId, rows, ms: 0, compacted };
  });
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

/** Compact the table under the KB's write lock, timing it for compactAfterWrites. */
async function compact(s: Slot, table: ChunkTable): Promise<void> {
  const t0 = performance.now();
  await crashDuring('upkeep', table.optimize());
  s.lastCompactMs = performance.now() - t0;
  s.writesSinceCompaction = 0;
}

/** Fragments at most before upkeep compacts (one per single write; each adds to what a search opens). */
export const COMPACT_AT_FRAGMENTS = 32;
/**
 * Upkeep runs in a row at most that leave the fragments as they are: each leaves the full-text index it replaced
 * on disk (~26 MB at 217k chunks) until a compaction prunes the old versions, and deleted rows stay in their
 * fragments (hidden) until one.
 */
export const MAX_UNCOMPACTED_RUNS = 2;
/** Rows with vectors outside the ANN index at most (each query scans them) before upkeep compacts and folds them in. */
export const MAX_UNINDEXED_VECTORS = 5_000;

/**
 * Whether upkeep compacts the table (LanceDB's optimize(): every fragment under 1M rows rewritten as one, new rows
 * folded into the vector index, old versions pruned); otherwise it only builds the full-text index again. A single
 * write appends one small fragment, and compaction rewrites the whole table for it: on a KB of 217k chunks (100 MB
 * of Markdown, 185 MB of rows) an upkeep after a few notes took 11 s with it, the full-text build alone ~5 s, and a
 * search over 200 small fragments cost ~1.5x one over a compacted table (32: no difference measured).
 */
export function compactionDue(t: { fragments: number; uncompactedRuns: number; unindexedVectors: number }): boolean {
  return t.fragments > COMPACT_AT_FRAGMENTS || t.uncompactedRuns >= MAX_UNCOMPACTED_RUNS || t.unindexedVectors > MAX_UNINDEXED_VECTORS;
}

/** The vectors to build the ANN index over when the table needs one (none yet, or an outdated kind), else undefined. */
async function annRowsDue(table: ChunkTable, rows: number): Promise<number | undefined> {
  if (table.dim <= 0 || (table.vectorIndexReady && !table.vectorIndexOutdated) || rows < ANN_MIN_ROWS) return undefined;
  const withVectors = await table.count('vector IS NOT NULL');
  return withVectors >= ANN_MIN_ROWS ? withVectors : undefined;
}
