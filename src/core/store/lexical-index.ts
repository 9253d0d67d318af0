import type { Table } from '@lancedb/lancedb';
import { dfsFromScores, emptyStats } from './bm25.js';
import { plainRows, type Raw } from './chunk-rows.js';
import { DeltaRows } from './delta-rows.js';
import { ExactStatsMark } from './exact-stats-mark.js';
import {
  CANDIDATE_COLUMNS,
  LEAN_CANDIDATE_COLUMNS,
  candidate,
  countedDf,
  derivedDf,
  FTS_COLUMN,
  goneRows,
  scoredPart,
  type GoneRows,
  type LexCandidate,
  type LexicalBound,
  type LexicalPart,
  type ScoredRead,
} from './lexical-queries.js';
import { boundsRowsLeft, type LexicalView } from './lexical-view.js';
import { appendOnly, endAddress } from './table-history.js';

export type { LexCandidate, LexicalBound, LexicalPart, ScoredRead } from './lexical-queries.js';

/**
 * Full-text ranking that is right after every write, whatever state LanceDB's index is in.
 *
 * What LanceDB 0.31 does (measured, see docs/benchmarks.md): its FTS index covers the rows present when it was
 * built or last optimized. Rows written later are "unindexed": a plain search scores them by a flat scan that
 * misses terms the index has never seen and normalises by the wrong lengths; rows deleted later stay in the
 * index's statistics, and a limited query of an index that `optimize()` folded rows into can leave the folded rows
 * out. So upkeep (services/indexing.ts) compacts the table and builds the index again from its rows, O(table)
 * per run, in the background; every search ranks exactly meanwhile:
 *
 * - The index covers every row whose address (`_rowaddr`: fragment id << 32 | offset) is below the watermark
 *   `W` taken when it was built: fragment ids only grow, so later writes land at or above `W`.
 * - Indexed part: candidates from the index alone (`fastSearch`, prefiltered to `_rowaddr < W`); its statistics
 *   (rows, total length, and each query term's document frequency) are exact for the live rows and are cached
 *   until a write removes indexed rows. A term's document frequency is read off LanceDB's own score for the term
 *   alone (one row: `dfFromScore`) while the index's statistics are known to be the live rows' (`exactStats`);
 *   otherwise it is counted through the index (every posting: 100-470 ms for a common term at 1M rows).
 * - Delta (`_rowaddr >= W`): scanned, every row's terms counted here.
 * - Each candidate is scored with the union's statistics (bm25.ts), the formula LanceDB uses: the ranking equals
 *   a freshly built index's, give or take float rounding. Searches over several KBs add their statistics up.
 * - When every row is indexed and the statistics are exact, that is LanceDB's own ranking: a search of one table
 *   then takes it as it comes (one query for the rows and their scores; `part`'s `scoredDepth`).
 */

/** The bound of a part that left no row behind. */
const nothingLeft = (): LexicalBound => ({ indexed: emptyStats(), full: false, lowest: 0 });

/**
 * The lexical state of one chunk table (shared by its snapshots): the watermark, and cached statistics of the
 * indexed part. Changes to the state happen with the table's commits (ChunkTable serialises both), so a
 * snapshot's view always describes the data its version holds.
 */
export class LexicalIndex {
  /** Rows below this address are in the FTS index; 0 while there is none (every row is then scanned). */
  private watermark = 0n;
  /** Whether `watermark` was established in this process (else it is worked out from a snapshot). */
  private known = false;
  /** Bumped whenever indexed rows may have gone (deleted, replaced, updated, rolled back) or the index changed. */
  private epoch = 0;
  private base: { epoch: number; docs: number; tokens: number } | undefined;
  private readonly df = new Map<string, { epoch: number; n: number }>();
  private dirty = false;
  /** See LexicalView.exactStats. */
  private exactStats = false;
  /** Document frequencies read off the index's score for the term alone, counted through it, or read off a search's candidates. */
  readonly dfReads = { derived: 0, counted: 0, fromRows: 0 };
  /** Commits that appended rows, removed rows, or rolled the table back, counted for a build beside writes. */
  private readonly changes = { appends: 0, removals: 0, resets: 0 };
  /** A build of the index that writes land beside (beginRebuild): its watermark, and the changes counted when it read the table. */
  private rebuild: { watermark: bigint; version: number; appends: number; removals: number; resets: number } | undefined;
  /** See foldedIn. */
  private foldedAbove = false;

  constructor(
    private hasIndex: boolean,
    /** This process's record that the index's statistics are exact, kept across restarts (exact-stats-mark.ts). */
    private readonly mark = new ExactStatsMark(undefined),
  ) {}

  get indexed(): boolean {
    return this.hasIndex;
  }

  /** Whether rows were written or removed since the index was last brought up to date (upkeep has work to do). */
  get needsUpkeep(): boolean {
    return this.dirty;
  }

  /**
   * Whether upkeep has work left that a build beside writes now under way (beginRebuild) will not do: rows were
   * written or removed since it read the table. An upkeep that comes meanwhile (its timer fired during the build)
   * took needsUpkeep for it, built the index again right after, and searches meanwhile lost LanceDB's statistics as
   * exact, so a search over several KBs read to the fixed depth again (a CI run: the five best rows missing).
   */
  get upkeepLeft(): boolean {
    const r = this.rebuild;
    const covered = r && r.appends === this.changes.appends && r.removals === this.changes.removals && r.resets === this.changes.resets;
    return this.dirty && !covered;
  }

  /** Rows were appended (they land above the watermark: nothing cached changes). */
  appended(): void {
    this.dirty = true;
    this.changes.appends++;
  }

  /**
   * Before a commit that removes or rewrites rows: the index's statistics stop being exact with it. With the
   * commit's `predicate` (and the chunk ids it keeps of those), the indexed rows it removes are read first when
   * statistics of the state are cached, for `removed` to carry them over (else each term is counted again through
   * the index after every overwrite: 5-15 ms a term on SciFact, 100-470 ms for a common one at 1M rows).
   */
  async removing(table?: Table, predicate?: string, kept?: ReadonlySet<string>): Promise<GoneRows | undefined> {
    this.exactStats = false;
    this.changes.removals++;
    this.mark.clear();
    if (!table || predicate === undefined || this.watermark === 0n || this.base?.epoch !== this.epoch) return undefined;
    return goneRows(table, predicate, this.watermark, kept);
  }

  /**
   * Indexed rows may have been deleted or rewritten: cached statistics of the indexed part are stale, unless
   * `gone` says what went (read by `removing` in the same commit): they are then carried over without it.
   */
  removed(gone?: GoneRows): void {
    this.dirty = true;
    const from = this.epoch++;
    this.exactStats = false;
    if (!gone || this.base?.epoch !== from) return;
    this.base = { epoch: this.epoch, docs: this.base.docs - gone.docs, tokens: this.base.tokens - gone.tokens };
    for (const [term, e] of this.df) if (e.epoch === from) this.df.set(term, { epoch: this.epoch, n: e.n - (gone.df.get(term) ?? 0) });
  }

  /** optimize() folded rows at or above the watermark into the index: a query of it keeps below until it is rebuilt. */
  foldedIn(): void {
    this.foldedAbove = true;
  }

  /**
   * After the index was built from the table's rows (nothing written meanwhile: the KB's write lock is held):
   * every row present is indexed, so the watermark moves past the last fragment, and as a build counts the live
   * rows only, its statistics are exact (recorded for the next start).
   */
  async reindexed(table: Table): Promise<void> {
    this.hasIndex = true;
    this.epoch++;
    const stats = await table.indexStats('fts_idx');
    if (stats && stats.numUnindexedRows === 0) {
      this.watermark = await endAddress(table);
      this.dirty = false;
    }
    this.exactStats = true;
    this.known = true;
    this.foldedAbove = false;
    this.mark.set(await table.version());
  }

  /**
   * A build of the index from the table as it is now starts, and writes may land while it runs (upkeep without the
   * write lock: ChunkTable.rebuildFtsBeside). `watermark`: the end address of the rows it reads, at `version`. The
   * build commits a later version, so a snapshot pinned at `version` or before holds the old index, and its view is
   * the state's as before the build. A version written meanwhile may hold the new index or the old one, so its view
   * takes no LanceDB statistics as exact: frequencies are counted below the old watermark, which both indexes cover.
   */
  beginRebuild(watermark: bigint, version: number): void {
    this.rebuild = { watermark, version, ...this.changes };
  }

  /**
   * The build begun by beginRebuild ended, committed (`built`) or not, and `table` now shows the table's latest
   * version. Committed: the rows it read are indexed, so the watermark moves to their end; rows appended meanwhile
   * lie above it (fragment ids only grow) and wait for the next upkeep; its statistics are exact unless a row went
   * meanwhile (the build counted it). A rollback meanwhile restored a version without the new index, or made the
   * build fail: the state is worked out again from the table (reset did that).
   */
  async endRebuild(table: Table, built: boolean): Promise<void> {
    const r = this.rebuild;
    this.rebuild = undefined;
    if (!r || !built || this.changes.resets !== r.resets) return;
    const exact = this.changes.removals === r.removals;
    this.hasIndex = true;
    this.epoch++;
    this.known = true;
    this.watermark = r.watermark;
    this.foldedAbove = false;
    this.exactStats = exact;
    this.dirty = !exact || this.changes.appends !== r.appends;
    if (exact) this.mark.set(await table.version());
  }

  /** Exact statistics, as this process's record or the version history shows them (see ExactStatsMark). */
  private async recordedExact(table: Table): Promise<boolean> {
    return this.mark.holds(await table.version()) || (await appendOnly(table));
  }

  /** After a rollback: forget what was cached and work the state out again. */
  reset(hasIndex: boolean): void {
    this.changes.resets++;
    this.mark.clear();
    this.hasIndex = hasIndex;
    this.known = false;
    this.epoch++;
    this.dirty = true;
    this.exactStats = false;
  }

  /** Work the state out now, on `table` as it is, if it is not known yet (before a commit changes the table). */
  async settle(table: Table): Promise<void> {
    if (!this.known) await this.view(table);
  }

  /**
   * The state for a snapshot just pinned at the table's current version, `version` (called in the table's commit
   * order).
   */
  async view(pinned: Table, version?: number): Promise<LexicalView> {
    if (!this.known) {
      this.known = true;
      if (!this.hasIndex) {
        this.watermark = 0n;
        this.dirty ||= (await pinned.countRows()) > 0;
      } else {
        const stats = await pinned.indexStats('fts_idx');
        // With rows left unindexed we cannot tell which: every row is scanned until upkeep has run (needsUpkeep).
        if (stats && stats.numUnindexedRows === 0) this.watermark = await endAddress(pinned);
        else {
          this.watermark = 0n;
          this.dirty = true;
        }
        this.exactStats = this.watermark > 0n && (await this.recordedExact(pinned));
      }
    }
    const complete = this.watermark > 0n && !this.dirty;
    // Searches of the version a build beside writes read, while it runs (nothing written since), keep the bound on the
    // rows a list leaves behind (lexical-depth.ts): without it a search over several KBs reads to a fixed depth.
    const ownIndex = this.rebuild === undefined || (version !== undefined && version <= this.rebuild.version);
    return {
      watermark: this.watermark,
      epoch: this.epoch,
      complete,
      exactStats: this.exactStats && this.watermark > 0n && ownIndex,
      indexBelowOnly: ownIndex && !this.foldedAbove,
      ...(complete ? {} : { delta: new DeltaRows(pinned, this.watermark) }),
    };
  }

  /** The row filter selecting the indexed part of a view (none when every row is indexed). */
  private static below(view: LexicalView): string | undefined {
    return view.complete ? undefined : `_rowaddr < ${view.watermark}`;
  }

  /**
   * The row filter that keeps a query of the index alone to the indexed part: none when the index holds no other row
   * (LexicalView.indexBelowOnly). LanceDB evaluates a row filter over every row of the table before it searches
   * (a 1M-chunk table: +24 ms a query).
   */
  private static indexFilter(view: LexicalView): string | undefined {
    return view.indexBelowOnly ? undefined : LexicalIndex.below(view);
  }

  private async indexedBase(table: Table, view: LexicalView): Promise<{ docs: number; tokens: number }> {
    if (this.base?.epoch === view.epoch) return this.base;
    const below = LexicalIndex.below(view);
    const lengthsQuery = table.query().select(['fts_len']);
    const [docs, lengths] = await Promise.all([table.countRows(below), (below ? lengthsQuery.where(below) : lengthsQuery).toArrow()]);
    let tokens = 0;
    const col = lengths.getChild('fts_len');
    if (col) for (const v of col) tokens += Number(v ?? 0);
    const base = { epoch: view.epoch, docs, tokens };
    if (view.epoch === this.epoch) this.base = base;
    return base;
  }

  /** Live indexed rows holding `term`: read off the index's score when its statistics are exact, else counted. */
  private async indexedDf(table: Table, view: LexicalView, term: string, base: { docs: number; tokens: number }): Promise<number> {
    const hit = this.df.get(term);
    if (hit?.epoch === view.epoch) return hit.n;
    const derived = view.exactStats ? await derivedDf(table, term, base) : undefined;
    if (derived !== undefined) this.dfReads.derived++;
    else this.dfReads.counted++;
    const n = derived ?? (await countedDf(table, term, base.docs, LexicalIndex.indexFilter(view)));
    this.remember(view, term, n);
    return n;
  }

  /** Keep a term's count for the state `view` describes, unless the table has moved on since. */
  private remember(view: LexicalView, term: string, n: number): void {
    if (view.epoch !== this.epoch) return;
    if (this.df.size > 50_000) this.df.clear();
    this.df.set(term, { epoch: view.epoch, n });
  }

  /**
   * Statistics of the whole table for `terms` and the rows holding any of them that pass `where`: every such
   * row of the delta, and the index's best `depth` (by its own, possibly stale, scores) of the indexed part.
   * `table` is pinned at the version `view` was taken for. With `rowColumns` (the table's hit columns: chunk-rows.ts
   * hitColumns), candidates of the indexed part carry their rows (worth it when few candidates are fetched and most
   * become hits: full-text mode): one read instead of a ranking then a fetch; with `read.lean` and no `rowColumns`,
   * they are known by row id alone (lexical-queries.ts LEAN_CANDIDATE_COLUMNS).
   */
  async part(
    table: Table,
    view: LexicalView,
    terms: string[],
    depth: number,
    where?: string,
    rowColumns?: readonly string[],
    scoredDepth?: number,
    read: ScoredRead = {},
  ): Promise<LexicalPart> {
    const stats = emptyStats();
    if (terms.length === 0) return { stats, candidates: [] };
    // Every row indexed and the index's statistics the live rows': LanceDB's own BM25 is the exact one (equal to
    // bm25.ts to float rounding, tested), so its ranking is taken as it is: one query, no term counting, no
    // document frequencies; and as WAND's top rows are the exact top rows, `scoredDepth` of them suffice. Only for
    // a search of this table alone (`scoredDepth` given: several KBs add their statistics up).
    if (scoredDepth !== undefined && view.complete && view.exactStats)
      return { stats, candidates: [], scored: await scoredPart(table, terms, scoredDepth, where, rowColumns, read) };
    const termSet = new Set(terms);
    const [delta, indexed] = await Promise.all([
      view.delta ? view.delta.part(termSet, where) : { docs: 0, tokens: 0, df: new Map<string, number>(), candidates: [] },
      view.watermark > 0n ? this.indexedPart(table, view, terms, termSet, depth, where, rowColumns, read.lean) : undefined,
    ]);
    stats.docs = delta.docs + (indexed?.docs ?? 0);
    stats.tokens = delta.tokens + (indexed?.tokens ?? 0);
    for (const t of terms) stats.df.set(t, (delta.df.get(t) ?? 0) + (indexed?.df.get(t) ?? 0));
    const candidates = [...(indexed?.candidates ?? []), ...delta.candidates];
    // No index: every row was scanned, none is left behind.
    return { stats, candidates, ...(boundsRowsLeft(view) ? { bound: indexed?.bound ?? nothingLeft() } : {}) };
  }

  private async indexedPart(
    table: Table,
    view: LexicalView,
    terms: string[],
    termSet: ReadonlySet<string>,
    depth: number,
    where: string | undefined,
    rowColumns: readonly string[] | undefined,
    lean = false,
  ) {
    const base = await this.indexedBase(table, view);
    const df = new Map<string, number>();
    if (base.docs === 0) return { docs: 0, tokens: 0, df, candidates: [], bound: nothingLeft() };
    const below = LexicalIndex.indexFilter(view);
    const filter = below && where ? `${below} AND (${where})` : (below ?? where);
    const search = table.query().fullTextSearch(terms.join(' '), FTS_COLUMN).fastSearch();
    const reading = (filter ? search.where(filter) : search)
      .select([...new Set([...(lean && !rowColumns ? LEAN_CANDIDATE_COLUMNS : CANDIDATE_COLUMNS), ...(rowColumns ?? [])]), '_score'])
      .withRowId()
      .limit(depth)
      .toArrow()
      .then(plainRows);
    // Terms not counted yet in this state: where LanceDB's scores are exact, the candidates' scores give most of
    // their counts (bm25.ts dfsFromScores), one query less per term; the rest are read or counted one by one, while
    // the candidates are read when nothing waits on them.
    const missing = terms.filter((t) => this.df.get(t)?.epoch !== view.epoch);
    let rows: Raw[] | undefined;
    let candidates: LexCandidate[] | undefined;
    if (view.exactStats && missing.length > 0) {
      const read = (rows = await reading);
      candidates = read.map((r) => candidate(r, termSet, rowColumns !== undefined));
      const scored = candidates.map((c, i) => ({ tf: c.tf, dl: c.dl, score: Number(read[i]!._score) }));
      const known = new Map(terms.flatMap((t) => (missing.includes(t) ? [] : [[t, this.df.get(t)!.n] as const])));
      for (const [t, n] of dfsFromScores(scored, known, base.docs, base.tokens)) {
        this.dfReads.fromRows++;
        this.remember(view, t, n);
      }
    }
    const [read] = await Promise.all([
      rows ?? reading,
      Promise.all(terms.map(async (t) => df.set(t, await this.indexedDf(table, view, t, base)))),
    ]);
    rows = read;
    let lowest = 0;
    for (const r of rows) {
      const score = Number(r._score);
      if (lowest === 0 || score < lowest) lowest = score;
    }
    const bound: LexicalBound = { indexed: { docs: base.docs, tokens: base.tokens, df }, full: rows.length >= depth, lowest };
    return {
      docs: base.docs,
      tokens: base.tokens,
      df,
      candidates: candidates ?? rows.map((r) => candidate(r, termSet, rowColumns !== undefined)),
      bound,
    };
  }
}
