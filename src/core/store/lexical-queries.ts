import type { Table } from '@lancedb/lancedb';
import { dfFromScore, indexLength, indexTokens, termCounts, type LexStats } from './bm25.js';
import { leanRef, plainRows, toRef, type ChunkRef, type Raw } from './chunk-rows.js';

/**
 * The LanceDB queries behind an exact full-text ranking (lexical-index.ts): the candidates a search reads with the
 * terms they hold, LanceDB's own ranking where its scores are exact, a term's document frequency read off a score,
 * and the scan of the rows the index does not cover yet.
 */

/**
 * A row that holds at least one query term: its key, where it is (and its readable columns, when the caller asked
 * for them: it then needs no second read for hits), and what BM25 needs of it.
 */
export interface LexCandidate extends Omit<ChunkRef, 'score'> {
  tf: Map<string, number>;
  dl: number;
}

export interface LexicalPart {
  /** Statistics over every row of the table (not only those the filter lets through). */
  stats: LexStats;
  candidates: LexCandidate[];
  /**
   * Candidates already scored by LanceDB (BM25, exact), best first, when its scores were exact (see `part`'s
   * `scoredDepth`); `stats` and `candidates` are then empty. Only a search over this one table may use them as
   * they are.
   */
  scored?: ChunkRef[];
  /**
   * What bounds the indexed rows that were not fetched, where LanceDB's scores of them are exact BM25 under `indexed`
   * (the index's statistics are the live indexed rows': LexicalView.exactStats); absent otherwise. A search over
   * several KBs (or a table with unindexed rows) scores candidates under other statistics, and reads deeper until no
   * row left behind can reach its answer (search/lexical-depth.ts).
   */
  bound?: LexicalBound;
}

export interface LexicalBound {
  /** The statistics LanceDB scored the indexed rows with: the live indexed rows' (query terms only). */
  indexed: LexStats;
  /** As many indexed rows as asked for came back: rows past them may hold a term. */
  full: boolean;
  /** LanceDB's lowest score among the fetched indexed rows (none fetched: 0); any row not fetched scores at most this. */
  lowest: number;
}

export const CANDIDATE_COLUMNS = ['chunk_id', 'doc_id', 'chunk_index', 'fts', 'fts_len'];
export const FTS_COLUMN = { columns: ['fts'] };
/** What a candidate scored by LanceDB needs: no `fts` text to count terms in, no length. */
export const SCORED_COLUMNS = ['chunk_id', 'doc_id', 'chunk_index'];

/**
 * What a lean candidate is read with (`part`'s `read.lean`): its row id, score, terms and length alone. Its key is its
 * row id (chunk-rows.ts leanRef) until its row is read: a hybrid list past hybridListColumnsMaxRows, whose hits are
 * read by row id after fusion. Three columns fewer of each row: a 200-deep list at 100k chunks took 13.6 against
 * 17.5 ms (LanceDB alone).
 */
export const LEAN_CANDIDATE_COLUMNS = ['fts', 'fts_len'];

/** A candidate from its row: read with CANDIDATE_COLUMNS, or lean (LEAN_CANDIDATE_COLUMNS: no chunk id). */
export function candidate(r: Raw, terms: ReadonlySet<string>, withRow = false): LexCandidate {
  const fts = String(r.fts ?? '');
  const tf = termCounts(fts, terms);
  // The length the index counted, stored at write time (indexedBase sums the same column).
  const dl = r.fts_len === null || r.fts_len === undefined ? indexLength(fts) : Number(r.fts_len);
  const key = r.chunk_id === undefined && typeof r._rowid === 'bigint' ? leanRef(r._rowid, 0) : undefined;
  const c: LexCandidate = key
    ? { chunk_id: key.chunk_id, doc_id: key.doc_id, chunk_index: key.chunk_index, tf, dl }
    : { chunk_id: String(r.chunk_id), doc_id: String(r.doc_id), chunk_index: Number(r.chunk_index), tf, dl };
  if (typeof r._rowid === 'bigint') c.rowid = r._rowid;
  if (withRow) c.row = r;
  return c;
}

/**
 * The index's best rows for the terms that pass `where`, with LanceDB's scores (see `part`): `depth` of them, and
 * more while the last one fetched ties with the one before it (the caller reads `depth - 1` rows and breaks ties by
 * chunk id, so every row tied with its last one must be there). `rowColumns`: the first `depth` carry their rows;
 * the rows tied past them are read by id and score alone (a column read of 4× the rows cost more than the whole
 * query at 1M chunks, where copies of a passage tie often), and one of them that becomes a hit is read by
 * TableSnapshot.hydrate. `lean`: row ids and scores alone (chunk-rows.ts leanRef), ties then broken by row id.
 * `fused`: the list is one side of a hybrid search, whose rows are z-scored and fused, none shown as it ranks:
 * a group of rows tied at its end is left out whole instead (a row left out gets the list's lowest z-score in
 * fusion.ts, about its own), where at least half of the list stays. The list is then as deterministic as a
 * deeper read makes it, without the read: on the `scale` bench's 1M chunks, where recombined passages tie often,
 * 77 of 300 hybrid searches read their 100-row list again 400 deep (+20-25 ms each).
 */
export async function scoredPart(
  table: Table,
  terms: string[],
  depth: number,
  where: string | undefined,
  rowColumns: readonly string[] | undefined,
  { lean = false, fused = false }: ScoredRead = {},
) {
  const withRows = rowColumns !== undefined;
  const search = table.query().fullTextSearch(terms.join(' '), FTS_COLUMN).fastSearch();
  const fetch = async (limit: number, columns: readonly string[]) =>
    plainRows(
      await (where ? search.where(where) : search)
        .select([...columns, '_score'])
        .withRowId()
        .limit(limit)
        .toArrow(),
    );
  const ref = (r: Raw, withRow = false) => (lean ? leanRef(r._rowid as bigint, Number(r._score)) : toRef(r, Number(r._score), withRow));
  const refColumns = lean ? [] : SCORED_COLUMNS;
  const rows = await fetch(depth, lean ? [] : (rowColumns ?? SCORED_COLUMNS));
  const edge = depth >= 2 ? Number(rows[depth - 2]?._score) : NaN;
  const tiedAtEdge = (list: Raw[], limit: number) => list.length === limit && tie(Number(list[limit - 1]!._score), edge);
  if (!tiedAtEdge(rows, depth)) return rows.map((r) => ref(r, withRows));
  if (fused) {
    const kept = untiedHead(rows);
    if (kept * 2 >= depth) return rows.slice(0, kept).map((r) => ref(r, withRows));
  }
  let more: Raw[];
  let limit = depth;
  do more = await fetch((limit *= 4), refColumns);
  while (tiedAtEdge(more, limit));
  const read = new Map(withRows && !lean ? rows.map((r) => [String(r.chunk_id), r]) : []);
  return more.map((r) => {
    const full = read.get(String(r.chunk_id));
    return full ? toRef(full, Number(r._score), true) : ref(r);
  });
}

/** Scores equal up to float32 rounding. */
const tie = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b));

/** How scoredPart reads LanceDB's ranking (see there); `lean` also reads counted candidates lean (`candidate`). */
export interface ScoredRead {
  lean?: boolean;
  fused?: boolean;
}

/** How many rows of a list (best first) come before the group tied with its last row. */
function untiedHead(rows: readonly Raw[]): number {
  if (rows.length === 0) return 0;
  const last = Number(rows[rows.length - 1]!._score);
  let g = rows.length - 1;
  while (g > 0 && tie(Number(rows[g - 1]!._score), last)) g--;
  return g;
}

/**
 * A term's document frequency in the index from LanceDB's score of the best row for the term alone (top-1 by
 * block-max WAND: a few blocks of the posting list instead of all of it). Only valid while the index's statistics
 * are the live indexed rows' (`exactStats`): then its row count and average length are `base`'s. Undefined when
 * the score does not invert to a whole count (the caller counts instead).
 */
export async function derivedDf(table: Table, term: string, base: { docs: number; tokens: number }): Promise<number | undefined> {
  const rows = plainRows(
    await table.query().fullTextSearch(term, FTS_COLUMN).fastSearch().select(['fts', 'fts_len', '_score']).limit(1).toArrow(),
  );
  const r = rows[0];
  if (!r) return 0;
  const fts = String(r.fts ?? '');
  const tf = termCounts(fts, new Set([term])).get(term) ?? 0;
  const dl = r.fts_len === null || r.fts_len === undefined ? indexLength(fts) : Number(r.fts_len);
  return dfFromScore(Number(r._score), tf, dl, base.docs, base.tokens);
}

/**
 * Rows holding `term`, counted through the index (reads the term's whole posting list; `docs`: the most there can
 * be); `indexed`: the filter that keeps the count to the indexed part, where the index may hold other rows.
 */
export async function countedDf(table: Table, term: string, docs: number, indexed?: string): Promise<number> {
  const q = table.query().fullTextSearch(term, FTS_COLUMN).fastSearch();
  const rows = await (indexed ? q.where(indexed) : q)
    .select(['_score'])
    .limit(docs + 1)
    .toArrow();
  return rows.numRows;
}

/** What BM25 needs of the rows above the watermark for one search: statistics over every row, the rows holding a term that pass. */
export interface DeltaPart {
  docs: number;
  tokens: number;
  df: Map<string, number>;
  candidates: LexCandidate[];
}

/** `rows` (the rows above the watermark) counted into the statistics; those holding a term for which `passes` holds kept. */
export function tallyDelta(rows: readonly Raw[], termSet: ReadonlySet<string>, passes: (r: Raw) => boolean = () => true): DeltaPart {
  const out: DeltaPart = { docs: 0, tokens: 0, df: new Map(), candidates: [] };
  for (const r of rows) {
    const c = candidate(r, termSet);
    out.docs++;
    out.tokens += c.dl;
    for (const t of c.tf.keys()) out.df.set(t, (out.df.get(t) ?? 0) + 1);
    if (c.tf.size > 0 && passes(r)) out.candidates.push(c);
  }
  return out;
}

/** Every row at or above the watermark: counted into the statistics; those with a term that pass `where` kept. */
export async function scanDelta(table: Table, termSet: ReadonlySet<string>, w: bigint, where: string | undefined): Promise<DeltaPart> {
  const columns: Record<string, string> = {
    chunk_id: 'chunk_id',
    doc_id: 'doc_id',
    chunk_index: 'chunk_index',
    fts: 'fts',
    fts_len: 'fts_len',
  };
  if (where) columns.passes = `(${where})`;
  const rows = plainRows(await table.query().where(`_rowaddr >= ${w}`).select(columns).withRowId().toArrow());
  return tallyDelta(rows, termSet, (r) => !where || r.passes === true);
}

/** What a commit removes from the indexed part: its rows, their length, and per index token the rows holding it. */
export interface GoneRows {
  docs: number;
  tokens: number;
  df: Map<string, number>;
}

/** Past this many rows a removal is not read ahead (LexicalIndex.removing): the statistics are counted again instead. */
export const MAX_GONE_ROWS = 2_000;

/**
 * The indexed rows (`_rowaddr < w`) that `predicate` selects, but those whose chunk_id is in `kept` (a merge-insert
 * leaves the rows its source matches): read before a commit removes them, so that the statistics cached for the
 * state before carry over to the state after. Undefined past MAX_GONE_ROWS rows.
 */
export async function goneRows(table: Table, predicate: string, w: bigint, kept?: ReadonlySet<string>): Promise<GoneRows | undefined> {
  const rows = plainRows(
    await table
      .query()
      .where(`(${predicate}) AND _rowaddr < ${w}`)
      .select(['chunk_id', 'fts', 'fts_len'])
      .limit(MAX_GONE_ROWS + 1)
      .toArrow(),
  );
  if (rows.length > MAX_GONE_ROWS) return undefined;
  const out: GoneRows = { docs: 0, tokens: 0, df: new Map() };
  for (const r of rows) {
    if (kept?.has(String(r.chunk_id))) continue;
    out.docs++;
    // As LexicalIndex.indexedBase sums the column.
    out.tokens += Number(r.fts_len ?? 0);
    for (const t of new Set(indexTokens(String(r.fts ?? '')))) out.df.set(t, (out.df.get(t) ?? 0) + 1);
  }
  return out;
}
