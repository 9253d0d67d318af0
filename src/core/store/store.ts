import fs from 'node:fs';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import type { Kb } from '../../shared/contract/index.js';
import { KeyedMutex } from '../util/keyed-mutex.js';
import { ChunkTable, chunkTableName, physicalChunkTable } from './chunk-table.js';
import { DocumentsRepo } from './documents-repo.js';
import { KbRegistry } from './kb-registry.js';
import { sqlString } from './sql.js';

/**
 * The on-disk store: KB registry (kbs.json), the `documents` table and one chunk table per KB in LanceDB.
 * Writes to a KB are serialised by a per-KB mutex. A write in progress leaves a marker file; if the process
 * dies before the write completes, the next open removes chunks that no document row owns (the document row
 * is written last, so a half-written document never becomes visible after a restart).
 */
export class Store {
  readonly writes = new KeyedMutex();
  private readonly tables = new Map<string, ChunkTable>();

  private constructor(
    readonly dir: string,
    readonly db: lancedb.Connection,
    readonly docs: DocumentsRepo,
    readonly registry: KbRegistry,
  ) {}

  static async open(lanceDir: string, registryFile: string): Promise<Store> {
    fs.mkdirSync(lanceDir, { recursive: true });
    const db = await lancedb.connect(lanceDir);
    const store = new Store(lanceDir, db, await DocumentsRepo.open(db), new KbRegistry(registryFile));
    await store.repairInterruptedWrites();
    return store;
  }

  private markerPath(kbId: string): string {
    return path.join(this.dir, `.writing-${kbId}`);
  }

  /** Run a write to a KB under its mutex, with the crash marker in place. */
  write<T>(kbId: string, task: () => Promise<T>): Promise<T> {
    return this.writes.run(kbId, async () => {
      const marker = this.markerPath(kbId);
      fs.writeFileSync(marker, String(process.pid));
      const result = await task();
      fs.rmSync(marker, { force: true });
      return result;
    });
  }

  async repairInterruptedWrites(): Promise<string[]> {
    const repaired: string[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      if (!name.startsWith('.writing-')) continue;
      const kbId = name.slice('.writing-'.length);
      const table = await this.chunks(kbId);
      if (table) {
        const owned = await this.docs.versions(kbId);
        const orphans = (await table.docVersions()).filter((p) => owned.get(p.doc_id) !== p.version);
        for (const o of orphans) await table.deleteWhere(`doc_id = ${sqlString(o.doc_id)} AND version = ${sqlString(o.version)}`);
        if (orphans.length) repaired.push(kbId);
      }
      fs.rmSync(path.join(this.dir, name), { force: true });
    }
    return repaired;
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

  /** A chunk table by its physical name (cached). */
  async openTable(name: string): Promise<ChunkTable | undefined> {
    const cached = this.tables.get(name);
    if (cached) return cached;
    const table = await ChunkTable.open(this.db, name);
    if (table) this.tables.set(name, table);
    return table;
  }

  async createTable(name: string, dim: number): Promise<ChunkTable> {
    const table = await ChunkTable.create(this.db, name, dim);
    this.tables.set(name, table);
    return table;
  }

  async dropTable(name: string): Promise<void> {
    this.tables.delete(name);
    if ((await this.db.tableNames()).includes(name)) await this.db.dropTable(name);
  }

  /** Physical chunk tables that belong to a KB: its default table and any model-change tables. */
  async kbTableNames(kbId: string): Promise<string[]> {
    return (await this.db.tableNames()).filter((n) => n === chunkTableName(kbId) || n.startsWith(`${chunkTableName(kbId)}.`));
  }

  async dropKb(kbId: string): Promise<void> {
    for (const name of await this.kbTableNames(kbId)) await this.dropTable(name);
    await this.docs.deleteKb(kbId);
  }

  close(): void {
    this.tables.clear();
    this.db.close();
  }
}
