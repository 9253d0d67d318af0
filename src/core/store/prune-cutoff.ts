/**
 * When upkeep may prune a chunk table's old versions, in the same `optimize()` call that compacts it.
 *
 * LanceDB's Node `optimize()` compacts, folds rows into the indexes and prunes in one call, and compaction merges
 * every fragment of a table under ~1M rows (it cannot be told a target size). Upkeep used to call it twice: once
 * pruning nothing, then once more to prune. That second call compacted again: the first leaves the rows the
 * full-text index covered and those appended since in two fragments, which it then merged. On a 219k-chunk KB
 * that was a second whole rewrite of the table, 2.7 of the upkeep's ~9 s, all under the KB's write lock.
 *
 * LanceDB turns the cutoff into an age when called and measures it from the end of compaction. So a version is
 * pruned when it is older than `cutoff` plus the time compaction took. The cutoff is therefore set back by more
 * than compaction can take: four times the last one, and at least PRUNE_ALLOWANCE_MIN_MS. A version an open
 * snapshot reads is then pruned only by a compaction that takes that much longer than the one before it. What is
 * not pruned by this pass is pruned by the next.
 */

/** Versions this much older than the oldest open snapshot are kept too (for the clock each call runs on). */
export const PRUNE_MARGIN_MS = 30_000;
/** The least the cutoff is set back for the time compaction takes. */
export const PRUNE_ALLOWANCE_MIN_MS = 60_000;
/** The cutoff is set back by this many times the last compaction's duration, when that is more. */
export const PRUNE_ALLOWANCE_FACTOR = 4;

/**
 * The `cleanupOlderThan` to pass to `optimize()`. `oldestOpenMs` is the timestamp of the oldest version a snapshot
 * may still read (undefined: unknown, then now). `lastCompactionMs` is how long the table's last optimize() took
 * (0: none yet in this process).
 */
export function pruneCutoff(oldestOpenMs: number | undefined, lastCompactionMs: number, now = Date.now()): Date {
  const allowance = Math.max(PRUNE_ALLOWANCE_MIN_MS, PRUNE_ALLOWANCE_FACTOR * lastCompactionMs);
  return new Date((oldestOpenMs ?? now) - PRUNE_MARGIN_MS - allowance);
}
