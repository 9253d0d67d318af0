import type { Connection, Table } from '@lancedb/lancedb';
import { Index } from '@lancedb/lancedb';
import type { Schema } from 'apache-arrow';
import type { Location, Metadata, MetadataFieldType } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { buildArrowTable } from './arrow-build.js';
import { chunksSchema, metadataArrowType, metadataNullSql } from './arrow-schemas.js';
import { indexLength } from './bm25.js';
import { metadataColumn } from './filters.js';
import { LexicalIndex, type LexicalPart } from './lexical-index.js';
import { sqlString } from './sql.js';

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

const READ_COLUMNS = [
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
 * `fts_len` for tables written before the column existed: the count of space-separated tokens (exact unless a
 * token reaches 40 bytes, which the index ignores; new rows count as the index does, see bm25.ts).
 */
const FTS_LEN_SQL = "CAST(CASE WHEN fts = '' THEN 0 ELSE array_length(string_to_array(fts, ' ')) END AS INT)";

const FTS_OPTIONS = {
  // The text is analysed in JS (see core/text/analyzer.ts): the index only splits on spaces.
  baseTokenizer: 'whitespace',
  lowercase: false,
  stem: false,
  removeStopWords: false,
  asciiFolding: false,
  withPosition: false,
} as const;

type Raw = Record<string, unknown>;

/** A ranked chunk before its text is fetched. `rowid` lets `hydrate` fetch it by position. */
export interface ChunkRef {
  chunk_id: string;
  doc_id: string;
  chunk_index: number;
  score: number;
  rowid?: bigint;
}

const REF_COLUMNS = ['chunk_id', 'doc_id', 'chunk_index'];

function toRef(r: Raw, score: number): ChunkRef {
  const ref: ChunkRef = { chunk_id: String(r.chunk_id), doc_id: String(r.doc_id), chunk_index: Number(r.chunk_index), score };
  if (typeof r._rowid === 'bigint') ref.rowid = r._rowid;
  return ref;
}

export function chunkTableName(kbId: string): string {
  return `chunks__${kbId}`;
}

/** The table a KB's record points at: `chunk_table` once a model change swapped one in, else the default name. */
export function physicalChunkTable(kb: { kb_id: string; chunk_table?: string | undefined }): string {
  return kb.chunk_table ?? chunkTableName(kb.kb_id);
}

/** An Arrow list value (metadata list columns) as a plain array; everything else as it is. */
function plain(v: unknown): unknown {
  return v !== null && typeof v === 'object' && typeof (v as { toArray?: unknown }).toArray === 'function'
    ? Array.from((v as { toArray(): ArrayLike<unknown> }).toArray())
    : v;
}

function toStored(r: Raw, score: number): StoredChunk {
  const location: Location = { char_start: Number(r.char_start), char_end: Number(r.char_end) };
  if (r.page !== null && r.page !== undefined) location.page = Number(r.page);
  if (r.heading_path) location.heading_path = JSON.parse(String(r.heading_path)) as string[];
  if (r.line_start !== null && r.line_start !== undefined) location.line_start = Number(r.line_start);
  if (r.line_end !== null && r.line_end !== undefined) location.line_end = Number(r.line_end);
  return {
    doc_id: String(r.doc_id),
    chunk_index: Number(r.chunk_index),
    text: String(r.text),
    title: String(r.title),
    source: String(r.source),
    tokens: Number(r.tokens),
    location,
    metadata: JSON.parse(String(r.metadata)) as Metadata,
    score,
  };
}

/** A KB's chunk table: writes, full-text and vector search with filters pushed into the query, index upkeep. */
export class ChunkTable {
  private schema: Schema;
  private hasVectorIndex = false;
  private readonly lexical: LexicalIndex;

  private constructor(
    private readonly table: Table,
    schema: Schema,
    private vectorDim: number,
    hasFts: boolean,
  ) {
    this.schema = schema;
    this.lexical = new LexicalIndex(table, hasFts);
  }

  /** The physical table name. */
  get name(): string {
    return this.table.name;
  }

  /** Vector dimension; 0 while the table has no vector column yet. */
  get dim(): number {
    return this.vectorDim;
  }

  /** Add the vector column once the model's dimension is known (rows get NULL vectors until backfilled). */
  async addVectorColumn(dim: number): Promise<void> {
    if (this.vectorDim > 0) return;
    await this.table.addColumns([{ name: 'vector', valueSql: `arrow_cast(NULL, 'FixedSizeList(${Math.trunc(dim)}, Float32)')` }]);
    this.schema = await this.table.schema();
    this.vectorDim = dim;
  }

  /** Open a chunk table by its physical name (see physicalChunkTable). */
  static async open(db: Connection, name: string): Promise<ChunkTable | undefined> {
    const names = await db.tableNames();
    if (!names.includes(name)) return undefined;
    const table = await db.openTable(name);
    let schema = await table.schema();
    // Tables from before rows recorded their index length: the column is computed once (one commit).
    if (!schema.fields.some((f) => f.name === 'fts_len')) {
      await table.addColumns([{ name: 'fts_len', valueSql: FTS_LEN_SQL }]);
      schema = await table.schema();
    }
    const vectorField = schema.fields.find((f) => f.name === 'vector');
    const dim = (vectorField?.type as { listSize?: number } | undefined)?.listSize ?? 0;
    const indices = await table.listIndices();
    const ct = new ChunkTable(
      table,
      schema,
      dim,
      indices.some((i) => i.columns.includes('fts')),
    );
    ct.hasVectorIndex = indices.some((i) => i.columns.includes('vector'));
    return ct;
  }

  static async create(db: Connection, name: string, dim: number): Promise<ChunkTable> {
    const schema = chunksSchema(dim);
    const table = await db.createEmptyTable(name, schema, { existOk: true });
    const indices = await table.listIndices();
    return new ChunkTable(
      table,
      await table.schema(),
      dim,
      indices.some((i) => i.columns.includes('fts')),
    );
  }

  get vectorIndexReady(): boolean {
    return this.hasVectorIndex;
  }

  get ftsIndexReady(): boolean {
    return this.lexical.indexed;
  }

  /** Rows were written or removed since the full-text index was last brought up to date. */
  get needsUpkeep(): boolean {
    return this.lexical.needsUpkeep;
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
    if ((await this.table.version()) === version) return;
    await this.table.checkout(version);
    await this.table.restore();
    this.schema = await this.table.schema();
    const indices = await this.table.listIndices();
    this.hasVectorIndex = indices.some((i) => i.columns.includes('vector'));
    this.lexical.reset(indices.some((i) => i.columns.includes('fts')));
  }

  /** Add a typed column for each metadata field the table does not have yet. */
  async ensureMetadataColumns(fields: Readonly<Record<string, MetadataFieldType>>): Promise<void> {
    const have = new Set(this.schema.fields.map((f) => f.name));
    const missing = Object.entries(fields).filter(([key]) => !have.has(metadataColumn(key)));
    if (missing.length === 0) return;
    await this.table.addColumns(missing.map(([key, type]) => ({ name: metadataColumn(key), valueSql: metadataNullSql(type) })));
    this.schema = await this.table.schema();
    for (const [key, type] of missing) {
      const field = this.schema.fields.find((f) => f.name === metadataColumn(key));
      if (!field || field.type.toString() !== metadataArrowType(type).toString()) {
        throw new RagError('internal', `metadata column ${key} has an unexpected type ${field?.type}`);
      }
    }
  }

  private arrowRows(rows: ChunkRow[]) {
    const metaColumns = this.schema.fields.map((f) => f.name).filter((n) => n.startsWith('m_'));
    const data = rows.map((r) => {
      const { meta, vector, ...rest } = r;
      const out: Record<string, unknown> = { ...rest, fts_len: indexLength(r.fts) };
      if (this.vectorDim > 0) out.vector = vector;
      for (const col of metaColumns) out[col] = meta[col] ?? null;
      return out;
    });
    return buildArrowTable(this.schema, data);
  }

  async add(rows: ChunkRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.table.add(this.arrowRows(rows));
    this.lexical.appended();
  }

  /**
   * Write documents' new chunks and remove every older chunk of those documents in ONE commit, so a reader sees
   * each document's old version or its new one, never both and never neither (a merge-insert keyed on chunk_id:
   * the new chunk ids are inserted, the documents' other rows deleted as "not matched by source").
   */
  async writeDocs(rows: ChunkRow[], replacing: string[]): Promise<void> {
    if (replacing.length === 0) return this.add(rows);
    const docs = replacing.map(sqlString).join(', ');
    await this.table
      .mergeInsert('chunk_id')
      .whenNotMatchedInsertAll()
      .whenNotMatchedBySourceDelete({ where: `doc_id IN (${docs})` })
      .execute(this.arrowRows(rows));
    this.lexical.appended();
    this.lexical.removed();
  }

  async count(where?: string): Promise<number> {
    return this.table.countRows(where);
  }

  async deleteDoc(docId: string, keepVersion?: string): Promise<void> {
    const base = `doc_id = ${sqlString(docId)}`;
    await this.deleteWhere(keepVersion ? `${base} AND version <> ${sqlString(keepVersion)}` : base);
  }

  async deleteWhere(predicate: string): Promise<void> {
    await this.table.delete(predicate);
    this.lexical.removed();
  }

  /** (doc_id, version) pairs present in the table, for crash repair. */
  async docVersions(): Promise<Array<{ doc_id: string; version: string }>> {
    const rows = (await this.table.query().select(['doc_id', 'version']).toArray()) as Raw[];
    const seen = new Map<string, { doc_id: string; version: string }>();
    for (const r of rows)
      seen.set(`${String(r.doc_id)}\u0000${String(r.version)}`, { doc_id: String(r.doc_id), version: String(r.version) });
    return [...seen.values()];
  }

  async listChunks(docId: string, offset: number, limit: number): Promise<{ total: number; chunks: StoredChunk[] }> {
    const where = `doc_id = ${sqlString(docId)}`;
    const total = await this.table.countRows(where);
    const rows = (await this.table
      .query()
      .where(`${where} AND chunk_index >= ${offset} AND chunk_index < ${offset + limit}`)
      .select(READ_COLUMNS)
      .toArray()) as Raw[];
    const chunks = rows.map((r) => toStored(r, 0)).sort((a, b) => a.chunk_index - b.chunk_index);
    return { total, chunks };
  }

  /**
   * What an exact BM25 ranking of `terms` needs from this table: its statistics and the rows holding a term that
   * pass `where` (see lexical-index.ts). Scores are computed by the caller, over one or several tables.
   */
  async lexicalPart(terms: string[], depth: number, where?: string): Promise<LexicalPart> {
    return this.lexical.part(terms, depth, where);
  }

  /** Nearest chunks by cosine similarity; through the ANN index when there is one, unless `exact`. */
  async vectorRank(vector: Float32Array, limit: number, where?: string, options: { exact?: boolean } = {}): Promise<ChunkRef[]> {
    if (this.vectorDim === 0) return [];
    let q = this.table
      .vectorSearch(Array.from(vector))
      .column('vector')
      .distanceType('cosine')
      .select([...REF_COLUMNS, '_distance'])
      .withRowId()
      .limit(limit);
    // Measured (npm run bench): nprobes 32, ef 64 and refine 4 give recall@10 ≈ 0.96 against exact search on
    // real embeddings; deep candidate lists for fusion (50-100) use a cheaper refine, as their tail matters less.
    if (options.exact) q = q.bypassVectorIndex();
    else if (this.hasVectorIndex)
      q = q
        .nprobes(32)
        .ef(Math.max(64, limit * 2))
        .refineFactor(limit <= 20 ? 4 : 2);
    if (where) q = q.where(where);
    return ((await q.toArray()) as Raw[]).map((r) => toRef(r, 1 - Number(r._distance)));
  }

  /**
   * Full rows for ranked refs, in the refs' order, carrying their scores. Rows are taken by row id (no scan);
   * a row id that no longer holds its chunk (the table was compacted in between) is looked up by chunk_id.
   */
  async hydrate(refs: Array<{ chunk_id: string; score: number; rowid?: bigint }>): Promise<StoredChunk[]> {
    if (refs.length === 0) return [];
    const byId = new Map<string, Raw>();
    const withRowIds = refs.filter((r) => r.rowid !== undefined);
    if (withRowIds.length) {
      try {
        const taken = (await this.table
          .takeRowIds(withRowIds.map((r) => r.rowid!))
          .select(['chunk_id', ...READ_COLUMNS])
          .toArray()) as Raw[];
        for (const r of taken) byId.set(String(r.chunk_id), r);
      } catch {
        // stale row ids: fall through to the lookup by chunk_id
      }
    }
    const missing = refs.filter((r) => !byId.has(r.chunk_id));
    if (missing.length) {
      const ids = missing.map((r) => sqlString(r.chunk_id)).join(', ');
      const rows = (await this.table
        .query()
        .where(`chunk_id IN (${ids})`)
        .select(['chunk_id', ...READ_COLUMNS])
        .toArray()) as Raw[];
      for (const r of rows) byId.set(String(r.chunk_id), r);
    }
    return refs.flatMap((ref) => {
      const r = byId.get(ref.chunk_id);
      return r ? [toStored(r, ref.score)] : [];
    });
  }

  async vectorSearch(vector: Float32Array, limit: number, where?: string, options: { exact?: boolean } = {}): Promise<StoredChunk[]> {
    return this.hydrate(await this.vectorRank(vector, limit, where, options));
  }

  /** Chunks still waiting for a vector (written while the model was unavailable). */
  /** Title, text and vector of the chunks of some documents that have one (to reuse when a file only moved). */
  async vectorsOf(docIds: string[]): Promise<Array<{ title: string; text: string; vector: Float32Array }>> {
    if (this.vectorDim === 0 || docIds.length === 0) return [];
    const where = `doc_id IN (${docIds.map(sqlString).join(', ')}) AND vector IS NOT NULL`;
    const rows = (await this.table.query().where(where).select(['title', 'text', 'vector']).toArray()) as Raw[];
    return rows.map((r) => {
      const v = r.vector as { toArray?: () => ArrayLike<number> } | ArrayLike<number>;
      return {
        title: String(r.title),
        text: String(r.text),
        vector: Float32Array.from('toArray' in v && v.toArray ? v.toArray() : (v as ArrayLike<number>)),
      };
    });
  }

  async chunksWithoutVectors(limit: number): Promise<Array<{ chunk_id: string; title: string; text: string }>> {
    let q = this.table.query().select(['chunk_id', 'title', 'text']).limit(limit);
    if (this.vectorDim > 0) q = q.where('vector IS NULL');
    const rows = (await q.toArray()) as Raw[];
    return rows.map((r) => ({ chunk_id: String(r.chunk_id), title: String(r.title), text: String(r.text) }));
  }

  async setVectors(items: Array<{ chunk_id: string; vector: Float32Array }>): Promise<void> {
    if (items.length === 0) return;
    const ids = items.map((i) => sqlString(i.chunk_id)).join(', ');
    const rows = (await this.table.query().where(`chunk_id IN (${ids})`).toArray()) as Raw[];
    const byId = new Map(items.map((i) => [i.chunk_id, i.vector]));
    const updated = rows.map((r) => ({ ...r, vector: byId.get(String(r.chunk_id)) ?? null }));
    await this.table.mergeInsert('chunk_id').whenMatchedUpdateAll().execute(buildArrowTable(this.schema, updated));
    // Updated rows are rewritten into new fragments: they leave the index until upkeep.
    this.lexical.removed();
  }

  async ensureFtsIndex(): Promise<void> {
    if (this.lexical.indexed) return;
    await this.table.createIndex('fts', { config: Index.fts(FTS_OPTIONS), replace: true });
    await this.lexical.reindexed();
  }

  /**
   * Build the ANN index (IVF partitions + HNSW over scalar-quantised vectors; cosine). Worth it only past the
   * size where exact search misses the latency target; the caller decides (see ANN_MIN_ROWS in indexing.ts).
   */
  async buildVectorIndex(rows: number): Promise<void> {
    const numPartitions = Math.max(1, Math.round(Math.sqrt(rows) / 2));
    await this.table.createIndex('vector', {
      config: Index.hnswSq({ distanceType: 'cosine', numPartitions }),
      replace: true,
    });
    this.hasVectorIndex = true;
  }

  /**
   * Compact fragments, fold new rows into the indexes and drop deleted rows from them; afterwards the full-text
   * index covers every row. O(table): run by upkeep in the background (services/indexing.ts), under the write lock.
   */
  async optimize(): Promise<void> {
    await this.table.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) });
    if (this.lexical.indexed) await this.lexical.reindexed();
  }

  async unindexedRows(): Promise<number> {
    if (!this.lexical.indexed) return await this.table.countRows();
    const stats = await this.table.indexStats('fts_idx');
    return stats?.numUnindexedRows ?? 0;
  }

  /** Every chunk_id in the table (a model change compares the old and the new table by these). */
  async chunkIds(): Promise<string[]> {
    const rows = (await this.table.query().select(['chunk_id']).toArray()) as Raw[];
    return rows.map((r) => String(r.chunk_id));
  }

  /** Whole rows but the vector, for copying into another chunk table (`addCopies`). List values come back as arrays. */
  async rowsForCopy(ids: string[]): Promise<Raw[]> {
    if (ids.length === 0) return [];
    const columns = this.schema.fields.map((f) => f.name).filter((n) => n !== 'vector');
    const rows = (await this.table
      .query()
      .where(`chunk_id IN (${ids.map(sqlString).join(', ')})`)
      .select(columns)
      .toArray()) as Raw[];
    return rows.map((r) => Object.fromEntries(columns.map((c) => [c, plain(r[c])])));
  }

  /** Add rows read by `rowsForCopy` from another chunk table, with vectors from this table's model. */
  async addCopies(rows: Raw[], vectors: Float32Array[]): Promise<void> {
    if (rows.length === 0) return;
    await this.table.add(
      buildArrowTable(
        this.schema,
        rows.map((r, i) => ({
          ...r,
          fts_len: r.fts_len ?? indexLength(String(r.fts ?? '')),
          vector: this.vectorDim > 0 ? (vectors[i] ?? null) : undefined,
        })),
      ),
    );
    this.lexical.appended();
  }

  async sizeBytes(): Promise<number> {
    const stats = await this.table.stats();
    return stats.totalBytes;
  }
}
