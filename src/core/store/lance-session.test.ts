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
});
