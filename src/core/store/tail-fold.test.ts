import { connect, type Table } from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { tempDirsPerTest, textRow } from '../test-support.js';
import { ChunkTable } from './chunk-table.js';
import { baseFragment, FOLD_MAX_ROWS, foldPlan } from './tail-fold.js';

const tableDir = tempDirsPerTest('ragdesk-tail-fold-');

const notes = (from: number, n: number, word = 'fjord') =>
  Array.from({ length: n }, (_, i) => textRow(`doc${from + i}`, 0, `${word} harbour note number ${from + i}`));

/** Each live row's address (`_rowaddr`: fragment id << 32 | offset), by chunk id. */
async function addresses(table: Table): Promise<Map<string, bigint>> {
  const rows = await table.query().select(['chunk_id', '_rowaddr']).toArray();
  return new Map(rows.map((r) => [String(r.chunk_id), BigInt(r._rowaddr)]));
}

describe('baseFragment and foldPlan', () => {
  it('find the fragment holding more than half the rows, and the rows outside it', async () => {
    const db = await connect(tableDir());
    const table = await ChunkTable.create(db, 'chunks__t', 0);
    await table.add(notes(0, 40));
    for (let d = 40; d < 44; d++) await table.add(notes(d, 1));
    const raw = await db.openTable('chunks__t');
    expect(await baseFragment(raw, 44)).toBe(0);
    // A hint that no longer holds the base is not taken.
    expect(await baseFragment(raw, 44, 2)).toBe(0);
    expect(await foldPlan(raw, 44)).toEqual({ base: 0, where: '_rowaddr < 0 OR _rowaddr >= 4294967296', rows: 4 });
    // Four fragments of ten rows and one of four: none holds half.
    const even = await ChunkTable.create(db, 'chunks__even', 0);
    for (let f = 0; f < 4; f++) await even.add(notes(f * 10, 10));
    const evenRaw = await db.openTable('chunks__even');
    expect(await baseFragment(evenRaw, 40)).toBeUndefined();
    expect(await foldPlan(evenRaw, 40)).toBeUndefined();
    table.closeSnapshots();
    even.closeSnapshots();
  });

  it('leaves more rows than FOLD_MAX_ROWS outside the base to LanceDB', async () => {
    const db = await connect(tableDir());
    const table = await ChunkTable.create(db, 'chunks__t', 0);
    await table.add(notes(0, 2 * FOLD_MAX_ROWS + 10));
    await table.add(notes(3 * FOLD_MAX_ROWS, FOLD_MAX_ROWS + 1));
    const raw = await db.openTable('chunks__t');
    expect(await baseFragment(raw, 3 * FOLD_MAX_ROWS + 11)).toBe(0);
    expect(await foldPlan(raw, 3 * FOLD_MAX_ROWS + 11)).toBeUndefined();
    table.closeSnapshots();
  }, 60_000);
});

describe('ChunkTable.optimize with a base fragment', () => {
  it('compacts the single writes without rewriting the base, round after round, every row and staged row kept', async () => {
    const dir = tableDir();
    const db = await connect(dir);
    const table = await ChunkTable.create(db, 'chunks__t', 0);
    await table.add(notes(0, 60));
    await table.ensureFtsIndex();
    const raw = await db.openTable('chunks__t');
    const base = await addresses(raw);
    let next = 100;
    for (let round = 0; round < 3; round++) {
      for (let k = 0; k < 4; k++) await table.add(notes(next++, 1));
      // A replaced document (its old row leaves the base: a deletion there) and a staged version, hidden until published.
      await table.writeDocs([textRow(`doc${round}`, 1, `fjord revised ${round}`)], [`doc${round}`]);
      await table.stage(`s${round}`, [{ ...textRow(`staged${round}`, 0, 'fjord staged'), version: `s${round}` }]);
      expect(await table.optimize()).toBe(false);
      await raw.checkoutLatest();
      const now = await addresses(raw);
      // The base's rows are where they were: LanceDB did not rewrite its fragment.
      for (const [id, at] of base) if (now.has(id)) expect(now.get(id), `${id} after round ${round}`).toBe(at);
      expect(await table.fragments(), `round ${round}`).toBe(2);
    }
    expect(await table.count()).toBe(60 + 12);
    expect(await raw.countRows()).toBe(60 + 12 + 3);
    const snap = await table.snapshot();
    const part = await snap.lexicalPart(['fjord'], 1000);
    expect(part.candidates.map((c) => c.chunk_id).sort()).toEqual((await table.chunkIds()).sort());
    await table.publishStaged('s1', 'staged1');
    expect(await table.count("doc_id = 'staged1'")).toBe(1);
    table.closeSnapshots();
  }, 60_000);

  it('leaves the full-text build to run beside writes, and searches meanwhile find every row once', async () => {
    const db = await connect(tableDir());
    const table = await ChunkTable.create(db, 'chunks__t', 0);
    await table.add(notes(0, 60));
    await table.ensureFtsIndex();
    const extra = async (from: number) => {
      for (let d = from; d < from + 5; d++) await table.add(notes(d, 1, 'tundra'));
    };
    // First round: rows outside the base that the index covers (its fold is rebuilt and covers them)...
    await extra(100);
    expect(await table.optimize()).toBe(false);
    // ...then more that it does not: the fold writes both back above the watermark, and optimize() folds them in.
    await extra(200);
    expect(await table.optimize(true)).toBe(true);
    const expected = [...Array.from({ length: 5 }, (_, i) => `doc${100 + i}#0`), ...Array.from({ length: 5 }, (_, i) => `doc${200 + i}#0`)];
    const search = async (label: string) => {
      const part = await (await table.snapshot()).lexicalPart(['tundra'], 1000);
      expect(part.candidates.map((c) => c.chunk_id).sort(), label).toEqual(expected.sort());
      expect(part.stats.docs, label).toBe(70);
      expect(part.stats.df.get('tundra'), label).toBe(10);
    };
    await search('before the build');
    await (
      await table.rebuildFtsBeside()
    ).done;
    await search('after the build');
    const view = ((await table.snapshot()) as unknown as { view: { complete: boolean; exactStats: boolean } }).view;
    expect(view).toMatchObject({ complete: true, exactStats: true });
    table.closeSnapshots();
  }, 60_000);
});

describe('a fold refused', () => {
  it('leaves rows outside the base that share a chunk id to LanceDB’s compaction, every row kept', async () => {
    const db = await connect(tableDir());
    const table = await ChunkTable.create(db, 'chunks__t', 0);
    await table.add(notes(0, 60));
    await table.ensureFtsIndex();
    await table.add(notes(100, 1));
    await table.add(notes(100, 1));
    await table.add(notes(101, 1));
    expect(await table.optimize(true)).toBe(false);
    const raw = await db.openTable('chunks__t');
    expect(await raw.countRows()).toBe(63);
    const part = await (await table.snapshot()).lexicalPart(['fjord'], 1000);
    expect(part.candidates).toHaveLength(63);
    table.closeSnapshots();
  });
});
