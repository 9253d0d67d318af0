import type { DeltaRows } from './delta-rows.js';

/** The lexical state a snapshot was taken in: rows below `watermark` are indexed; caches are keyed by `epoch`. */
export interface LexicalView {
  watermark: bigint;
  epoch: number;
  /**
   * Every row of the pinned version is below the watermark (nothing written since the index was brought up to
   * date): the delta is known to be empty, so it is not scanned and the index is read without a row filter.
   * Known from this process's own commits (one owner writes a data dir: the writer lock).
   */
  complete: boolean;
  /**
   * The index's own statistics are those of the live indexed rows: no row it counted has been deleted or
   * rewritten since. LanceDB keeps a removed row in its row count, lengths and document frequencies, even
   * through `optimize()` (measured), so once a row goes this stays false until the index is built again (upkeep).
   * A new process knows it from the table's record (exact-stats-mark.ts) or a history that shows no row went
   * (see `appendOnly`).
   */
  exactStats: boolean;
  /**
   * The index at the pinned version holds no row at or above the watermark, so that a query of the index alone
   * (`fastSearch`) needs no row filter to keep to the indexed part: the version is known to hold the index the state
   * describes (a build beside writes may commit an index over rows above the watermark before the state follows it,
   * rebuildFtsBeside, and a write in between puts that index in the versions searches pin), and no compaction folded
   * such rows in (foldedIn).
   */
  indexBelowOnly: boolean;
  /** The rows at or above the watermark of the pinned version, read once for every search of it (none: complete). */
  delta?: DeltaRows;
}

/**
 * Whether LanceDB's scores in `view`'s state bound the rows a full-text list leaves behind (LexicalBound): its
 * statistics are the live indexed rows', or there is no index and every row is scanned.
 */
export function boundsRowsLeft(view: LexicalView): boolean {
  return view.exactStats || view.watermark === 0n;
}
