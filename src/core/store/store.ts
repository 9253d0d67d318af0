import fs from 'node:fs';
import path from 'node:path';
import type * as lancedb from '@lancedb/lancedb';
import type { Kb } from '../../shared/contract/index.js';
import { KeyedMutex } from '../util/keyed-mutex.js';
import { ChunkTable, chunkTableName, physicalChunkTable } from './chunk-table.js';
import { ContentFiles } from './content-files.js';
import { DocumentsRepo } from './documents-repo.js';
import { ExactStatsMark } from './exact-stats-mark.js';
import { KbRegistry } from './kb-registry.js';
import { configureLance } from './lance-runtime.js';
import { OwnConnection, SHARED_METADATA_CACHE_BYTES } from './lance-session.js';
import { sqlString } from './sql.js';

/**
 * A write to documents, recorded in the KB's marker file before its first commit. A document write is two
 * commits, the chunk table's (one commit for all the batch's chunks: new ones in, replaced ones out) and then
 * the `documents` table's; the second one decides whether the write happened. Until it is known to have, the
 * chunk table can be put back to `before`.
 */
export interface WriteIntent {
  kind: 'put' | 'delete';
  /** Physical chunk table written. */
  table: string;
  /** Its version before the write. */
  before: number;
  /** put: the version stamped on the batch's document rows. */
  version?: string;
  doc_ids: string[];
}

interface Marker {
  pid: number;
  intent?: WriteIntent;
}

/**
 * A document written in several commits (a streamed file), recorded in `.staging-<version>` before its first row:
 * its rows stay hidden until it is published (chunk-table.ts `stage`). Its document row decides, as for any write:
 * a crash before that row leaves rows nobody owns (deleted at the next open), a crash after it the document's
 * older rows (deleted then too).
 */
export interface StagedWrite {
  kb_id: string;
  table: string;
  doc_id: string;
  version: string;
}

/**
 * The on-disk store: KB registry (kbs.json), the `documents` table and one chunk table per KB in LanceDB.
 * Writes to a KB are serialised by a per-KB mutex and leave a marker file while they run. A document write
 * records its intent there (see WriteIntent): a write that fails, or a process killed mid-write, is settled by
 * putting the chunk table back to its version before the write unless the document rows were committed, at
 * once (failure) or at the next open (crash). Readers never see a half-written document, and after a restart
 * every acknowledged write is there.
 */
export class Store {
  readonly writes = new KeyedMutex();
  /** Text of documents too large for their document row (see content-files.ts). */
  readonly contents: ContentFiles;
  private readonly tables = new Map<string, ChunkTable>();
  private readonly creating = new Map<string, Promise<ChunkTable>>();
  private readonly intents = new Map<string, WriteIntent>();

  private constructor(
    readonly dir: string,
    readonly db: lancedb.Connection,
    readonly docs: DocumentsRepo,
    readonly registry: KbRegistry,
  ) {
    this.contents = new ContentFiles(path.join(path.dirname(dir), 'content'));
  }

  static async open(lanceDir: string, registryFile: string): Promise<Store> {
    fs.mkdirSync(lanceDir, { recursive: true });
    configureLance();
    const { db } = await OwnConnection.open(lanceDir, SHARED_METADATA_CACHE_BYTES);
    const store = new Store(lanceDir, db, await DocumentsRepo.open(db), new KbRegistry(registryFile));
    await store.repairInterruptedWrites();
    return store;
  }

  private markerPath(kbId: string): string {
    return path.join(this.dir, `.writing-${kbId}`);
  }

  private writeMarker(kbId: string, marker: Marker): void {
    const file = this.markerPath(kbId);
    const fd = fs.openSync(file, 'w', 0o600);
    try {
      fs.writeSync(fd, JSON.stringify(marker));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * Run a write to a KB under its mutex, with the crash marker in place. If the task fails after recording an
   * intent whose document rows were not committed, the chunk table is put back before the error goes on: a
   * failed write leaves nothing behind.
   */
  write<T>(kbId: string, task: () => Promise<T>): Promise<T> {
    return this.writes.run(kbId, async () => {
      this.writeMarker(kbId, { pid: process.pid });
      try {
        return await task();
      } catch (err) {
        const intent = this.intents.get(kbId);
        if (intent) await this.settle(kbId, intent);
        throw err;
      } finally {
        this.intents.delete(kbId);
        fs.rmSync(this.markerPath(kbId), { force: true });
      }
    });
  }

  /** Record a document write before its first commit (inside `write`). */
  recordIntent(kbId: string, intent: WriteIntent): void {
    this.writeMarker(kbId, { pid: process.pid, intent });
    this.intents.set(kbId, intent);
  }

  /** The document rows of the recorded write are committed: it stands whatever happens next. */
  intentDone(kbId: string): void {
    this.intents.delete(kbId);
    this.writeMarker(kbId, { pid: process.pid });
  }

  /** Whether the document rows of a write were committed (the write happened). */
  private async committed(kbId: string, intent: WriteIntent): Promise<boolean> {
    if (intent.doc_ids.length === 0) return true;
    const rows = await this.docs.summaries(kbId, intent.doc_ids);
    if (intent.kind === 'delete') return rows.size === 0;
    return [...rows.values()].some((r) => r.version === intent.version);
  }

  /** Keep a write whose document rows were committed; else put its chunk table back as it was before it. */
  private async settle(kbId: string, intent: WriteIntent): Promise<'kept' | 'rolled back'> {
    if (await this.committed(kbId, intent)) return 'kept';
    const table = await this.openTable(intent.table);
    if (table) await table.rollbackTo(intent.before);
    // The content files it wrote for its large texts (content-files.ts).
    if (intent.kind === 'put' && intent.version)
      for (const docId of intent.doc_ids) this.contents.removeVersion(kbId, docId, intent.version);
    return 'rolled back';
  }

  private stagingPath(version: string): string {
    return path.join(this.dir, `.staging-${version}`);
  }

  /** Record a staged write before its first rows (see StagedWrite). */
  beginStaged(write: StagedWrite): void {
    const fd = fs.openSync(this.stagingPath(write.version), 'w', 0o600);
    try {
      fs.writeSync(fd, JSON.stringify(write));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The staged write is published or dropped: nothing is left to repair. */
  endStaged(version: string): void {
    fs.rmSync(this.stagingPath(version), { force: true });
  }

  /** Settle a staged write a crash cut short: keep it if its document row was committed, else remove its rows. */
  private async repairStaged(w: StagedWrite): Promise<boolean> {
    const table = await this.openTable(w.table);
    const row = await this.docs.summary(w.kb_id, w.doc_id);
    const doc = `doc_id = ${sqlString(w.doc_id)}`;
    if (row?.version === w.version) {
      if (table) await table.deleteWhere(`${doc} AND version <> ${sqlString(w.version)}`);
      return true;
    }
    if (table) await table.deleteWhere(`version = ${sqlString(w.version)}`);
    return true;
  }

  /** At open: settle the writes a crash cut short (see WriteIntent). Returns the KBs that were repaired. */
  async repairInterruptedWrites(): Promise<string[]> {
    const repaired: string[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      if (!name.startsWith('.staging-')) continue;
      let write: StagedWrite | undefined;
      try {
        write = JSON.parse(fs.readFileSync(path.join(this.dir, name), 'utf8')) as StagedWrite;
      } catch {
        write = undefined;
      }
      if (write && (await this.repairStaged(write))) repaired.push(write.kb_id);
      fs.rmSync(path.join(this.dir, name), { force: true });
    }
    for (const kbId of this.contents.kbs()) this.contents.sweep(kbId, await this.docs.versions(kbId));
    for (const name of fs.readdirSync(this.dir)) {
      if (!name.startsWith('.writing-')) continue;
      const kbId = name.slice('.writing-'.length);
      let marker: Marker | undefined;
      try {
        marker = JSON.parse(fs.readFileSync(path.join(this.dir, name), 'utf8')) as Marker;
      } catch {
        marker = undefined;
      }
      if (marker?.intent) {
        if ((await this.settle(kbId, marker.intent)) === 'rolled back') repaired.push(kbId);
      } else if (await this.removeOrphans(kbId)) repaired.push(kbId);
      fs.rmSync(path.join(this.dir, name), { force: true });
    }
    return repaired;
  }

  /** Writes with no recorded intent (older versions, bulk deletes): chunks that no document row owns go. */
  private async removeOrphans(kbId: string): Promise<boolean> {
    const table = await this.chunks(kbId);
    if (!table) return false;
    const owned = await this.docs.versions(kbId);
    const orphans = (await table.docVersions()).filter((p) => owned.get(p.doc_id) !== p.version);
    for (const o of orphans) await table.deleteWhere(`doc_id = ${sqlString(o.doc_id)} AND version = ${sqlString(o.version)}`);
    return orphans.length > 0;
  }

  /**
   * A KB's chunk table: the physical table its record points at (`chunk_table`, see physicalChunkTable). Given a
   * KB record (a snapshot), the table that snapshot points at, so a search started before a model-change swap
   * finishes on the table and model it started with.
   */
  async chunks(kb: string | Kb): Promise<ChunkTable | undefined> {
    const record = typeof kb === 'string' ? this.registry.find(kb) : kb;
    return this.openTable(record ? physicalChunkTable(record) : chunkTableName(kb as string));
  }

  async createChunks(kb: Kb, dim: number): Promise<ChunkTable> {
    return this.createTable(physicalChunkTable(kb), dim);
  }

  /**
   * A chunk table by its physical name (cached). One being created in this process is waited for: LanceDB lists a
   * table from its first file on, and opening it before its first version is written fails ("not found"), which a
   * search during a KB's first write met as an internal error.
   */
  async openTable(name: string): Promise<ChunkTable | undefined> {
    const cached = this.tables.get(name) ?? this.creating.get(name);
    if (cached) return cached;
    // A table not there yet (a KB nobody wrote) costs no connection: searches of an empty KB ask often.
    if (!(await this.db.tableNames()).includes(name)) return undefined;
    const table = await this.onOwnConnection((conn) => ChunkTable.open(conn, name, this.dir));
    if (!table) return undefined;
    // A create or another open may have begun or finished meanwhile: one object per table, the first one cached.
    const first = this.tables.get(name) ?? this.creating.get(name);
    if (first) {
      table.close();
      return first;
    }
    this.tables.set(name, table);
    return table;
  }

  async createTable(name: string, dim: number): Promise<ChunkTable> {
    const creating = this.onOwnConnection((conn) => ChunkTable.create(conn, name, dim, this.dir))
      .then((table) => {
        const first = this.tables.get(name);
        if (first) {
          table.close();
          return first;
        }
        this.tables.set(name, table);
        return table;
      })
      .finally(() => this.creating.delete(name));
    this.creating.set(name, creating);
    return creating;
  }

  /**
   * A chunk table on a LanceDB connection of its own (lance-session.ts): its indexes' caches are its own, renewed
   * without touching another table's. The connection is closed when no table comes of it.
   */
  private async onOwnConnection<T extends ChunkTable | undefined>(open: (conn: OwnConnection) => Promise<T>): Promise<T> {
    const conn = await OwnConnection.open(this.dir);
    try {
      const table = await open(conn);
      if (!table) conn.close();
      return table;
    } catch (err) {
      conn.close();
      throw err;
    }
  }

  async dropTable(name: string): Promise<void> {
    this.tables.get(name)?.close();
    this.tables.delete(name);
    ExactStatsMark.in(this.dir, name).clear();
    if ((await this.db.tableNames()).includes(name)) await this.db.dropTable(name);
  }

  /** Physical chunk tables that belong to a KB: its default table and any model-change tables. */
  async kbTableNames(kbId: string): Promise<string[]> {
    return (await this.db.tableNames()).filter((n) => n === chunkTableName(kbId) || n.startsWith(`${chunkTableName(kbId)}.`));
  }

  async dropKb(kbId: string): Promise<void> {
    for (const name of await this.kbTableNames(kbId)) await this.dropTable(name);
    await this.docs.deleteKb(kbId);
    this.contents.removeKb(kbId);
  }

  /**
   * Prune the old versions of every settled chunk table (ChunkTable.pruneSettled), when nothing reads or writes them
   * any more: the engine closing. A table that fails keeps its versions until its next compaction.
   */
  async pruneSettled(): Promise<number> {
    let bytes = 0;
    for (const [name, t] of this.tables) {
      bytes += await t.pruneSettled().catch((err: unknown) => {
        process.stderr.write(`ragdesk: pruning ${name} failed: ${String(err)}\n`);
        return 0;
      });
    }
    return bytes;
  }

  close(): void {
    for (const t of this.tables.values()) t.close();
    this.tables.clear();
    this.db.close();
  }
}
