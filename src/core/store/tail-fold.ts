import type { Table } from '@lancedb/lancedb';
import type { Table as ArrowTable } from 'apache-arrow';
import { fragmentAddress, lastFragmentWhere, rowsAtOrAbove } from './table-history.js';

/*
 * Compaction that leaves a large table's base fragment as it is (ChunkTable.optimize).
 *
 * LanceDB 0.31's optimize() compacts each run of neighbouring fragments that hold fewer rows than Lance's target
 * (1,048,576) and that the same indexes cover, and its Node binding takes no options. After one compaction the
 * fragment it wrote from the single writes gets folded into the indexes, so it is covered as the base fragment is,
 * and the next compaction rewrites both: every compaction of a table under ~1.05M rows rewrote all of it (1M chunks:
 * 26-33 s under the KB's write lock; a 217k-chunk KB 13-14 s). Measured with LanceDB alone, docs/benchmarks.md.
 *
 * Instead, ragdesk writes the rows outside the base fragment back in place of themselves (one merge-insert commit
 * keyed on chunk_id: the fragments it empties are dropped, the rows land in one new fragment that no index covers
 * yet). The compaction after it then finds the base and that fragment in bins of their own, rewrites neither, and
 * folds the new rows into the indexes: the 1M table's compaction went from 26.5 to 4.6 s, plus 0.2 s for the fold.
 */

/**
 * Rows outside the base fragment at most that are folded this way. The merge-insert's memory grows with them: on the
 * 1M-chunk KB (potion) RSS rose by ~90 MB for 34 rows (its join over every chunk id), ~110 MB for 2,000 and ~320 MB
 * for 20,000 (44 MB of them read), against ~330 MB for the full-text build that follows.
 */
export const FOLD_MAX_ROWS = 10_000;

/** The rows outside fragment `base`, as a filter on row addresses (`_rowaddr`: fragment id << 32 | offset). */
export function outside(base: number): string {
  return `_rowaddr < ${fragmentAddress(base)} OR _rowaddr >= ${fragmentAddress(base + 1)}`;
}

async function rowsIn(table: Table, fragment: number): Promise<number> {
  return table.countRows(`_rowaddr >= ${fragmentAddress(fragment)} AND _rowaddr < ${fragmentAddress(fragment + 1)}`);
}

/**
 * The id of the fragment holding more than half of the table's `rows`, if one does; `hint`, the one found before,
 * is checked first (a fold leaves the base where it is). Otherwise a search over fragment ids by the rows at or
 * above each (table-history.ts lastFragmentWhere).
 */
export async function baseFragment(table: Table, rows: number, hint?: number): Promise<number | undefined> {
  if (rows === 0) return undefined;
  if (hint !== undefined && (await rowsIn(table, hint)) * 2 > rows) return hint;
  const halfAtOrAbove = async (fragment: number) => (await rowsAtOrAbove(table, fragment)) * 2 >= rows;
  // The last id with at least half the rows at or above it: the base, if there is one, is that fragment.
  const lo = await lastFragmentWhere(halfAtOrAbove);
  return (await rowsIn(table, lo)) * 2 > rows ? lo : undefined;
}

/** What a compaction folds: the rows outside fragment `base`. */
export interface Fold {
  base: number;
  /** The filter that selects them (outside). */
  where: string;
  /** How many there are. */
  rows: number;
}

/**
 * What a compaction of `table` (`rows` rows) folds: the rows outside its base fragment, when there is one and they
 * are few enough (FOLD_MAX_ROWS); else undefined, and LanceDB compacts the table its own way.
 */
export async function foldPlan(table: Table, rows: number, hint?: number): Promise<Fold | undefined> {
  const base = await baseFragment(table, rows, hint);
  if (base === undefined) return undefined;
  const where = outside(base);
  const tail = await table.countRows(where);
  return tail <= FOLD_MAX_ROWS ? { base, where, rows: tail } : undefined;
}

/**
 * The rows of `fold` as they are (staged ones included: their filter is by column), to be written back; undefined
 * when two of them share a chunk id (a merge-insert keyed on it refuses that).
 */
export async function foldRows(table: Table, fold: Fold): Promise<ArrowTable | undefined> {
  const rows = await table.query().where(fold.where).toArrow();
  const ids = rows.getChild('chunk_id');
  return ids && new Set(ids.toArray() as string[]).size === rows.numRows ? rows : undefined;
}

/**
 * Write `rows` (foldRows) back in place of themselves, in one commit: readers see each row once before and after,
 * and the fragments they leave are dropped.
 */
export async function rewriteRows(table: Table, rows: ArrowTable): Promise<void> {
  await table.mergeInsert('chunk_id').whenMatchedUpdateAll().execute(rows);
}
