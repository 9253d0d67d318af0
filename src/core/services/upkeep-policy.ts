import type { ChunkTable } from '../store/chunk-table.js';

/*
 * When upkeep (services/indexing.ts) compacts a KB's table, and how it builds the first indexes: the bounds and the
 * costs they weigh, measured on this project's benches (docs/benchmarks.md).
 */

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
 * Rows written before any full-text index (a one-shot CLI's job, a large first write) are compacted before the
 * indexes are built while their vectors are small. Compacted later, once an index covers some fragments, LanceDB
 * compacts those apart from the rest and folds the rest into the index: the same rows cost two compactions and a
 * fold (54k chunks: 1.4 s against 0.27 s). But the ANN build then reads one fragment, and holds its whole vector
 * column: a 100 MB Markdown file (~340k chunks) peaked 50-70 MB higher compacted, 200 MB ~250-290 MB. So past
 * COMPACT_FIRST_MAX_BYTES of vectors the fragments stay as written (the next upkeep after a write compacts them).
 * A full-text only KB has no vectors and no ANN build: its rows are always compacted first. Left as written, the
 * first upkeep after a single write rewrote them all under the write lock (no base fragment for store/tail-fold.ts
 * to keep): an agent's add after a 100 MB `ragdesk add` (217k chunks) waited 18-23 s for it, now ~5 s; the `add`
 * took as long, its peak RSS +45 MB (200 MB of Markdown: 390 → 507-511 MB, the compaction's buffers). Past the
 * bound with vectors, building the ANN index over the fragments as written and compacting after it (LanceDB carries
 * the index over) was tried: the 200 MB file with potion peaked at 574-586 MB against 480-504, +15 s. Not kept:
 * too near the 600 MB target; such a table is still compacted whole by its first upkeep after a write.
 */
export const COMPACT_FIRST_MAX_BYTES = 64 * 1024 * 1024;

/** The bytes of `rows` vectors of the table (counted at 128 dimensions at least): what the bounds here weigh. */
function vectorBytes(table: Pick<ChunkTable, 'dim'>, rows: number): number {
  return rows * Math.max(table.dim, 128) * 4;
}

/**
 * Whether upkeep compacts a table before its first indexes. `vectors`: whether the KB has an embedding model (its
 * table may have no vector column yet, when its first rows were written before the model loaded).
 */
export function compactFirst(table: Pick<ChunkTable, 'dim' | 'vectorIndexReady'>, rows: number, vectors: boolean): boolean {
  if (!vectors) return true;
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
 * Whether upkeep compacts the table (ChunkTable.optimize: the rows outside a base fragment folded into one, else
 * LanceDB's every fragment under 1M rows rewritten as one; new rows folded into the vector index, old versions
 * pruned); otherwise it only builds the full-text index again. A single write appends one small fragment, and
 * LanceDB's compaction alone rewrote the whole table for it: on a KB of 217k chunks (100 MB of Markdown, 185 MB of
 * rows) an upkeep after a few notes took 11 s with it, the full-text build alone ~5 s, and a search over 200 small
 * fragments cost ~1.5x one over a compacted table (32: no difference measured).
 */
export function compactionDue(t: { fragments: number; uncompactedRuns: number; unindexedVectors: number }): boolean {
  return t.fragments > COMPACT_AT_FRAGMENTS || t.uncompactedRuns >= MAX_UNCOMPACTED_RUNS || t.unindexedVectors > MAX_UNINDEXED_VECTORS;
}
