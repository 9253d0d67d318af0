import type { Location, Metadata } from '../../shared/contract/index.js';
import { indexLength } from './bm25.js';

/** Chunk rows: what is written, what is read back, and the table names. */

/** One chunk row as written. `meta` holds the typed metadata columns (`m_<key>`). */
export interface ChunkRow {
  chunk_id: string;
  doc_id: string;
  version: string;
  chunk_index: number;
  text: string;
  fts: string;
  vector: Float32Array | null;
  title: string;
  source: string;
  parser: string;
  page: number | null;
  heading_path: string | null;
  line_start: number | null;
  line_end: number | null;
  char_start: number;
  char_end: number;
  tokens: number;
  metadata: string;
  created_at: string;
  updated_at: string;
  meta: Record<string, unknown>;
}

/**
 * One column of the chunk table for `rows`, as written: each row's own field of that name (never `meta`; `vector`
 * only `withVector`), `fts_len` (indexLength of the full-text column), the packed hit column (`withHit`), a metadata
 * column `m_<key>` (from `meta`, null when absent). The Arrow builder takes the table column by column
 * (arrow-build.ts buildArrowColumns): an object per row holding every column, built key by key, was ~700 bytes of
 * garbage a row (~32 MB in an `add` of 20 MB), and each column then read one key of every such object.
 */
export function chunkColumn(rows: readonly ChunkRow[], name: string, withVector: boolean, withHit: boolean): unknown[] {
  const out = new Array<unknown>(rows.length);
  const n = rows.length;
  if (name === 'fts_len') for (let i = 0; i < n; i++) out[i] = indexLength(rows[i]!.fts);
  else if (name === HIT_COLUMN && withHit) for (let i = 0; i < n; i++) out[i] = packHit(rows[i]!);
  else if (name.startsWith('m_')) for (let i = 0; i < n; i++) out[i] = rows[i]!.meta[name] ?? null;
  else if (name === 'vector') for (let i = 0; i < n; i++) out[i] = withVector ? rows[i]!.vector : undefined;
  else if (name !== 'meta') for (let i = 0; i < n; i++) out[i] = (rows[i] as unknown as Record<string, unknown>)[name];
  return out;
}

/**
 * A chunk row of plain text with no location (benches and tests that write straight to a chunk table): what is
 * not given is empty, the row spans its whole text, and both timestamps are `now`.
 */
export function plainChunkRow(
  fields: Pick<ChunkRow, 'chunk_id' | 'doc_id' | 'chunk_index' | 'text' | 'fts'> & Partial<ChunkRow>,
  now = new Date().toISOString(),
): ChunkRow {
  return {
    version: 'v',
    vector: null,
    title: '',
    source: '',
    parser: 'text',
    page: null,
    heading_path: null,
    line_start: null,
    line_end: null,
    char_start: 0,
    char_end: fields.text.length,
    tokens: 0,
    metadata: '{}',
    created_at: now,
    updated_at: now,
    meta: {},
    ...fields,
  };
}

/** A chunk as read back for hits and chunk listings. */
export interface StoredChunk {
  doc_id: string;
  chunk_index: number;
  text: string;
  title: string;
  source: string;
  tokens: number;
  location: Location;
  metadata: Metadata;
  /** cosine similarity (vector) or BM25 (fts) */
  score: number;
}

/** The columns a hit is read from in a table without the packed column (tables written before it existed). */
export const READ_COLUMNS = [
  'doc_id',
  'chunk_index',
  'text',
  'title',
  'source',
  'tokens',
  'page',
  'heading_path',
  'line_start',
  'line_end',
  'char_start',
  'char_end',
  'metadata',
];

/**
 * The column holding a hit's fields but its text as one JSON array (packHit): doc id, chunk index, title, source,
 * tokens, location, metadata. Written beside the separate columns (filters, listings and copies keep those), it is
 * what searches read: LanceDB reads each selected column of each row on its own, ~0.13 ms a column for a top-10
 * full-text query on SciFact, so 3 columns instead of 14 take ~1.2 ms off every search that answers with text.
 */
export const HIT_COLUMN = 'hit';

/**
 * What a search reads of a row to make it a hit (and a ref: toRef): the packed column, text and chunk id where the
 * table has the packed column, else the separate columns.
 */
export function hitColumns(packed: boolean): readonly string[] {
  return packed ? PACKED_HIT_COLUMNS : SPLIT_HIT_COLUMNS;
}
const PACKED_HIT_COLUMNS = ['chunk_id', 'text', HIT_COLUMN];
/** Whether a chunk table's schema has the packed hit column (tables written before it existed have not). */
export const hasHitColumn = (schema: { fields: ReadonlyArray<{ name: string }> }): boolean =>
  schema.fields.some((f) => f.name === HIT_COLUMN);
const SPLIT_HIT_COLUMNS = ['chunk_id', ...READ_COLUMNS];

/** A hit's fields as the packed column holds them. */
type PackedHit = [
  doc_id: string,
  chunk_index: number,
  title: string,
  source: string,
  tokens: number,
  location: Location,
  metadata: Metadata,
];

/** The fields a row holds for packHit, as written (ChunkRow) or read from the separate columns. */
type HitSource = Pick<ChunkRow, 'doc_id' | 'chunk_index' | 'title' | 'source' | 'tokens' | 'metadata'> & {
  page?: unknown;
  heading_path?: unknown;
  line_start?: unknown;
  line_end?: unknown;
  char_start: unknown;
  char_end: unknown;
};

/**
 * The packed hit column's value for a row (HIT_COLUMN). `heading_path` and `metadata` are JSON text already (the
 * writers make them with JSON.stringify) and go in as they are, unparsed.
 */
export function packHit(r: HitSource): string {
  let location = `{"char_start":${Number(r.char_start)},"char_end":${Number(r.char_end)}`;
  if (r.page !== null && r.page !== undefined) location += `,"page":${Number(r.page)}`;
  if (r.heading_path) location += `,"heading_path":${String(r.heading_path)}`;
  if (r.line_start !== null && r.line_start !== undefined) location += `,"line_start":${Number(r.line_start)}`;
  if (r.line_end !== null && r.line_end !== undefined) location += `,"line_end":${Number(r.line_end)}`;
  const head = JSON.stringify([String(r.doc_id), Number(r.chunk_index), String(r.title), String(r.source), Number(r.tokens)]);
  return `${head.slice(0, -1)},${location}},${String(r.metadata)}]`;
}

/**
 * packHit in SQL over the separate columns, for a table written before the packed column existed (ChunkTable
 * packHits adds the column in one commit): the same text for every row, escapes included (JSON.stringify's).
 */
export const PACK_HIT_SQL = ((): string => {
  const text = (col: string) => {
    let e = `replace(replace(${col}, '\\', '\\\\'), '"', '\\"')`;
    for (let c = 0; c < 32; c++) e = `replace(${e}, chr(${c}), '${JSON.stringify(String.fromCharCode(c)).slice(1, -1)}')`;
    return `'"', ${e}, '"'`;
  };
  const int = (col: string) => `CAST(${col} AS STRING)`;
  const optional = (col: string) => `CASE WHEN ${col} IS NULL THEN '' ELSE concat(',"${col}":', ${int(col)}) END`;
  const headings = `CASE WHEN heading_path IS NULL OR heading_path = '' THEN '' ELSE concat(',"heading_path":', heading_path) END`;
  return (
    `concat('[', ${text('doc_id')}, ',', ${int('chunk_index')}, ',', ${text('title')}, ',', ${text('source')}, ',', ` +
    `${int('tokens')}, ',{"char_start":', ${int('char_start')}, ',"char_end":', ${int('char_end')}, ${optional('page')}, ` +
    `${headings}, ${optional('line_start')}, ${optional('line_end')}, '},', metadata, ']')`
  );
})();

/** A row's packed hit fields, parsed once (the row keeps them); undefined for a row read from separate columns. */
function unpackHit(r: Raw): PackedHit | undefined {
  const v = r[HIT_COLUMN];
  if (typeof v === 'string') return (r[HIT_COLUMN] = JSON.parse(v) as PackedHit);
  return Array.isArray(v) ? (v as PackedHit) : undefined;
}

export type Raw = Record<string, unknown>;

/** What plainRows reads: an Arrow table as LanceDB's toArrow() returns it. */
interface ArrowColumns {
  numRows: number;
  schema: { fields: Array<{ name: string }> };
  getChild(name: string): Iterable<unknown> | null;
}

/**
 * Rows of a query result as plain objects, read column by column. LanceDB's toArray() hands out Arrow row proxies
 * whose every field read goes through Arrow's visitors: on the search path that was the largest cost above
 * LanceDB itself (apache-arrow 14-22 % of the MCP server's busy time, query bench profile). Values are those a
 * proxy returns (strings, numbers, bigints, Arrow vectors for lists).
 */
export function plainRows(table: ArrowColumns): Raw[] {
  const rows: Raw[] = Array.from({ length: table.numRows }, () => ({}));
  for (const { name } of table.schema.fields) {
    const column = table.getChild(name);
    if (!column) continue;
    let i = 0;
    for (const value of column) rows[i++]![name] = value;
  }
  return rows;
}

/** A ranked chunk before its text is fetched. `rowid` lets `hydrate` fetch it by position. */
export interface ChunkRef {
  chunk_id: string;
  doc_id: string;
  chunk_index: number;
  score: number;
  rowid?: bigint;
  /** The chunk's readable columns, when the ranking read them (its head becomes the hits): no second read. */
  row?: Raw;
}

export const REF_COLUMNS = ['chunk_id', 'doc_id', 'chunk_index'];

/** A ranked row as a ref; `withRow`: it carries the row read with the ranking (its readable columns). */
export function toRef(r: Raw, score: number, withRow = false): ChunkRef {
  const packed = r.doc_id === undefined ? unpackHit(r) : undefined;
  const ref: ChunkRef = {
    chunk_id: String(r.chunk_id),
    doc_id: String(packed ? packed[0] : r.doc_id),
    chunk_index: Number(packed ? packed[1] : r.chunk_index),
    score,
  };
  if (typeof r._rowid === 'bigint') ref.rowid = r._rowid;
  if (withRow) ref.row = r;
  return ref;
}

/**
 * A ranked row known by its row id alone, read by a lean list (no column but the score: at 1M chunks a 100-deep
 * full-text list takes 14.7 ms so against 22-24 ms with its chunk ids, a vector list 4.6 against 16 ms with its
 * refs' columns). Its key stands in for the chunk id (unique within the table's version, in row-id order) until
 * TableSnapshot.hydrate reads the row; doc_id and chunk_index are unknown until then.
 */
export function leanRef(rowid: bigint, score: number): ChunkRef {
  return { chunk_id: `${LEAN_KEY}${rowid.toString().padStart(20, '0')}`, doc_id: '', chunk_index: -1, score, rowid };
}

const LEAN_KEY = '\u0000rowid:';
/** Whether a ref came from a lean list (leanRef): its chunk id is a stand-in. */
export const isLeanRef = (ref: { chunk_id: string }): boolean => ref.chunk_id.startsWith(LEAN_KEY);

export function chunkTableName(kbId: string): string {
  return `chunks__${kbId}`;
}

/** The table a KB's record points at: `chunk_table` once a model change swapped one in, else the default name. */
export function physicalChunkTable(kb: { kb_id: string; chunk_table?: string | undefined }): string {
  return kb.chunk_table ?? chunkTableName(kb.kb_id);
}

/** An Arrow list value (metadata list columns) as a plain array; everything else as it is. */
export function plain(v: unknown): unknown {
  return v !== null && typeof v === 'object' && typeof (v as { toArray?: unknown }).toArray === 'function'
    ? Array.from((v as { toArray(): ArrayLike<unknown> }).toArray())
    : v;
}

/**
 * A hit's chunk from a row read with hitColumns: the packed column, or the separate ones packed as packHit packs
 * them (one way from columns to a hit, for both kinds of table).
 */
export function toStored(r: Raw, score: number): StoredChunk {
  const p = unpackHit(r) ?? (JSON.parse(packHit(r as HitSource)) as PackedHit);
  return {
    doc_id: p[0],
    chunk_index: p[1],
    text: String(r.text),
    title: p[2],
    source: p[3],
    tokens: p[4],
    location: p[5],
    metadata: p[6],
    score,
  };
}
