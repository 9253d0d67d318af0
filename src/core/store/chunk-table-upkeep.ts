import { ANN_INDEX, annIndexConfig } from './ann-params.js';
import { ChunkTableBase } from './chunk-table-base.js';
import { HIT_COLUMN, PACK_HIT_SQL } from './chunk-rows.js';
import { buildFts } from './fts-index.js';
import { pruneCutoff } from './prune-cutoff.js';
import { foldPlan, foldRows, rewriteRows } from './tail-fold.js';

/**
 * A chunk table's index upkeep: the full-text and ANN builds, compaction with pruning, the packed hit column of old
 * tables. Run by services/indexing.ts under the KB's write lock (the full-text build also beside writes:
 * ChunkTableBase.rebuildFtsBeside); searches meanwhile read the snapshot from before (ChunkTableBase.upkeep).
 */
export abstract class ChunkTableUpkeep extends ChunkTableBase {
  /** How long the last optimize() took (prune-cutoff.ts). */
  private lastCompactionMs = 0;
  /** The base fragment the last fold found (tail-fold.ts baseFragment). */
  private baseHint: number | undefined;

  /**
   * Add the packed hit column to a table written before it existed, computed from the separate columns by LanceDB
   * (chunk-rows.ts PACK_HIT_SQL): one commit, rows and row ids as they were, so readers and the full-text index are
   * untouched; snapshots of later versions read hits from it. Run by upkeep under the KB's write lock; searches
   * meanwhile read the snapshot from before it (the rewrite of every row takes seconds on a large table).
   */
  async packHits(): Promise<void> {
    if (this.packed) return;
    await this.upkeep(() =>
      this.commit(async () => {
        await this.table.addColumns([{ name: HIT_COLUMN, valueSql: PACK_HIT_SQL }]);
        this.schema = await this.table.schema();
      }),
    );
  }

  /**
   * Load every index of the table into LanceDB's index cache (the connection's), so that the first searches do
   * not read them piece by piece (services/warm-up.ts). Returns the indexes loaded.
   */
  async prewarmIndexes(): Promise<string[]> {
    const names = (await this.table.listIndices()).map((i) => i.name);
    for (const name of names) await this.table.prewarmIndex(name);
    return names;
  }

  async ensureFtsIndex(): Promise<void> {
    await this.buildIndexes({ fts: true });
  }

  /**
   * Build the ANN index (IVF partitions, RaBitQ codes of each vector; cosine), replacing any older one. Worth it
   * only past the size where exact search misses the latency target; the caller decides (see ANN_MIN_ROWS in
   * indexing.ts). Parameters and measurements: ann-params.ts.
   */
  async buildVectorIndex(rows: number): Promise<void> {
    await this.buildIndexes({ vectorRows: rows });
  }

  /**
   * The full-text index (`fts`: unless it covers the table already) and the ANN index over `vectorRows` vectors,
   * built at once when both are asked for: LanceDB builds the full-text index on one core (lance-runtime.ts), so
   * the ANN build takes the other meanwhile. Two LanceDB commits, each whole: a crash between them leaves one
   * index, which upkeep completes. When one build fails the other still finishes (and counts) before the error.
   * Searches meanwhile read the snapshot from before (no write can land: the builds hold the commit order), so
   * they do not wait for the builds (a search during the first builds of 40k rows waited ~1.4 s).
   */
  async buildIndexes(want: { fts?: boolean; vectorRows?: number }): Promise<void> {
    const fts = want.fts === true && !this.lexical.indexed;
    const rows = want.vectorRows;
    if (!fts && rows === undefined) return;
    await this.upkeep(() =>
      this.commit(async () => {
        const [textBuild, vectorBuild] = await Promise.allSettled([
          fts ? buildFts(this.table) : undefined,
          rows === undefined ? undefined : this.table.createIndex('vector', { config: annIndexConfig(rows), replace: true }),
        ]);
        if (fts && textBuild.status === 'fulfilled') await this.lexical.reindexed(this.table);
        if (rows !== undefined && vectorBuild.status === 'fulfilled') this.vectorIndex = ANN_INDEX;
        for (const build of [textBuild, vectorBuild]) if (build.status === 'rejected') throw build.reason;
      }),
    );
  }

  /**
   * Compact the fragments (a large table's rows outside its base fragment folded first, tail-fold.ts), fold new rows
   * into the vector index and drop deleted rows from it, and prune old versions (one optimize()), under the write
   * lock: upkeep runs it when it compacts (services/indexing.ts compactionDue). The full-text index is then built
   * again from the rows (so it covers every row and its statistics are exact): here, unless `beside` and only the
   * folded rows moved (above the watermark, where searches scan them meanwhile): the build is then left to run beside
   * writes (rebuildFtsBeside), and the result is true. When LanceDB rewrote the table every row has a new address.
   */
  async optimize(beside = false): Promise<boolean> {
    // Searches meanwhile read the last version before upkeep (`before`).
    return this.upkeep(async (before) => {
      const folded = await this.foldTail();
      // Compaction, index upkeep and pruning in one call: versions older than every open snapshot go, with the
      // cutoff set back for the time compaction takes (prune-cutoff.ts: a second call compacted the table again).
      const oldest = Math.min(before.version, ...this.retired.map((s) => s.version));
      const stamp = (await this.table.listVersions()).find((v) => v.version === oldest)?.timestamp;
      const t0 = performance.now();
      await this.table.optimize({ cleanupOlderThan: pruneCutoff(stamp?.getTime(), this.lastCompactionMs) });
      this.lastCompactionMs = performance.now() - t0;
      if (!this.lexical.indexed) return false;
      // What optimize() folded into the full-text index is not used (the build replaces it):
      // - LanceDB 0.31's folded index loses rows from limited queries: after appended rows were folded in, a top-25
      //   query left out every appended row in 4 of 6 builds (all 40 queries alike), while a top-1000 query and a
      //   fresh build had them (lexical-index.test.ts);
      // - its statistics keep rows removed since the build, which a fresh build counts no more (exact BM25).
      this.lexical.foldedIn();
      if (folded && beside) return true;
      await this.commit(async () => {
        await buildFts(this.table);
        await this.lexical.reindexed(this.table);
      });
      return false;
    });
  }

  /**
   * Prune every version before the current one, once nothing reads them: when the process closes (Core.close, after
   * its last upkeep and writes), and only a settled table (one fragment, every row in its indexes, no document
   * staged), for which LanceDB's optimize() has nothing to compact or fold, commits nothing and only deletes files.
   * Upkeep's own pruning keeps the versions open snapshots may read (prune-cutoff.ts), so the rows a compaction
   * rewrote stayed on disk beside their copy until the next compaction: a 200 MB Markdown file `ragdesk add`ed into a
   * full-text KB left 965 MB instead of ~610. Returns the bytes removed.
   */
  async pruneSettled(): Promise<number> {
    return this.commit(async () => {
      if (this.staged.size > 0 || (await this.fragments()) !== 1) return 0;
      if ((await this.unindexedRows()) > 0 || (await this.unindexedVectors()) > 0) return 0;
      const versions = await this.table.listVersions();
      const current = versions.at(-1);
      if (!current || versions.length < 2) return 0;
      const stats = await this.table.optimize({ cleanupOlderThan: current.timestamp });
      return stats.prune.bytesRemoved;
    });
  }

  /**
   * Write the rows outside the table's base fragment back as one fragment (tail-fold.ts), so that the compaction
   * after it leaves the base as it is: when an index covers the base (else LanceDB compacts the two together) and
   * there is a base and few rows outside it. For the lexical state those rows go and come back above the watermark.
   */
  private async foldTail(): Promise<boolean> {
    if (!this.lexical.indexed && !this.vectorIndex) return false;
    return this.commit(async () => {
      const plan = await foldPlan(this.table, await this.table.countRows(), this.baseHint);
      this.baseHint = plan?.base;
      if (!plan) return false;
      if (plan.rows === 0) return true;
      const rows = await foldRows(this.table, plan);
      if (!rows) return false;
      const gone = await this.lexical.removing(this.table, plan.where);
      await rewriteRows(this.table, rows);
      this.lexical.removed(gone);
      this.lexical.appended();
      return true;
    });
  }

  /** Rows with a vector that the ANN index does not cover yet (searched exactly, each query), 0 without one. */
  async unindexedVectors(): Promise<number> {
    if (!this.vectorIndex) return 0;
    // LanceDB names an index after its column: buildIndexes makes 'vector_idx' (as buildFts makes 'fts_idx').
    return (await this.table.indexStats('vector_idx'))?.numUnindexedRows ?? 0;
  }

  async unindexedRows(): Promise<number> {
    if (!this.lexical.indexed) return await this.table.countRows();
    const stats = await this.table.indexStats('fts_idx');
    return stats?.numUnindexedRows ?? 0;
  }
}
