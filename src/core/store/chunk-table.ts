import type { Connection, Table } from '@lancedb/lancedb';
import type { Schema } from 'apache-arrow';
import type { MetadataFieldType } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { buildArrowTable } from './arrow-build.js';
import { chunksSchema, metadataArrowType, metadataNullSql } from './arrow-schemas.js';
import { indexLength } from './bm25.js';
import { HIT_COLUMN, hitColumns, packHit, plain, plainRows, toStored, type ChunkRow, type Raw, type StoredChunk } from './chunk-rows.js';
import { metadataColumn } from './filters.js';
import { ExactStatsMark } from './exact-stats-mark.js';
import { vectorIndexOf } from './chunk-table-base.js';
import { ChunkTableUpkeep } from './chunk-table-upkeep.js';
import { sqlString } from './sql.js';
import { eachRow } from './column-scan.js';
import { connectionParts, type OwnConnection } from './lance-session.js';

export { chunkTableName, physicalChunkTable, type ChunkRef, type ChunkRow, type StoredChunk } from './chunk-rows.js';

/**
 * `fts_len` for tables written before the column existed: the count of space-separated tokens (exact unless a
 * token reaches 40 bytes, which the index ignores; new rows count as the index does, see bm25.ts).
 */
const FTS_LEN_SQL = "CAST(CASE WHEN fts = '' THEN 0 ELSE array_length(string_to_array(fts, ' ')) END AS INT)";

/**
 * A KB's chunk table: writes, full-text and vector search with filters pushed into the query. Its index upkeep:
 * chunk-table-upkeep.ts; its state, commit order and snapshots: chunk-table-base.ts.
 */
export class ChunkTable extends ChunkTableUpkeep {
  /** Add the vector column once the model's dimension is known (rows get NULL vectors until backfilled). */
  async addVectorColumn(dim: number): Promise<void> {
    if (this.vectorDim > 0) return;
    await this.commit(() =>
      this.table.addColumns([{ name: 'vector', valueSql: `arrow_cast(NULL, 'FixedSizeList(${Math.trunc(dim)}, Float32)')` }]),
    );
    this.schema = await this.table.schema();
    this.vectorDim = dim;
  }

  /**
   * Open a chunk table by its physical name (see physicalChunkTable). `markDir`: where the table's exact-statistics
   * record lives (the store's folder; without one, only the version history tells, see exact-stats-mark.ts).
   */
  static async open(conn: Connection | OwnConnection, name: string, markDir?: string): Promise<ChunkTable | undefined> {
    const { db } = connectionParts(conn);
    const names = await db.tableNames();
    if (!names.includes(name)) return undefined;
    let table: Table;
    try {
      table = await db.openTable(name);
    } catch (err) {
      // Listed but without a first version yet (another process is creating it) or dropped meanwhile: absent.
      if (/was not found/.test(String(err))) return undefined;
      throw err;
    }
    let schema = await table.schema();
    // Tables from before rows recorded their index length: the column is computed once (one commit).
    if (!schema.fields.some((f) => f.name === 'fts_len')) {
      await table.addColumns([{ name: 'fts_len', valueSql: FTS_LEN_SQL }]);
      schema = await table.schema();
    }
    return ChunkTable.wrap(conn, table, schema, name, markDir);
  }

  static async create(conn: Connection | OwnConnection, name: string, dim: number, markDir?: string): Promise<ChunkTable> {
    const { db } = connectionParts(conn);
    const table = await db.createEmptyTable(name, chunksSchema(dim), { existOk: true });
    return ChunkTable.wrap(conn, table, await table.schema(), name, markDir);
  }

  /** The table as ragdesk reads it: its vectors' dimension from the schema, its indexes as listed. */
  private static async wrap(
    conn: Connection | OwnConnection,
    table: Table,
    schema: Schema,
    name: string,
    markDir?: string,
  ): Promise<ChunkTable> {
    const { db, own } = connectionParts(conn);
    const vectorField = schema.fields.find((f) => f.name === 'vector');
    const dim = (vectorField?.type as { listSize?: number } | undefined)?.listSize ?? 0;
    const indices = await table.listIndices();
    const ct = new ChunkTable(
      db,
      table,
      schema,
      dim,
      indices.some((i) => i.columns.includes('fts')),
      ExactStatsMark.in(markDir, name),
      own,
    );
    ct.vectorIndex = vectorIndexOf(indices);
    return ct;
  }

  /** Add a typed column for each metadata field the table does not have yet. */
  async ensureMetadataColumns(fields: Readonly<Record<string, MetadataFieldType>>): Promise<void> {
    const have = new Set(this.schema.fields.map((f) => f.name));
    const missing = Object.entries(fields).filter(([key]) => !have.has(metadataColumn(key)));
    if (missing.length === 0) return;
    await this.commit(() =>
      this.table.addColumns(missing.map(([key, type]) => ({ name: metadataColumn(key), valueSql: metadataNullSql(type) }))),
    );
    this.schema = await this.table.schema();
    for (const [key, type] of missing) {
      const field = this.schema.fields.find((f) => f.name === metadataColumn(key));
      if (!field || field.type.toString() !== metadataArrowType(type).toString()) {
        throw new RagError('internal', `metadata column ${key} has an unexpected type ${field?.type}`);
      }
    }
  }

  async add(rows: ChunkRow[]): Promise<void> {
    if (rows.length === 0) return;
    const data = this.arrowRows(rows);
    await this.commit(async () => {
      await this.table.add(data);
      this.lexical.appended();
    });
  }

  /**
   * Write documents' new chunks and remove every older chunk of those documents in ONE commit, so a reader sees
   * each document's old version or its new one, never both and never neither (a merge-insert keyed on chunk_id:
   * the new chunk ids are inserted, the documents' other rows deleted as "not matched by source").
   */
  async writeDocs(rows: ChunkRow[], replacing: string[]): Promise<void> {
    if (replacing.length === 0) return this.add(rows);
    const docs = replacing.map(sqlString).join(', ');
    const data = this.arrowRows(rows);
    const where = this.staged.and(`doc_id IN (${docs})`)!;
    await this.commit(async () => {
      const gone = await this.lexical.removing(this.table, where, new Set(rows.map((r) => r.chunk_id)));
      await this.table.mergeInsert('chunk_id').whenNotMatchedInsertAll().whenNotMatchedBySourceDelete({ where }).execute(data);
      this.lexical.removed(gone);
    });
  }

  /** Delete documents' chunks in one commit (rows of a write still staged under the same doc_id stay). */
  async deleteDocs(docIds: string[]): Promise<void> {
    if (docIds.length) await this.deleteWhere(this.staged.and(`doc_id IN (${docIds.map(sqlString).join(', ')})`)!);
  }

  /**
   * Write rows of a document written in several commits (services/stream-ingest.ts): they stay invisible to every
   * read, and to deletes by doc_id, until `publishStaged` (or go with `dropStaged`).
   */
  async stage(version: string, rows: ChunkRow[]): Promise<void> {
    this.staged.add(version);
    await this.add(rows);
  }

  /**
   * Make a staged version the document's chunks: its other versions' rows go and the staged rows appear in one
   * step for readers (both under the commit order snapshots are taken in: a search sees the old rows or the new).
   */
  async publishStaged(version: string, docId: string): Promise<void> {
    const where = `doc_id = ${sqlString(docId)} AND version <> ${sqlString(version)}`;
    await this.commit(async () => {
      const gone = await this.lexical.removing(this.table, where);
      await this.table.delete(where);
      this.lexical.removed(gone);
      this.staged.delete(version);
    });
  }

  /** Forget a staged version: its rows are deleted (the write failed, was cancelled or came to nothing). */
  async dropStaged(version: string): Promise<void> {
    const where = `version = ${sqlString(version)}`;
    await this.commit(async () => {
      const gone = await this.lexical.removing(this.table, where);
      await this.table.delete(where);
      this.lexical.removed(gone);
      this.staged.delete(version);
    });
  }

  async deleteWhere(predicate: string): Promise<void> {
    await this.commit(async () => {
      const gone = await this.lexical.removing(this.table, predicate);
      await this.table.delete(predicate);
      this.lexical.removed(gone);
    });
  }

  /** (doc_id, version) pairs present in the table, for crash repair. */
  async docVersions(): Promise<Array<{ doc_id: string; version: string }>> {
    const seen = new Map<string, { doc_id: string; version: string }>();
    await eachRow(this.table.query(), ['doc_id', 'version'], ([doc_id, version]) => {
      const key = `${doc_id}\u0000${version}`;
      if (!seen.has(key)) seen.set(key, { doc_id, version });
    });
    return [...seen.values()];
  }

  async listChunks(docId: string, offset: number, limit: number): Promise<{ total: number; chunks: StoredChunk[] }> {
    const where = this.staged.and(`doc_id = ${sqlString(docId)}`)!;
    const total = await this.table.countRows(where);
    const rows = (await this.table
      .query()
      .where(`${where} AND chunk_index >= ${offset} AND chunk_index < ${offset + limit}`)
      .select([...hitColumns(this.packed)])
      .toArrow()
      .then(plainRows)) as Raw[];
    const chunks = rows.map((r) => toStored(r, 0)).sort((a, b) => a.chunk_index - b.chunk_index);
    return { total, chunks };
  }

  /** Title, text and vector of the chunks of some documents that have one (to reuse when a file only moved). */
  async vectorsOf(docIds: string[]): Promise<Array<{ title: string; text: string; vector: Float32Array }>> {
    if (this.vectorDim === 0 || docIds.length === 0) return [];
    const where = this.staged.and(`doc_id IN (${docIds.map(sqlString).join(', ')}) AND vector IS NOT NULL`)!;
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

  /** Chunks still waiting for a vector (written while the model was unavailable). */
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
    await this.commit(async () => {
      const gone = await this.lexical.removing(this.table, `chunk_id IN (${ids})`);
      await this.table.mergeInsert('chunk_id').whenMatchedUpdateAll().execute(buildArrowTable(this.schema, updated));
      // Updated rows are rewritten into new fragments: they leave the index until upkeep.
      this.lexical.removed(gone);
    });
  }

  /** Every chunk_id in the table, read batch by batch (a model change compares the old and the new table by these). */
  async chunkIds(): Promise<string[]> {
    const hidden = this.staged.hidden();
    const ids: string[] = [];
    await eachRow(hidden ? this.table.query().where(hidden) : this.table.query(), ['chunk_id'], ([id]) => ids.push(id));
    return ids;
  }

  /** Whole rows but the vector, for copying into another chunk table (`addCopies`). List values come back as arrays. */
  async rowsForCopy(ids: string[]): Promise<Raw[]> {
    if (ids.length === 0) return [];
    const columns = this.schema.fields.map((f) => f.name).filter((n) => n !== 'vector');
    const rows = (await this.table
      .query()
      .where(this.staged.and(`chunk_id IN (${ids.map(sqlString).join(', ')})`)!)
      .select(columns)
      .toArray()) as Raw[];
    return rows.map((r) => Object.fromEntries(columns.map((c) => [c, plain(r[c])])));
  }

  /** Add rows read by `rowsForCopy` from another chunk table, with vectors from this table's model. */
  async addCopies(rows: Raw[], vectors: Float32Array[]): Promise<void> {
    if (rows.length === 0) return;
    const data = buildArrowTable(
      this.schema,
      rows.map((r, i) => ({
        ...r,
        fts_len: r.fts_len ?? indexLength(String(r.fts ?? '')),
        // A row of a table without the packed column gets it here (a model change copies old KBs into new tables).
        ...(this.packed ? { [HIT_COLUMN]: r[HIT_COLUMN] ?? packHit(r as Parameters<typeof packHit>[0]) } : {}),
        vector: this.vectorDim > 0 ? (vectors[i] ?? null) : undefined,
      })),
    );
    await this.commit(async () => {
      await this.table.add(data);
      this.lexical.appended();
    });
  }
}
