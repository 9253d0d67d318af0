import type { Connection, Table } from '@lancedb/lancedb';
import type { ChunkingConfig, DocumentFull, DocumentSummary, Metadata } from '../../shared/contract/index.js';
import { buildArrowTable } from './arrow-build.js';
import { eachRow } from './column-scan.js';
import { DocChanges, type DocChange } from './doc-changes.js';
import { documentsSchema } from './arrow-schemas.js';
import { sqlString } from './sql.js';
import { KeyedMutex } from '../util/keyed-mutex.js';

export const DOCUMENTS_TABLE = 'documents';

/** A document row as stored. */
export interface DocumentRow {
  kb_id: string;
  doc_id: string;
  title: string;
  source: string;
  metadata: Metadata;
  content: string;
  content_hash: string;
  parser: string;
  chunking: ChunkingConfig;
  chunk_count: number;
  size: number;
  version: string;
  created_at: string;
  updated_at: string;
  /** The real path of the file ingestion read (never a caller's `source`); null for text and uploads. */
  file_path: string | null;
}

const SUMMARY_COLUMNS = [
  'kb_id',
  'doc_id',
  'title',
  'source',
  'metadata',
  'content_hash',
  'parser',
  'chunking',
  'chunk_count',
  'size',
  'version',
  'created_at',
  'updated_at',
];

type Raw = Record<string, unknown>;

function toSummary(r: Raw): DocumentSummary & { version: string } {
  return {
    kb_id: String(r.kb_id),
    doc_id: String(r.doc_id),
    title: String(r.title),
    source: String(r.source),
    metadata: JSON.parse(String(r.metadata)) as Metadata,
    parser: String(r.parser),
    chunking: JSON.parse(String(r.chunking)) as ChunkingConfig,
    chunk_count: Number(r.chunk_count),
    size: Number(r.size),
    content_hash: String(r.content_hash),
    version: String(r.version),
    created_at: String(r.created_at),
    updated_at: String(r.updated_at),
  };
}

const byKb = (kbId: string) => `kb_id = ${sqlString(kbId)}`;
const byDoc = (kbId: string, docId: string) => `${byKb(kbId)} AND doc_id = ${sqlString(docId)}`;

/** Compaction runs once this many small fragments wait (each document write appends one). */
const COMPACT_AFTER_FRAGMENTS = 32;
/** Versions younger than this are kept when compaction prunes (a read that started on one finishes first). */
const KEEP_VERSIONS_MS = 10 * 60_000;

/** The doc_ids and contents rows write, per KB (doc-changes.ts). */
function changesOf(rows: readonly DocumentRow[]): DocChange[] {
  const byKbId = new Map<string, { kbId: string; docIds: string[]; hashes: string[] }>();
  for (const r of rows) {
    let change = byKbId.get(r.kb_id);
    if (!change) byKbId.set(r.kb_id, (change = { kbId: r.kb_id, docIds: [], hashes: [] }));
    change.docIds.push(r.doc_id);
    change.hashes.push(r.content_hash);
  }
  return [...byKbId.values()];
}

interface PageKey {
  doc_id: string;
  updated_at: string;
}

/** Newest first; equal times by doc_id (the order of a page). */
function newestFirst(keys: PageKey[]): PageKey[] {
  return keys.sort((a, b) => b.updated_at.localeCompare(a.updated_at) || a.doc_id.localeCompare(b.doc_id));
}

/**
 * The `documents` table shared by all KBs. Its commits (from every KB's writes and from compaction) run one at a
 * time, so compaction never races a write of another KB.
 */
export class DocumentsRepo {
  private readonly commits = new KeyedMutex();
  /** This process's recent mutations of document rows (doc-changes.ts). */
  readonly changes = new DocChanges();

  private constructor(private readonly table: Table) {}

  private commit<T>(work: () => Promise<T>): Promise<T> {
    return this.commits.run('commit', work);
  }

  /** A commit that changes document rows, recorded in `changes` (doc-changes.ts) around it. */
  private mutate<T>(changes: readonly DocChange[], work: () => Promise<T>): Promise<T> {
    return this.changes.around(changes, () => this.commit(work));
  }

  static async open(db: Connection): Promise<DocumentsRepo> {
    const names = await db.tableNames();
    const table = names.includes(DOCUMENTS_TABLE)
      ? await db.openTable(DOCUMENTS_TABLE)
      : await db.createEmptyTable(DOCUMENTS_TABLE, documentsSchema(), { existOk: true });
    // Data dirs from before file_path: the column is added (null: such documents have no recorded file).
    if (!(await table.schema()).fields.some((f) => f.name === 'file_path')) {
      await table.addColumns([{ name: 'file_path', valueSql: 'CAST(NULL AS STRING)' }]);
    }
    return new DocumentsRepo(table);
  }

  /** The file a document was read from, as ingestion recorded it: null when none, undefined when no such document. */
  async filePath(kbId: string, docId: string): Promise<string | null | undefined> {
    const rows = (await this.table.query().where(byDoc(kbId, docId)).select(['file_path']).limit(1).toArray()) as Raw[];
    if (!rows[0]) return undefined;
    const p = rows[0].file_path;
    return typeof p === 'string' && p ? p : null;
  }

  async get(kbId: string, docId: string): Promise<(DocumentFull & { version: string }) | undefined> {
    const rows = (await this.table.query().where(byDoc(kbId, docId)).limit(1).toArray()) as Raw[];
    const r = rows[0];
    return r ? { ...toSummary(r), content: String(r.content) } : undefined;
  }

  async summary(kbId: string, docId: string): Promise<(DocumentSummary & { version: string }) | undefined> {
    const rows = (await this.table.query().where(byDoc(kbId, docId)).select(SUMMARY_COLUMNS).limit(1).toArray()) as Raw[];
    return rows[0] ? toSummary(rows[0]) : undefined;
  }

  /** Summaries of the given documents that exist, by doc_id (one query for a whole batch). */
  async summaries(kbId: string, docIds: string[]): Promise<Map<string, DocumentSummary & { version: string }>> {
    return (await this.known(kbId, docIds, [])).existing;
  }

  /** content_hash → doc_id for the hashes already stored in a KB (one query for a whole batch). */
  async findByHashes(kbId: string, hashes: string[]): Promise<Map<string, string>> {
    return (await this.known(kbId, [], hashes)).hashes;
  }

  /**
   * What a batch's write decision reads, in one query per 500 of each (every document write leaves a fragment
   * until compaction, and each query reads every fragment): the summaries of the doc_ids that exist, and
   * content_hash → doc_id for the hashes already stored (as summaries and findByHashes give them).
   */
  async known(
    kbId: string,
    docIds: string[],
    hashes: string[],
  ): Promise<{ existing: Map<string, DocumentSummary & { version: string }>; hashes: Map<string, string> }> {
    const out = { existing: new Map<string, DocumentSummary & { version: string }>(), hashes: new Map<string, string>() };
    for (let i = 0; i < Math.max(docIds.length, hashes.length); i += 500) {
      const ids = docIds.slice(i, i + 500);
      const sums = hashes.slice(i, i + 500);
      const wanted = new Set(ids);
      const any = [
        ...(ids.length > 0 ? [`doc_id IN (${ids.map(sqlString).join(', ')})`] : []),
        ...(sums.length > 0 ? [`content_hash IN (${sums.map(sqlString).join(', ')})`] : []),
      ];
      const rows = (await this.table
        .query()
        .where(`${byKb(kbId)} AND (${any.join(' OR ')})`)
        .select(SUMMARY_COLUMNS)
        .toArray()) as Raw[];
      const hashSet = new Set(sums);
      for (const r of rows) {
        const docId = String(r.doc_id);
        const hash = String(r.content_hash);
        if (wanted.has(docId)) out.existing.set(docId, toSummary(r));
        if (hashSet.has(hash) && !out.hashes.has(hash)) out.hashes.set(hash, docId);
      }
    }
    return out;
  }

  /** All summaries of a KB, newest first (documents tables are small next to chunk tables). */
  async listAll(kbId: string): Promise<Array<DocumentSummary & { version: string }>> {
    const rows = (await this.table.query().where(byKb(kbId)).select(SUMMARY_COLUMNS).toArray()) as Raw[];
    return rows.map(toSummary).sort((a, b) => b.updated_at.localeCompare(a.updated_at) || a.doc_id.localeCompare(b.doc_id));
  }

  /**
   * One page of a KB's summaries, newest first, optionally only those whose title or doc_id contains `needle`
   * (case-insensitive): three narrow columns of every row are read batch by batch to filter and order, keeping only
   * the `offset + limit` newest (memory in the page's depth, not the KB's size), then only the page's rows whole.
   */
  async page(
    kbId: string,
    offset: number,
    limit: number,
    needle?: string,
  ): Promise<{ total: number; documents: Array<DocumentSummary & { version: string }> }> {
    const n = needle?.toLocaleLowerCase();
    const depth = offset + limit;
    let newest: PageKey[] = [];
    let total = 0;
    await eachRow(this.table.query().where(byKb(kbId)), ['doc_id', 'title', 'updated_at'], ([doc_id, title, updated_at]) => {
      if (n && !title.toLocaleLowerCase().includes(n) && !doc_id.toLocaleLowerCase().includes(n)) return;
      total++;
      newest.push({ doc_id, updated_at });
      // Cut back to the depth now and then (sorting each time would cost more than it saves).
      if (newest.length >= 2 * depth + 1024) newest = newestFirst(newest).slice(0, depth);
    });
    const ids = newestFirst(newest)
      .slice(offset, depth)
      .map((d) => d.doc_id);
    const rows = await this.summaries(kbId, ids);
    return { total, documents: ids.flatMap((id) => (rows.has(id) ? [rows.get(id)!] : [])) };
  }

  async count(kbId: string): Promise<number> {
    return this.table.countRows(byKb(kbId));
  }

  /**
   * Write document rows in one commit: a plain append when all are new, else insert-or-replace matched on
   * kb_id + doc_id.
   */
  async upsert(rows: DocumentRow[], allNew = false): Promise<void> {
    if (rows.length === 0) return;
    const data = buildArrowTable(
      documentsSchema(),
      rows.map((r) => ({ ...r, metadata: JSON.stringify(r.metadata), chunking: JSON.stringify(r.chunking) })),
    );
    await this.mutate(changesOf(rows), async () => {
      if (allNew) await this.table.add(data);
      else await this.table.mergeInsert(['kb_id', 'doc_id']).whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data);
    });
  }

  async delete(kbId: string, docId: string): Promise<void> {
    await this.mutate([{ kbId, docIds: [docId], hashes: [] }], () => this.table.delete(byDoc(kbId, docId)));
  }

  /** Delete many documents of a KB in one commit per 500. */
  async deleteMany(kbId: string, docIds: string[]): Promise<void> {
    for (let i = 0; i < docIds.length; i += 500) {
      const part = docIds.slice(i, i + 500);
      const where = `${byKb(kbId)} AND doc_id IN (${part.map(sqlString).join(', ')})`;
      await this.mutate([{ kbId, docIds: part, hashes: [] }], () => this.table.delete(where));
    }
  }

  /**
   * doc_id → content_hash of the documents of a KB (all of them, or those `keep` accepts). Two columns, read batch
   * by batch without a row object per document, so what stays is the map: with `keep`, in the size of what the
   * caller asked for, not of the KB (a sync of a small source in a KB of a million documents).
   */
  async docHashes(kbId: string, keep?: (docId: string) => boolean): Promise<Map<string, string>> {
    return this.columnPairs(kbId, 'content_hash', keep);
  }

  /** doc_id → `column` of a KB's documents (those `keep` accepts), read batch by batch as strings. */
  private async columnPairs(kbId: string, column: string, keep?: (docId: string) => boolean): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    await eachRow(this.table.query().where(byKb(kbId)), ['doc_id', column], ([id, value]) => {
      if (!keep || keep(id)) out.set(id, value);
    });
    return out;
  }

  async deleteKb(kbId: string): Promise<void> {
    await this.mutate([{ kbId, docIds: 'all', hashes: [] }], () => this.table.delete(byKb(kbId)));
  }

  /** doc_id → version of every document in a KB (for crash repair). */
  async versions(kbId: string): Promise<Map<string, string>> {
    return this.columnPairs(kbId, 'version');
  }

  /** When a KB's documents were last written (null: none), read batch by batch. */
  async lastUpdate(kbId: string): Promise<string | null> {
    let last: string | null = null;
    await eachRow(this.table.query().where(byKb(kbId)), ['updated_at'], ([at]) => {
      if (last === null || at > last) last = at;
    });
    return last;
  }

  /** Small fragments waiting for compaction (see compactIfFragmented). */
  async smallFragments(): Promise<number> {
    return (await this.table.stats()).fragmentStats.numSmallFragments;
  }

  /**
   * Compact the table once enough small fragments wait: every document write appends a fragment, and lookups
   * (the existence check of each add, merge-inserts) read every fragment, so without this an owner that takes
   * one document at a time for days gets slower with each write. Old versions go after KEEP_VERSIONS_MS.
   * Returns whether it compacted.
   */
  async compactIfFragmented(force = false): Promise<boolean> {
    if (!force && (await this.smallFragments()) < COMPACT_AFTER_FRAGMENTS) return false;
    await this.commit(() => this.table.optimize({ cleanupOlderThan: new Date(Date.now() - KEEP_VERSIONS_MS) }));
    return true;
  }
}
