import type { Table } from '@lancedb/lancedb';
import { plainRows, type Raw } from './chunk-rows.js';
import { scanDelta, tallyDelta, type DeltaPart } from './lexical-queries.js';

/**
 * The rows of one pinned table version that its full-text index does not cover yet (at or above the watermark:
 * lexical-index.ts), read once and kept for every search of that version (a TableSnapshot lives as long as its
 * version is the latest). Each search counts its terms in them, and each deeper read of a search counted them
 * again: LanceDB 0.31 skips no fragment for an address filter, so a scan of them took 25-30 ms at 1M chunks even for
 * one row, and the two reads here ~12 ms (its row ids, ~10 ms, then the rows by id).
 */

/** Past this many rows the delta is scanned by each search as before (kept, their text would take memory). */
export const MAX_KEPT_DELTA_ROWS = 2_048;

const DELTA_COLUMNS = ['chunk_id', 'doc_id', 'chunk_index', 'fts', 'fts_len'];

export class DeltaRows {
  private rows: Promise<Raw[] | undefined> | undefined;
  private released = false;

  constructor(
    /** Pinned at one version (a snapshot's handle). */
    private readonly table: Table,
    private readonly watermark: bigint,
  ) {}

  /** The delta's statistics for `terms`, and its rows holding any of them that pass `where`. */
  async part(terms: ReadonlySet<string>, where: string | undefined): Promise<DeltaPart> {
    const rows = this.released
      ? undefined
      : await (this.rows ??= this.read().catch((err: unknown) => {
          this.rows = undefined;
          throw err;
        }));
    if (!rows) return scanDelta(this.table, terms, this.watermark, where);
    const out = tallyDelta(rows, terms);
    if (where && out.candidates.length > 0) {
      const passing = await this.passing(
        out.candidates.map((c) => c.rowid!),
        where,
      );
      out.candidates = out.candidates.filter((c) => passing.has(c.rowid!));
    }
    return out;
  }

  /**
   * A newer version's snapshot replaced this one: the rows are let go (a writer that commits every second leaves a
   * minute of replaced snapshots open for the searches still reading them), and those searches scan instead.
   */
  release(): void {
    this.released = true;
    this.rows = undefined;
  }

  /** The delta's rows, or undefined past MAX_KEPT_DELTA_ROWS: their row ids by a scan, then the rows by id. */
  private async read(): Promise<Raw[] | undefined> {
    const ids = await this.table
      .query()
      .where(`_rowaddr >= ${this.watermark}`)
      .select([])
      .withRowId()
      .limit(MAX_KEPT_DELTA_ROWS + 1)
      .toArrow();
    if (ids.numRows > MAX_KEPT_DELTA_ROWS) return undefined;
    if (ids.numRows === 0) return [];
    const rowIds = [...(ids.getChild('_rowid') ?? [])] as bigint[];
    return plainRows(await this.table.takeRowIds(rowIds).select(DELTA_COLUMNS).withRowId().toArrow());
  }

  /** Of the rows `ids`, those that pass `where` (evaluated by LanceDB on those rows alone). */
  private async passing(ids: bigint[], where: string): Promise<Set<bigint>> {
    const rows = plainRows(
      await this.table
        .takeRowIds(ids)
        .select({ passes: `(${where})` })
        .withRowId()
        .toArrow(),
    );
    return new Set(rows.filter((r) => r.passes === true).map((r) => r._rowid as bigint));
  }
}
