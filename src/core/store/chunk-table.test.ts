import { connect, Session } from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { arrow } from './arrow.js';
import { chunksSchema } from './arrow-schemas.js';
import { packHit, plainChunkRow, toStored } from './chunk-rows.js';
import { seededVectors, tempDirsPerTest, textRow } from '../test-support.js';
import { ChunkTable } from './chunk-table.js';

const tableDir = tempDirsPerTest('ragdesk-chunk-table-');

const row = textRow;

describe('ChunkTable snapshots and upkeep', () => {
  it('keeps the files of every open snapshot when upkeep compacts and prunes old versions', async () => {
    const dir = tableDir();
    const db = await connect(dir);
    const table = await ChunkTable.create(db, 'chunks__t', 0);
    for (let d = 0; d < 6; d++) await table.add([row(`doc${d}`, 0, `fjord harbour note number ${d}`)]);
    await table.ensureFtsIndex();
    // A search pins this version and is still reading when later writes and two upkeep passes run.
    const early = await table.snapshot();
    for (let round = 0; round < 2; round++) {
      for (let d = 0; d < 4; d++) await table.writeDocs([row(`doc${d}`, 1, `fjord revised ${round} ${d}`)], [`doc${d}`]);
      await table.snapshot();
      await table.optimize();
    }
    const part = await early.lexicalPart(['fjord'], 10);
    const hits = await early.hydrate(part.candidates.map((c) => ({ chunk_id: c.chunk_id, score: 1 })));
    expect(hits.map((h) => h.text).sort()).toEqual([0, 1, 2, 3, 4, 5].map((d) => `fjord harbour note number ${d}`));
    table.closeSnapshots();
  });
});

describe('ChunkTable lexical state across a reopen', () => {
  it('a write before the first search of a process leaves only the written rows to scan, not the whole table', async () => {
    const dir = tableDir();
    const db = await connect(dir);
    const first = await ChunkTable.create(db, 'chunks__t', 0);
    for (let d = 0; d < 6; d++) await first.add([row(`doc${d}`, 0, `fjord harbour note number ${d}`)]);
    await first.ensureFtsIndex();
    first.closeSnapshots();
    // A new process: it writes before it searches.
    const reopened = (await ChunkTable.open(db, 'chunks__t'))!;
    await reopened.add([row('late', 0, 'fjord late note')]);
    const snap = await reopened.snapshot();
    const view = (snap as unknown as { view: { watermark: bigint; complete: boolean } }).view;
    expect(view.watermark).toBeGreaterThan(0n);
    expect(view.complete).toBe(false);
    expect(await reopened.count(`_rowaddr >= ${view.watermark}`)).toBe(1);
    const part = await snap.lexicalPart(['fjord'], 10);
    expect(part.candidates.map((c) => c.chunk_id).sort()).toEqual([...[0, 1, 2, 3, 4, 5].map((d) => `doc${d}#0`), 'late#0'].sort());
    expect(part.stats.docs).toBe(7);
    reopened.closeSnapshots();
  });
});

describe('ChunkTable.prewarmIndexes', () => {
  it('loads the table’s indexes into the connection’s index cache', async () => {
    const dir = tableDir();
    const session = new Session();
    const db = await connect(dir, { session });
    const table = await ChunkTable.create(db, 'chunks__t', 0);
    for (let d = 0; d < 50; d++) await table.add([row(`doc${d}`, 0, `fjord harbour note number ${d} pier ${d * 7}`)]);
    expect(await table.prewarmIndexes()).toEqual([]);
    await table.ensureFtsIndex();
    table.closeSnapshots();
    // A new connection, as a server finds the data dir at start: nothing cached yet.
    const fresh = new Session();
    const reopened = (await ChunkTable.open(await connect(dir, { session: fresh }), 'chunks__t'))!;
    const before = fresh.sizeBytes();
    expect(await reopened.prewarmIndexes()).toEqual(['fts_idx']);
    expect(fresh.sizeBytes()).toBeGreaterThan(before);
    reopened.closeSnapshots();
  }, 60_000);
});

describe('ChunkTable hit columns', () => {
  it('reads a table from before the packed hit column through its separate columns, and a copy of it gets the column', async () => {
    const db = await connect(tableDir());
    const fields = chunksSchema(0).fields;
    expect(fields.map((f) => f.name)).toContain('hit');
    await db.createEmptyTable('chunks__old', new arrow.Schema(fields.filter((f) => f.name !== 'hit')));
    const old = (await ChunkTable.open(db, 'chunks__old'))!;
    const fresh = await ChunkTable.create(db, 'chunks__new', 0);
    const rows = [0, 1, 2].map((i) => ({
      ...row('fjords', i, `fjord harbour note ${i} "quoted" Фьорд 峡湾`),
      title: `Fjord "north" \\ \n\u0001\t 海关 ${i}`,
      source: i === 1 ? 'C:\\maps\\"fjords".pdf' : '',
      page: i === 1 ? null : i,
      heading_path: JSON.stringify(['Part "A"', `Раздел ${i}`]),
      line_start: i === 2 ? null : i * 10,
      line_end: i === 2 ? null : i * 10 + 4,
      metadata: JSON.stringify({ year: 2020 + i, tags: ['north'] }),
    }));
    await old.add(rows);
    await old.ensureFtsIndex();
    // copies of the old table's rows, as a model change makes them (reembed.ts)
    await fresh.addCopies(await old.rowsForCopy(rows.map((r) => r.chunk_id)), []);
    await fresh.ensureFtsIndex();
    const read = async (table: ChunkTable) => {
      const snap = await table.snapshot();
      const scored = (await snap.lexicalPart(['fjord'], 10, undefined, true, 3)).scored!;
      return {
        ranked: scored.map((r) => toStored(r.row!, r.score)),
        hydrated: await snap.hydrate(scored.map((r) => ({ chunk_id: r.chunk_id, score: r.score, rowid: r.rowid! }))),
        listed: (await table.listChunks('fjords', 0, 10)).chunks,
        columns: Object.keys(scored[0]!.row!).sort(),
      };
    };
    const before = await read(old);
    const after = await read(fresh);
    expect(before.columns).not.toContain('hit');
    expect(after.columns).toEqual(['_rowid', '_score', 'chunk_id', 'hit', 'text']);
    expect(after.ranked).toEqual(before.ranked);
    expect(after.hydrated).toEqual(before.hydrated);
    expect(after.listed).toEqual(before.listed);
    expect(after.listed.map((c) => [c.location, c.metadata])).toEqual(
      rows.map((r) => [
        {
          char_start: 0,
          char_end: r.text.length,
          ...(r.page === null ? {} : { page: r.page }),
          heading_path: JSON.parse(r.heading_path) as string[],
          ...(r.line_start === null ? {} : { line_start: r.line_start, line_end: r.line_end }),
        },
        JSON.parse(r.metadata),
      ]),
    );
    // Upkeep packs the old table in place: LanceDB computes the column from the separate ones, to packHit's text.
    const early = await old.snapshot();
    expect(old.hitsUnpacked).toBe(true);
    // searches go on while it is packed (reading the version from before it), and each reads the same hits
    let packing = true;
    const reads: Array<Awaited<ReturnType<typeof read>>> = [];
    const loop = (async () => {
      while (packing || reads.length < 3) reads.push(await read(old));
    })();
    await old.packHits();
    packing = false;
    await loop;
    expect(reads.map((r) => ({ ...r, columns: [] }))).toEqual(reads.map(() => ({ ...before, columns: [] })));
    expect(old.hitsUnpacked).toBe(false);
    const packed = await read(old);
    expect(packed.columns).toEqual(after.columns);
    expect(packed).toEqual({ ...before, columns: packed.columns });
    const raw = await db.openTable('chunks__old');
    const stored = (await raw.query().select(['chunk_id', 'hit']).toArray()) as Array<{ chunk_id: string; hit: string }>;
    expect(stored.sort((a, b) => a.chunk_id.localeCompare(b.chunk_id)).map((r) => r.hit)).toEqual(rows.map((r) => packHit(r)));
    raw.close();
    // a search that began before reads its snapshot's columns still
    expect(await early.hydrate(before.hydrated.map((c, i) => ({ chunk_id: rows[c.chunk_index]!.chunk_id, score: i })))).toHaveLength(3);
    old.closeSnapshots();
    fresh.closeSnapshots();
  });
});

describe('ChunkTable.packHits on a large table', () => {
  it('a search while the column is added reads the version from before instead of waiting for it', async () => {
    const db = await connect(tableDir());
    await db.createEmptyTable('chunks__old', new arrow.Schema(chunksSchema(0).fields.filter((f) => f.name !== 'hit')));
    const old = (await ChunkTable.open(db, 'chunks__old'))!;
    const rows = Array.from({ length: 60_000 }, (_, i) => row(`d${i}`, 0, `harbour row ${i}`));
    for (let i = 0; i < rows.length; i += 20_000) await old.add(rows.slice(i, i + 20_000));
    await old.ensureFtsIndex();
    const before = await old.snapshot();
    const pack = old.packHits();
    // Computing the column for 60k rows takes far longer than this: the pack holds the commit order by now.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const during = await old.snapshot();
    const stillPacking = old.hitsUnpacked;
    expect(during).toBe(before);
    expect((await during.lexicalPart(['row', '31337'], 5)).candidates.map((c) => c.chunk_id)).toContain('d31337#0');
    await pack;
    expect(stillPacking).toBe(true);
    const after = await old.snapshot();
    expect(after.version).toBeGreaterThan(before.version);
    expect(old.hitsUnpacked).toBe(false);
    old.closeSnapshots();
  }, 120_000);
});

describe('ChunkTable.buildIndexes: both indexes at once', () => {
  const rowsOf = (n: number, vector: (i: number) => Float32Array | null) =>
    Array.from({ length: n }, (_, i) =>
      plainChunkRow({
        chunk_id: `d${i}#0`,
        doc_id: `d${i}`,
        chunk_index: 0,
        text: `harbour row ${i}`,
        fts: `harbour row ${i}`,
        vector: vector(i),
      }),
    );

  it('builds the full-text and the ANN index together, and both serve searches after a reopen', async () => {
    const dim = 16;
    const dir = tableDir();
    const table = await ChunkTable.create(await connect(dir), 'chunks__t', dim);
    const { rand, unit } = seededVectors(dim, 11);
    const centres = Array.from({ length: 8 }, () => Array.from({ length: dim }, rand));
    await table.add(rowsOf(6_000, (i) => unit(centres[i % 8]!)));
    await table.buildIndexes({ fts: true, vectorRows: 6_000 });
    expect(table.ftsIndexReady).toBe(true);
    expect(table.vectorIndexReady).toBe(true);
    const snap = await table.snapshot();
    expect((await snap.lexicalPart(['row', '4321'], 5)).candidates[0]?.chunk_id).toBe('d4321#0');
    expect(await snap.vectorRank(unit(centres[3]!), 5)).toHaveLength(5);
    table.closeSnapshots();
    const reopened = (await ChunkTable.open(await connect(dir), 'chunks__t'))!;
    expect(reopened.ftsIndexReady && reopened.vectorIndexReady).toBe(true);
    expect((await reopened.prewarmIndexes()).sort()).toEqual(['fts_idx', 'vector_idx']);
  }, 60_000);

  it('when the ANN build fails the full-text index still counts, and the error is thrown', async () => {
    const table = await ChunkTable.create(await connect(tableDir()), 'chunks__t', 16);
    // No vector at all: LanceDB cannot train the IVF partitions.
    await table.add(rowsOf(300, () => null));
    await expect(table.buildIndexes({ fts: true, vectorRows: 300 })).rejects.toThrow();
    expect(table.ftsIndexReady).toBe(true);
    expect(table.vectorIndexReady).toBe(false);
    const snap = await table.snapshot();
    expect((await snap.lexicalPart(['row', '42'], 5)).candidates[0]?.chunk_id).toBe('d42#0');
    table.closeSnapshots();
  }, 60_000);

  it('a search during the builds reads the version from before them instead of waiting for them', async () => {
    const dim = 16;
    const table = await ChunkTable.create(await connect(tableDir()), 'chunks__t', dim);
    const { rand, unit } = seededVectors(dim, 5);
    const rows = rowsOf(40_000, () => unit(Array.from({ length: dim }, rand)));
    for (let i = 0; i < rows.length; i += 10_000) await table.add(rows.slice(i, i + 10_000));
    const before = await table.snapshot();
    const build = table.buildIndexes({ fts: true, vectorRows: rows.length });
    // The builds take a second or more here: 50 ms in, they hold the commit order.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const during = await table.snapshot();
    expect(during).toBe(before);
    expect((await during.lexicalPart(['row', '31337'], 5)).candidates.map((c) => c.chunk_id)).toContain('d31337#0');
    await build;
    const after = await table.snapshot();
    expect(after.version).toBeGreaterThan(before.version);
    expect(table.ftsIndexReady && table.vectorIndexReady).toBe(true);
    table.closeSnapshots();
  }, 120_000);
});

describe('ChunkTable.chunkIds', () => {
  it('lists every published chunk across fragments and read batches, and none of a staged write', async () => {
    const db = await connect(tableDir());
    const table = await ChunkTable.create(db, 'chunks__t', 0);
    const ids: string[] = [];
    // Three fragments, 12,000 rows: more than one batch of LanceDB's reads.
    for (let f = 0; f < 3; f++) {
      const rows = Array.from({ length: 4_000 }, (_, i) => row(`doc${f}`, i, `note ${f} ${i}`));
      ids.push(...rows.map((r) => r.chunk_id));
      await table.add(rows);
    }
    await table.stage('v2', [{ ...row('doc0', 0, 'a new version, not yet published'), chunk_id: 'doc0#v2#0', version: 'v2' }]);
    const listed = await table.chunkIds();
    expect(listed).toHaveLength(12_000);
    expect(new Set(listed)).toEqual(new Set(ids));
    await table.publishStaged('v2', 'doc0');
    expect(await table.chunkIds()).toEqual(expect.arrayContaining(['doc0#v2#0', 'doc1#0']));
    expect(await table.chunkIds()).toHaveLength(8_001);
  });
});

describe('ChunkTable exact vector search', () => {
  it('ranks and scores by cosine similarity whatever the lengths of the vectors written and asked for', async () => {
    // Exact search asks LanceDB for 1 − a·b (ann-params.ts vectorDistance), the cosine distance only of unit
    // vectors: the store writes and queries vectors at unit length, so lengths change nothing.
    const dim = 8;
    const table = await ChunkTable.create(await connect(tableDir()), 'chunks__t', dim);
    const { rand } = seededVectors(dim, 23);
    const raw = Array.from({ length: 200 }, (_, i) => Float32Array.from({ length: dim }, () => rand() * (1 + (i % 7) * 3)));
    await table.add(
      raw.map((v, i) => plainChunkRow({ chunk_id: `d${i}#0`, doc_id: `d${i}`, chunk_index: 0, text: `t${i}`, fts: `t${i}`, vector: v })),
    );
    const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
      let ab = 0;
      let aa = 0;
      let bb = 0;
      for (let j = 0; j < dim; j++) {
        ab += a[j]! * b[j]!;
        aa += a[j]! * a[j]!;
        bb += b[j]! * b[j]!;
      }
      return ab / Math.sqrt(aa * bb);
    };
    const snap = await table.snapshot();
    for (let q = 0; q < 10; q++) {
      const query = Float32Array.from({ length: dim }, () => rand() * 9);
      const expected = raw.map((v, i) => ({ id: `d${i}#0`, score: cosine(query, v) })).sort((a, b) => b.score - a.score);
      const got = await snap.vectorRank(query, 10);
      expect(got.map((r) => r.chunk_id)).toEqual(expected.slice(0, 10).map((e) => e.id));
      got.forEach((r, i) => expect(r.score).toBeCloseTo(expected[i]!.score, 5));
    }
    table.closeSnapshots();
  });
});
