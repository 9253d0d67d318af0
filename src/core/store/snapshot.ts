import type { Table } from '@lancedb/lancedb';
import { annQuery, vectorDistance, withAnnQuery, type AnnIndexKind, type FusionList } from './ann-params.js';
import { isLeanRef, leanRef, plainRows, REF_COLUMNS, toRef, toStored, type ChunkRef, type Raw, type StoredChunk } from './chunk-rows.js';
import type { LexicalIndex, LexicalPart, ScoredRead } from './lexical-index.js';
import { boundsRowsLeft, type LexicalView } from './lexical-view.js';
import { sqlString } from './sql.js';
import { andWhere } from './staged-versions.js';
import { toUnitLength } from './unit-vector.js';

/**
 * A chunk table pinned at one version: what one search reads. Every query of a search (full-text candidates
 * and statistics, vector neighbours, the hits' text) sees the same committed state, so a document replaced
 * meanwhile is seen whole in its old version or whole in its new one, and compaction or index upkeep running
 * meanwhile changes nothing it reads. Made by ChunkTable.snapshot() once per table version (cheap: LanceDB's
 * index caches are shared by the connection).
 */
export class TableSnapshot {
  constructor(
    private readonly handle: Table,
    readonly version: number,
    private readonly dim: number,
    /** The kind of the table's vector index at this version (none: undefined). */
    private readonly vectorIndex: AnnIndexKind | undefined,
    /** What a hit is read from in this table (chunk-rows.ts hitColumns): enough for toRef and toStored. */
    private readonly hitColumns: readonly string[],
    private readonly lexical: LexicalIndex,
    private readonly view: LexicalView,
    /** The filter hiding rows of writes not yet published (see staged-versions.ts); part of every query here. */
    readonly hidden?: string,
  ) {}

  /**
   * Whether a full-text search of this table alone takes LanceDB's ranking as it is (every row indexed, the index's
   * statistics the live rows'; see lexical-index.ts `part`): then its list can be lean, like a vector list.
   */
  get scoresExact(): boolean {
    return this.view.complete && this.view.exactStats;
  }

  /**
   * Whether LanceDB's full-text scores of this table bound the rows a list leaves behind (its statistics are the live
   * indexed rows', or there is no index and every row is scanned): see lexical-index.ts LexicalBound.
   */
  get lexicalBounded(): boolean {
    return boundsRowsLeft(this.view);
  }

  /**
   * What an exact BM25 ranking needs from this snapshot (see lexical-index.ts). `scoredDepth`: this table is
   * searched alone, so LanceDB's ranking may be taken as it is where its scores are exact (that many rows), read as
   * `read` says (lexical-queries.ts scoredPart: lean, fused).
   */
  lexicalPart(
    terms: string[],
    depth: number,
    where?: string,
    withRows = false,
    scoredDepth?: number,
    read: ScoredRead = {},
  ): Promise<LexicalPart> {
    const rowColumns = withRows ? this.hitColumns : undefined;
    return this.lexical.part(this.handle, this.view, terms, depth, andWhere(where, this.hidden), rowColumns, scoredDepth, read);
  }

  /**
   * Nearest chunks by cosine similarity; through the ANN index when there is one, unless `exact` (exact searches ask
   * LanceDB for `dot`, the same distance for unit vectors at half the cost: ann-params.ts vectorDistance). `withRows`: each
   * ref carries its readable columns (one read instead of a ranking then a fetch, for a list that becomes hits).
   * `fusion`: the list is one side of a hybrid search (searched with less effort: ann-params.ts); `alone`, its
   * scores come from the index's quantised distances, at their scale (only to be compared with each other).
   * `lean`: row ids and scores only (chunk-rows.ts leanRef), for a list whose hits hydrate reads after fusion.
   */
  async vectorRank(
    vector: Float32Array,
    limit: number,
    where?: string,
    options: { exact?: boolean; withRows?: boolean; fusion?: FusionList; lean?: boolean } = {},
  ): Promise<ChunkRef[]> {
    if (this.dim === 0) return [];
    const ann = !options.exact && this.vectorIndex !== undefined;
    const unit = Float32Array.from(vector);
    toUnitLength(unit);
    let q = this.handle
      .vectorSearch(Array.from(unit))
      .column('vector')
      .distanceType(vectorDistance(ann))
      .select([...(options.lean ? [] : options.withRows ? this.hitColumns : REF_COLUMNS), '_distance'])
      .withRowId()
      .limit(limit);
    // Search effort: see ann-params.ts (measured by `npm run bench`, parts ann and scale).
    if (options.exact) q = q.bypassVectorIndex();
    else if (ann) q = withAnnQuery(q, annQuery(limit, await this.rows(), options.fusion, this.vectorIndex));
    const filter = andWhere(where, this.hidden);
    if (filter) q = q.where(filter);
    const rows = plainRows(await q.toArrow());
    if (options.lean) return rows.map((r) => leanRef(r._rowid as bigint, 1 - Number(r._distance)));
    return rows.map((r) => toRef(r, 1 - Number(r._distance), options.withRows));
  }

  private rowCount: Promise<number> | undefined;
  /**
   * Rows of this version (counted once): the ANN query's probes follow the index's partition count (see
   * ann-params.ts), and a hybrid search reads its full-text list with the hits' columns only in a small table.
   */
  rows(): Promise<number> {
    return (this.rowCount ??= this.handle.countRows());
  }

  /**
   * Full rows for ranked refs, in the refs' order, carrying their scores. Rows are taken by row id (no scan);
   * a row id that no longer holds its chunk (the table was compacted in between) is looked up by chunk_id.
   */
  async hydrate(refs: Array<{ chunk_id: string; score: number; rowid?: bigint; row?: Raw }>): Promise<StoredChunk[]> {
    return (await this.hydrateEach(refs)).filter((c): c is StoredChunk => c !== undefined);
  }

  /** hydrate, one entry per ref (undefined where its row is gone): refs from lean lists are known by row id alone. */
  async hydrateEach(refs: Array<{ chunk_id: string; score: number; rowid?: bigint; row?: Raw }>): Promise<Array<StoredChunk | undefined>> {
    if (refs.length === 0) return [];
    const byId = new Map<string, Raw>();
    // Rows read with the ranking (full-text candidates, same snapshot) need no second read.
    for (const r of refs) if (r.row) byId.set(r.chunk_id, r.row);
    const withRowIds = refs.filter((r) => r.rowid !== undefined && !r.row);
    if (withRowIds.length) {
      // Refs of lean lists alone are matched by row id: their chunk ids are not read (a column less of each row:
      // ~0.4 ms of a 10-hit read at 1M chunks).
      const allLean = withRowIds.every(isLeanRef);
      try {
        const taken = plainRows(
          await this.handle
            .takeRowIds(withRowIds.map((r) => r.rowid!))
            .select(allLean ? this.hitColumns.filter((c) => c !== 'chunk_id') : [...this.hitColumns])
            .withRowId()
            .toArrow(),
        );
        const byRowId = new Map(taken.map((r) => [r._rowid as bigint, r]));
        if (!allLean) for (const r of taken) byId.set(String(r.chunk_id), r);
        // A lean ref's key is its row id: this snapshot pins the version its row id was read at.
        for (const ref of withRowIds) if (isLeanRef(ref) && byRowId.has(ref.rowid!)) byId.set(ref.chunk_id, byRowId.get(ref.rowid!)!);
      } catch {
        // stale row ids: fall through to the lookup by chunk_id
      }
    }
    const missing = refs.filter((r) => !byId.has(r.chunk_id) && !isLeanRef(r));
    if (missing.length) {
      const ids = missing.map((r) => sqlString(r.chunk_id)).join(', ');
      const rows = plainRows(
        await this.handle
          .query()
          .where(`chunk_id IN (${ids})`)
          .select([...this.hitColumns])
          .toArrow(),
      );
      for (const r of rows) byId.set(String(r.chunk_id), r);
    }
    return refs.map((ref) => {
      const r = byId.get(ref.chunk_id);
      return r ? toStored(r, ref.score) : undefined;
    });
  }

  /** A newer version's snapshot replaced this one: what it kept for its searches goes (store/delta-rows.ts). */
  retire(): void {
    this.view.delta?.release();
  }

  close(): void {
    if (this.handle.isOpen()) this.handle.close();
  }
}
