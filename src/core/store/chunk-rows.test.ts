import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support.js';
import { plainRows } from './chunk-rows.js';

describe('plainRows', () => {
  it('reads a LanceDB result into the values its row proxies give, nulls and row ids included', async () => {
    const db = await lancedb.connect(path.join(tempDir(), 'lance'));
    const table = await db.createTable('t', [
      { id: 'a', n: 1, page: 3, text: 'Таможня 海关', score: 0.5 },
      { id: 'b', n: 2, page: null, text: '', score: -1.25 },
    ]);
    const query = () => table.query().select(['id', 'n', 'page', 'text', 'score']).withRowId();
    const proxies = (await query().toArray()) as Array<Record<string, unknown>>;
    const rows = plainRows(await query().toArrow());
    expect(rows).toEqual(proxies.map((p) => ({ id: p.id, n: p.n, page: p.page, text: p.text, score: p.score, _rowid: p._rowid })));
    expect(typeof rows[0]!._rowid).toBe('bigint');
    expect(rows[1]!.page).toBeNull();
    table.close();
    db.close();
  });
});
