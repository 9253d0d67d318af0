import { Index } from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { tempDirsPerTest } from '../test-support.js';
import { OwnConnection } from './lance-session.js';

const dbDir = tempDirsPerTest('ragdesk-lance-session-');

describe('OwnConnection', () => {
  it('counts what its own caches hold; a reopened one starts empty, and closing one leaves the other open', async () => {
    const dir = dbDir();
    const first = await OwnConnection.open(dir);
    const rows = Array.from({ length: 200 }, (_, i) => ({ id: i, text: `fjord harbour note ${i} pier ${i % 7}` }));
    const table = await first.db.createTable('t', rows);
    await table.createIndex('text', { config: Index.fts() });
    const opened = first.cacheBytes;
    await table.prewarmIndex('text_idx');
    expect(first.cacheBytes).toBeGreaterThan(opened);
    const second = await first.reopen();
    expect(second.cacheBytes).toBeLessThan(first.cacheBytes);
    const again = await second.db.openTable('t');
    expect(await again.countRows()).toBe(200);
    first.close();
    expect(first.db.isOpen()).toBe(false);
    expect(second.db.isOpen()).toBe(true);
    // A table opened before its connection closed still reads.
    expect(await table.countRows()).toBe(200);
    table.close();
    again.close();
    second.close();
  });

  it('keeps its metadata cache to the bound it was given while every write makes a version', async () => {
    const bound = 128 * 1024;
    /** 80 single-row writes, each read back: the most the connection's caches held meanwhile. */
    const grow = async (conn: OwnConnection) => {
      const table = await conn.db.createTable('docs', [{ id: 0, text: 'fjord' }]);
      let most = 0;
      for (let i = 1; i <= 80; i++) {
        await table.add([{ id: i, text: `fjord harbour note ${i}` }]);
        expect(await table.countRows(`id <= ${i}`)).toBe(i + 1);
        most = Math.max(most, conn.cacheBytes);
      }
      table.close();
      conn.close();
      return most;
    };
    // On LanceDB's default bound every version's metadata stays (~40 KB each here); on the small one, what is over
    // the bound is evicted (LanceDB counts a little beside it, which the bound does not cover).
    const small = await grow(await OwnConnection.open(dbDir(), bound));
    const wide = await grow(await OwnConnection.open(dbDir()));
    expect(small).toBeLessThanOrEqual(2 * bound);
    expect(wide).toBeGreaterThan(10 * bound);
  });
});
