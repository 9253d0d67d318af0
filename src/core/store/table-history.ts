import type { Table } from '@lancedb/lancedb';

/*
 * What a LanceDB table's version history and row addresses tell about its rows (lexical-index.ts reads them to
 * know which rows its full-text index covers and whether the index's statistics are the live rows').
 */

/**
 * Whether no row was ever removed from the table (so an index over it, however built and folded, counts only
 * live rows), from LanceDB's version history: every version since the first kept, none with deleted rows or fewer
 * fragments than the one before, and fragment ids 0..F-1 all present now. A removal shows as deleted rows, as a
 * drop in the fragment count at its version, or (a fragment dropped and others written in the same commit) as a
 * gap below the highest fragment id, which ids that only grow never fill. Compaction also lowers the count: it
 * reads as a removal (safe). A history pruned by upkeep cannot tell: false.
 */
export async function appendOnly(table: Table): Promise<boolean> {
  const current = await table.version();
  const versions = (await table.listVersions()).filter((v) => v.version <= current).sort((a, b) => a.version - b.version);
  if (versions[0]?.version !== 1) return false;
  let fragments = 0;
  for (const v of versions) {
    const f = Number(v.metadata.total_fragments ?? 0);
    const deleted = Number(v.metadata.total_deletion_file_rows ?? 0);
    if (!Number.isInteger(f) || deleted !== 0 || f < fragments) return false;
    fragments = f;
  }
  return (await endAddress(table)) === fragmentAddress(fragments);
}

/** One past the highest fragment id holding rows, as an address: `(max fragment + 1) << 32`. */
export async function endAddress(table: Table): Promise<bigint> {
  if ((await table.countRows()) === 0) return 0n;
  const atOrAbove = async (f: number) => (await rowsAtOrAbove(table, f)) > 0;
  return fragmentAddress((await lastFragmentWhere(atOrAbove)) + 1);
}

/** The address of a fragment's first row (`_rowaddr`: fragment id << 32 | offset). */
export function fragmentAddress(fragment: number): bigint {
  return BigInt(fragment) << 32n;
}

/** The rows at or above the first address of `fragment` (fragment ids only grow: the rows of it and later ones). */
export async function rowsAtOrAbove(table: Table, fragment: number): Promise<number> {
  return table.countRows(`_rowaddr >= ${fragmentAddress(fragment)}`);
}

/**
 * The last fragment id for which `holds` (true for 0, and false from some id on): an exponential then a binary search
 * over ids, one call each (counts over row addresses: ~25 ms each on a 1M-row table).
 */
export async function lastFragmentWhere(holds: (fragment: number) => Promise<boolean>): Promise<number> {
  let hi = 1;
  while (await holds(hi)) hi *= 2;
  let lo = 0;
  while (lo + 1 < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (await holds(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
