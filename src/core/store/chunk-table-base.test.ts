import type { Connection, Table } from '@lancedb/lancedb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDirsPerTest, textRow } from '../test-support.js';
import { ChunkTable } from './chunk-table.js';
import { OwnConnection } from './lance-session.js';

const tableDir = tempDirsPerTest('ragdesk-chunk-table-base-');

const row = (docId: string, text: string) => textRow(docId, 0, text);

/** What renewConnection swaps, read from outside for the test. */
const inner = (t: ChunkTable) => t as unknown as { table: Table; db: Connection; own: OwnConnection };

/** A table on a connection of its own, with 20 indexed notes about fjords. */
async function indexedTable(dir: string): Promise<ChunkTable> {
  const table = await ChunkTable.create(await OwnConnection.open(dir), 'chunks__t', 0);
  for (let d = 0; d < 20; d++) await table.add([row(`doc${d}`, `fjord harbour note number ${d}`)]);
  await table.ensureFtsIndex();
  return table;
}

const fjordDocs = async (t: ChunkTable) => {
  const part = await t.lexicalPart(['fjord'], 100);
  return [...(part.scored ?? part.candidates)].map((c) => c.doc_id).sort();
};

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('ChunkTable.renewConnection: caches dropped with the connection they grew in', () => {
  it('stays on its connection while the caches hold less than the bound', async () => {
    const table = await indexedTable(tableDir());
    try {
      await fjordDocs(table);
      const before = inner(table).own;
      expect(table.cacheBytes).toBeGreaterThan(0);
      expect(await table.renewConnection(table.cacheBytes + 1)).toBe(false);
      expect(inner(table).own).toBe(before);
      expect(table.renewals).toBe(0);
    } finally {
      table.close();
    }
  });

  it('moves to a new connection with its indexes loaded; searches and writes go on, a pinned snapshot still reads', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const dir = tableDir();
    const table = await indexedTable(dir);
    try {
      const expected = Array.from({ length: 20 }, (_, d) => `doc${d}`).sort();
      expect(await fjordDocs(table)).toEqual(expected);
      const pinned = await table.snapshot();
      const old = inner(table);
      const [oldTable, oldOwn] = [old.table, old.own];
      expect(await table.renewConnection(0)).toBe(true);
      expect(table.renewals).toBe(1);
      expect(inner(table).own).not.toBe(oldOwn);
      expect(inner(table).table).not.toBe(oldTable);
      // The full-text index was loaded into the new connection's caches before the swap: they hold more than a
      // connection that only opened the table.
      const bare = await OwnConnection.open(dir);
      (await bare.db.openTable('chunks__t')).close();
      expect(table.cacheBytes).toBeGreaterThan(bare.cacheBytes);
      bare.close();
      // The next search pins a snapshot of the new connection: same answer.
      expect(await table.snapshot()).not.toBe(pinned);
      expect(await fjordDocs(table)).toEqual(expected);
      // A search still reading the snapshot from before finishes on the old handles.
      const early = await pinned.lexicalPart(['fjord'], 100);
      expect([...(early.scored ?? early.candidates)]).toHaveLength(20);
      // Writes land through the new handle and are found.
      await table.add([row('late', 'fjord late note')]);
      expect(await fjordDocs(table)).toEqual([...expected, 'late'].sort());
      expect(await table.count()).toBe(21);
      // A minute later the old table handle goes (its snapshot with it).
      expect(oldTable.isOpen()).toBe(true);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(oldTable.isOpen()).toBe(false);
      expect(await fjordDocs(table)).toEqual([...expected, 'late'].sort());
    } finally {
      table.close();
    }
  }, 60_000);

  it('a minute after a renewal the old connection closes and its Session is collected, the caches with it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const table = await indexedTable(tableDir());
    try {
      await fjordDocs(table);
      // LanceDB frees a Session's caches once V8 collects its JS object (lance-session.ts close).
      let collected = false;
      const registry = new FinalizationRegistry(() => (collected = true));
      const oldOwn = inner(table).own;
      registry.register((oldOwn as unknown as { session: object }).session, 'old session');
      expect(await table.renewConnection(0)).toBe(true);
      expect(oldOwn.cacheBytes).toBeGreaterThan(0);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(oldOwn.db.isOpen()).toBe(false);
      expect(oldOwn.cacheBytes).toBe(0);
      vi.useRealTimers();
      // The registry's callback runs as a task after the collection.
      for (let i = 0; i < 50 && !collected; i++) await new Promise((r) => setTimeout(r, 10));
      expect(collected).toBe(true);
      expect(await fjordDocs(table)).toHaveLength(20);
    } finally {
      table.close();
    }
  }, 60_000);

  it('a commit that lands while the new connection loads its indexes is seen through the new handle', async () => {
    const dir = tableDir();
    const table = await indexedTable(dir);
    try {
      vi.spyOn(inner(table).own, 'reopen').mockImplementation(async () => {
        const fresh = await OwnConnection.open(dir);
        const open = fresh.db.openTable.bind(fresh.db);
        vi.spyOn(fresh.db, 'openTable').mockImplementationOnce(async (...args) => {
          const opened = await open(...args);
          // After the new handle was opened at the table's version then, before the swap.
          await table.add([row('late', 'fjord late note')]);
          return opened;
        });
        return fresh;
      });
      expect(await table.renewConnection(0)).toBe(true);
      expect(await table.count()).toBe(21);
      expect(await fjordDocs(table)).toContain('late');
    } finally {
      table.close();
    }
  }, 60_000);

  it('not beside a full-text build that writes land beside (its commit is the old connection’s)', async () => {
    const table = await indexedTable(tableDir());
    try {
      const { done } = await table.rebuildFtsBeside();
      expect(await table.renewConnection(0)).toBe(false);
      await done;
      expect(await table.renewConnection(0)).toBe(true);
      expect(await fjordDocs(table)).toHaveLength(20);
    } finally {
      table.close();
    }
  }, 60_000);

  it('close() closes the handles a renewal replaced at once, and the table’s own connection', async () => {
    const table = await indexedTable(tableDir());
    const { table: oldTable, db: oldDb } = inner(table);
    expect(await table.renewConnection(0)).toBe(true);
    const { table: newTable, db: newDb } = inner(table);
    table.close();
    expect([oldTable.isOpen(), oldDb.isOpen(), newTable.isOpen(), newDb.isOpen()]).toEqual([false, false, false, false]);
  }, 60_000);

  it('a table on a shared connection (no own one) never renews', async () => {
    const dir = tableDir();
    const shared = await OwnConnection.open(dir);
    const table = await ChunkTable.create(shared.db, 'chunks__t', 0);
    try {
      await table.add([row('a', 'fjord')]);
      expect(table.cacheBytes).toBe(0);
      expect(await table.renewConnection(0)).toBe(false);
    } finally {
      table.close();
      shared.close();
    }
  });
});

describe('ChunkTable.snapshot: a replaced snapshot lets go what it kept', () => {
  it('the rows above the watermark kept by one version go when a write makes the next; searches of both stay right', async () => {
    const table = await indexedTable(tableDir());
    try {
      await table.add([row('late1', 'fjord late note')]);
      const first = await table.snapshot();
      const delta = (s: unknown) => (s as { view: { delta?: { released: boolean; rows?: unknown } } }).view.delta!;
      expect((await first.lexicalPart(['fjord'], 100)).candidates.map((c) => c.doc_id)).toContain('late1');
      expect(delta(first).rows).toBeDefined();
      await table.add([row('late2', 'fjord later note')]);
      const second = await table.snapshot();
      expect(second).not.toBe(first);
      expect(delta(first)).toMatchObject({ released: true, rows: undefined });
      expect(delta(second).released).toBe(false);
      expect((await first.lexicalPart(['fjord'], 100)).candidates.map((c) => c.doc_id)).not.toContain('late2');
      expect((await second.lexicalPart(['fjord'], 100)).candidates.map((c) => c.doc_id)).toEqual(
        expect.arrayContaining(['late1', 'late2']),
      );
    } finally {
      table.close();
    }
  });
});
