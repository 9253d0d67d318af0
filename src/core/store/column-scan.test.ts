import * as lancedb from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support.js';
import { eachRow } from './column-scan.js';

describe('eachRow', () => {
  it("visits every row of every batch with the selected columns' values as strings, in order", async () => {
    const db = await lancedb.connect(tempDir());
    // Past LanceDB's batch of 1,024 rows, in two fragments.
    const rows = (from: number) => Array.from({ length: 1500 }, (_, i) => ({ id: `r${from + i}`, n: from + i, skip: 'x' }));
    const table = await db.createTable('t', rows(0));
    await table.add(rows(1500));
    const seen: string[] = [];
    await eachRow(table.query().where('n % 7 = 0'), ['id', 'n'], ([id, n]) => seen.push(`${id}:${n}`));
    const want = Array.from({ length: 3000 }, (_, i) => i)
      .filter((i) => i % 7 === 0)
      .map((i) => `r${i}:${i}`);
    expect(seen.sort()).toEqual(want.sort());
  });

  it('skips a batch without one of the columns (none visited)', async () => {
    const db = await lancedb.connect(tempDir());
    const table = await db.createTable('t', [{ id: 'a' }]);
    let visits = 0;
    await eachRow({ select: () => table.query().select(['id']) }, ['id', 'missing'], () => visits++);
    expect(visits).toBe(0);
  });
});
