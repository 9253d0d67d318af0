import type { Connection, Table } from '@lancedb/lancedb';
import type { Schema } from 'apache-arrow';
import { buildArrowColumns } from './arrow-build.js';
import { ANN_INDEX, annIndexKind, type AnnIndexKind } from './ann-params.js';
import { chunkColumn, hasHitColumn, hitColumns, type ChunkRef, type ChunkRow, type StoredChunk } from './chunk-rows.js';
import type { ExactStatsMark } from './exact-stats-mark.js';
import { LexicalIndex, type LexicalPart } from './lexical-index.js';
import { TableSnapshot } from './snapshot.js';
import { StagedVersions } from './staged-versions.js';
import { collectGarbage } from '../util/collect-garbage.js';
import { KeyedMutex } from '../util/keyed-mutex.js';
import { buildFts } from './fts-index.js';
import { endAddress } from './table-history.js';
import { PREWARM_MAX_ROWS, RENEW_AT_BYTES, type OwnConnection } from './lance-session.js';

/** How long a replaced snapshot stays open for the searches still reading it. */
const SNAPSHOT_GRACE_MS = 60_000;

/**
 * What every operation of a chunk table (chunk-table.ts) stands on: the LanceDB table and what is known of it (schema,
 * vector dimension and index, packed hit column, lexical state), the order its commits run in, the documents staged,
 * and the snapshots searches read (one per table version).
 */
export abstract class ChunkTableBase {
  protected schema: Schema;
  /** The kind of the table's vector index (none: undefined). */
  protected vectorIndex: AnnIndexKind | undefined;
  protected readonly lexical: LexicalIndex;

  /** Commits to this table and the lexical state that goes with them, in one order (snapshots are taken in it too). */
  protected readonly commits = new KeyedMutex();
  protected current: TableSnapshot | undefined;
  /** Documents being written in several commits: hidden from every read until published (staged-versions.ts). */
  protected readonly staged = new StagedVersions();
  /**
   * Upkeep is rewriting the table or building its indexes: searches read the snapshot taken just before (nothing
   * else writes meanwhile).
   */
  private optimizing = false;
  /** A full-text build that writes land beside (rebuildFtsBeside), until it has ended. */
  private ftsBuild: Promise<void> | undefined;
  /** Snapshots, table handles and connections replaced, closed once the searches reading them are done (closeLater). */
  private readonly replaced = new Set<{ close(): void }>();
  /** Connections renewed so far (renewConnection). */
  renewals = 0;

  protected constructor(
    protected db: Connection,
    protected table: Table,
    schema: Schema,
    protected vectorDim: number,
    hasFts: boolean,
    mark: ExactStatsMark,
    /** The table's own connection (caches of its own, renewed by renewConnection); without one, a shared one. */
    private own?: OwnConnection,
  ) {
    this.schema = schema;
    this.lexical = new LexicalIndex(hasFts, mark);
  }

  /** What the table's own connection caches, by LanceDB's accounting (0 without one: see lance-session.ts). */
  get cacheBytes(): number {
    return this.own?.cacheBytes ?? 0;
  }

  /**
   * Move the table to a new connection with empty caches once its own caches hold `atBytes` (see RENEW_AT_BYTES:
   * old indexes stay cached until LanceDB's cache is full, and then every few queries pay for the eviction). The new
   * connection's indexes are loaded first where the table is small enough (PREWARM_MAX_ROWS), off the commit order;
   * then, in it, the table's handle is swapped and the next search pins a snapshot from the new connection. Searches
   * and reads under way keep the old handles, closed a minute later. Not beside a full-text build (its handle and
   * commit are the old connection's): upkeep calls this after one. Returns whether it renewed.
   */
  async renewConnection(atBytes = RENEW_AT_BYTES): Promise<boolean> {
    const own = this.own;
    if (!own || this.ftsBuild || own.cacheBytes < atBytes) return false;
    const fresh = await own.reopen();
    let table: Table | undefined;
    try {
      table = await fresh.db.openTable(this.table.name);
      if ((await table.countRows()) <= PREWARM_MAX_ROWS)
        for (const index of await table.listIndices()) await table.prewarmIndex(index.name);
      const next = table;
      return await this.commits.run('commit', async () => {
        if (this.ftsBuild || this.own !== own) return false;
        // Commits landed while the indexes loaded: the new handle shows them too.
        await next.checkoutLatest();
        const old = this.table;
        [this.db, this.table, this.own] = [fresh.db, next, fresh];
        this.retireCurrent();
        this.closeLater(old);
        // The old connection's caches are freed only once V8 collects its Session's JS object (lance-session.ts
        // close): a collection right after it closes, else they stay until the next full one, however long that is.
        this.closeLater(own, collectGarbage);
        this.renewals++;
        return true;
      });
    } finally {
      if (this.own !== fresh) {
        if (table?.isOpen()) table.close();
        fresh.close();
      }
    }
  }

  /** Snapshots replaced and still open for the searches reading them (optimize prunes no version they pin). */
  protected get retired(): TableSnapshot[] {
    return [...this.replaced].filter((h): h is TableSnapshot => h instanceof TableSnapshot);
  }

  /**
   * Close `handle` a minute from now (searches still reading it finish first), then run `closed`; or with the
   * snapshots (closeSnapshots).
   */
  private closeLater(handle: { close(): void }, closed?: () => void): void {
    this.replaced.add(handle);
    setTimeout(() => {
      if (!this.replaced.delete(handle)) return;
      handle.close();
      closed?.();
    }, SNAPSHOT_GRACE_MS).unref();
  }

  /**
   * Run a commit and the state change that goes with it, in the table's commit order. The lexical state is worked
   * out on the version before this process's first commit: worked out after a write instead, the index would no
   * longer cover every row, so every row would count as unindexed (and be scanned by each search) until upkeep ran.
   */
  protected commit<T>(work: () => Promise<T>): Promise<T> {
    return this.commits.run('commit', async () => {
      await this.lexical.settle(this.table);
      return work();
    });
  }

  /**
   * Run upkeep (`optimize`, index builds) while searches read the snapshot taken just before it, which `work` gets:
   * they neither wait for it nor see a version it makes half-way.
   */
  protected async upkeep<T>(work: (before: TableSnapshot) => Promise<T>): Promise<T> {
    // Not beside a build that writes land beside: compaction and index builds would conflict with its commit.
    await this.ftsBuild;
    const before = await this.snapshot();
    this.optimizing = true;
    try {
      return await work(before);
    } finally {
      this.optimizing = false;
    }
  }

  /**
   * The table pinned at its current version, for one search (see TableSnapshot). One snapshot per version is
   * kept; the one it replaces is closed a minute later (searches still reading it finish first).
   */
  async snapshot(): Promise<TableSnapshot> {
    if (this.optimizing && this.current) return this.current;
    return this.commit(async () => {
      const version = await this.table.version();
      const hidden = this.staged.hidden();
      if (this.current?.version === version && this.current.hidden === hidden) return this.current;
      const pinned = await this.db.openTable(this.table.name);
      await pinned.checkout(version);
      const view = await this.lexical.view(pinned, version);
      const snap = new TableSnapshot(
        pinned,
        version,
        this.vectorDim,
        this.vectorIndex,
        hitColumns(this.packed),
        this.lexical,
        view,
        hidden,
      );
      this.retireCurrent();
      this.current = snap;
      return snap;
    });
  }

  /** The current snapshot is replaced: it is closed a minute later (searches still reading it finish first). */
  private retireCurrent(): void {
    const old = this.current;
    this.current = undefined;
    if (!old) return;
    old.retire();
    this.closeLater(old);
  }

  /**
   * Build the full-text index again from the table as it is now while writes go on: upkeep that does not compact
   * (services/indexing.ts) runs it after letting the KB's write lock go, so a write that comes meanwhile does not
   * wait for an O(table) build (~5 s at 217k chunks, ~13 s at 1M). Called under the write lock, it reads the table's
   * version and that version's end address there, starts the build on a table handle of its own (which stays at
   * that version: LanceDB does not refresh a handle by itself) and returns; `done` settles when the build has
   * committed (LanceDB rebases an index commit over appends, deletes and merge-inserts; a rollback's restore makes
   * it fail) and the lexical state follows it (LexicalIndex.beginRebuild/endRebuild). Searches meanwhile read the
   * writes as they land, and count statistics instead of taking LanceDB's. `committed` runs between LanceDB's
   * commit of the index and the lexical state following it (tests hold that window open).
   */
  async rebuildFtsBeside(committed?: () => Promise<void>): Promise<{ done: Promise<void> }> {
    await this.ftsBuild;
    const handle = await this.commit(async () => {
      const opened = await this.db.openTable(this.table.name);
      try {
        this.lexical.beginRebuild(await endAddress(opened), await opened.version());
      } catch (err) {
        opened.close();
        throw err;
      }
      return opened;
    });
    const done = (async () => {
      let built = false;
      try {
        await buildFts(handle);
        built = true;
        await committed?.();
      } finally {
        handle.close();
        try {
          await this.commits.run('commit', () => this.rebuildEnded(built));
        } finally {
          this.ftsBuild = undefined;
        }
      }
    })();
    this.ftsBuild = done.catch(() => undefined);
    return { done };
  }

  /** The lexical state follows a build beside writes that committed (`built`) or did not (in the commit order). */
  private async rebuildEnded(built: boolean): Promise<void> {
    this.retireCurrent();
    try {
      // The table's own handle sees the index commit only once it looks (or writes again).
      if (built) await this.table.checkoutLatest();
      await this.lexical.endRebuild(this.table, built);
    } catch (err) {
      // Which index the table's handle shows is not known: the state is worked out again from the table.
      this.lexical.reset(true);
      await this.lexical.endRebuild(this.table, false);
      throw err;
    }
  }

  /** A full-text build beside writes is under way (rebuildFtsBeside). */
  get ftsRebuilding(): boolean {
    return this.ftsBuild !== undefined;
  }

  /** Close the snapshots, and what waits a minute to be closed after them (closeLater). */
  closeSnapshots(): void {
    for (const h of [...this.replaced, ...(this.current ? [this.current] : [])]) h.close();
    this.replaced.clear();
    this.current = undefined;
  }

  /** Close the snapshots, the table's handle and its own connection (the store is closing, or the table is dropped). */
  close(): void {
    this.closeSnapshots();
    if (this.table.isOpen()) this.table.close();
    this.own?.close();
  }

  /** The physical table name. */
  get name(): string {
    return this.table.name;
  }

  /** Vector dimension; 0 while the table has no vector column yet. */
  get dim(): number {
    return this.vectorDim;
  }

  get vectorIndexReady(): boolean {
    return this.vectorIndex !== undefined;
  }

  /** The table has a vector index of an older kind than ragdesk builds now (upkeep builds it again: indexing.ts). */
  get vectorIndexOutdated(): boolean {
    return this.vectorIndex !== undefined && this.vectorIndex !== ANN_INDEX;
  }

  /**
   * The table has the packed hit column (chunk-rows.ts HIT_COLUMN). A table created before it existed is read
   * through its separate columns until upkeep adds it (packHits).
   */
  protected get packed(): boolean {
    return hasHitColumn(this.schema);
  }

  /** The table was written before the packed hit column existed and has not got it yet (upkeep adds it: packHits). */
  get hitsUnpacked(): boolean {
    return !this.packed;
  }

  /**
   * What an older ragdesk left that upkeep brings up to date, once (services/indexing.ts): the packed hit column
   * missing, or a vector index of an older kind.
   */
  get upgradeDue(): boolean {
    return this.hitsUnpacked || this.vectorIndexOutdated;
  }

  /** The kind of the table's vector index, if it has one. */
  get vectorIndexKind(): AnnIndexKind | undefined {
    return this.vectorIndex;
  }

  get ftsIndexReady(): boolean {
    return this.lexical.indexed;
  }

  /** Rows were written or removed since the full-text index was last brought up to date. */
  get needsUpkeep(): boolean {
    return this.lexical.needsUpkeep;
  }

  /** Rows were written or removed that neither the index nor a build of it under way covers (LexicalIndex.upkeepLeft). */
  get upkeepLeft(): boolean {
    return this.lexical.upkeepLeft;
  }

  /** The table's current version (a write records it first, to roll back to). */
  async version(): Promise<number> {
    return this.table.version();
  }

  /**
   * Put the table back as it was at `version`: one commit, so readers see the state before or after, never a mix.
   * Used to undo a write that failed or was cut short (the KB's write lock is held, nothing else wrote since).
   */
  async rollbackTo(version: number): Promise<void> {
    await this.commit(async () => {
      if ((await this.table.version()) === version) return;
      await this.table.checkout(version);
      await this.table.restore();
      this.schema = await this.table.schema();
      const indices = await this.table.listIndices();
      this.vectorIndex = vectorIndexOf(indices);
      this.lexical.reset(indices.some((i) => i.columns.includes('fts')));
    });
  }

  protected arrowRows(rows: ChunkRow[]) {
    const withVector = this.vectorDim > 0;
    const packed = this.packed;
    return buildArrowColumns(this.schema, rows.length, (name) => chunkColumn(rows, name, withVector, packed));
  }

  /** Rows passing `where` (staged rows not counted). */
  async count(where?: string): Promise<number> {
    return this.table.countRows(this.staged.and(where));
  }

  /** Whether a version is staged (being written, not yet published). */
  isStaged(version: string): boolean {
    return this.staged.has(version);
  }

  /**
   * What an exact BM25 ranking of `terms` needs from this table: its statistics and the rows holding a term that
   * pass `where` (see lexical-index.ts). Scores are computed by the caller, over one or several tables.
   */
  async lexicalPart(terms: string[], depth: number, where?: string): Promise<LexicalPart> {
    return (await this.snapshot()).lexicalPart(terms, depth, where);
  }

  /** Nearest chunks by cosine similarity, in the table as it is now (see TableSnapshot.vectorRank). */
  async vectorRank(vector: Float32Array, limit: number, where?: string, options: { exact?: boolean } = {}): Promise<ChunkRef[]> {
    return (await this.snapshot()).vectorRank(vector, limit, where, options);
  }

  /** Full rows for ranked refs, in the refs' order, from the table as it is now (see TableSnapshot.hydrate). */
  async hydrate(refs: Array<{ chunk_id: string; score: number; rowid?: bigint }>): Promise<StoredChunk[]> {
    return (await this.snapshot()).hydrate(refs);
  }

  async vectorSearch(vector: Float32Array, limit: number, where?: string, options: { exact?: boolean } = {}): Promise<StoredChunk[]> {
    return this.hydrate(await this.vectorRank(vector, limit, where, options));
  }

  async sizeBytes(): Promise<number> {
    const stats = await this.table.stats();
    return stats.totalBytes;
  }

  async fragments(): Promise<number> {
    return (await this.table.stats()).fragmentStats.numFragments;
  }
}

/** The kind of the vector index among a table's indexes (an index of an unknown kind counts as the current one). */
export function vectorIndexOf(indices: Array<{ columns: string[]; indexType: string }>): AnnIndexKind | undefined {
  const index = indices.find((i) => i.columns.includes('vector'));
  return index ? (annIndexKind(index.indexType) ?? ANN_INDEX) : undefined;
}
