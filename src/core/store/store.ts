import fs from 'node:fs';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import type { Kb } from '../../shared/contract/index.js';
import { KeyedMutex } from '../util/keyed-mutex.js';
import { ChunkTable, chunkTableName } from './chunk-table.js';
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

  async chunks(kbId: string): Promise<ChunkTable | undefined> {
    const cached = this.tables.get(kbId);
    if (cached) return cached;
    const table = await ChunkTable.open(this.db, kbId);
    if (table) this.tables.set(kbId, table);
    return table;
  }

  async createChunks(kb: Kb, dim: number): Promise<ChunkTable> {
    const table = await ChunkTable.create(this.db, kb.kb_id, dim);
    this.tables.set(kb.kb_id, table);
    return table;
  }

  async dropKb(kbId: string): Promise<void> {
    this.tables.delete(kbId);
    const names = await this.db.tableNames();
    if (names.includes(chunkTableName(kbId))) await this.db.dropTable(chunkTableName(kbId));
    await this.docs.deleteKb(kbId);
  }

  close(): void {
    this.tables.clear();
    this.db.close();
  }
}
