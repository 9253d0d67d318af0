import { connect } from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { seededVectors, tempDirsPerTest } from '../test-support.js';
import { plainChunkRow } from './chunk-rows.js';
import { ChunkTable } from './chunk-table.js';
import { ANN_INDEX, ANN_MIN_PROBES, annIndexKind, annPartitions, annQuery } from './ann-params.js';

const HNSW = 'ivf_hnsw_sq' as const;
const tableDir = tempDirsPerTest('ragdesk-ann-params-');

describe('ANN query parameters', () => {
  it('name the index kinds as LanceDB lists them, and build IVF-RQ', () => {
    expect(ANN_INDEX).toBe('ivf_rq');
    expect(annIndexKind('IvfRq')).toBe('ivf_rq');
    expect(annIndexKind('IVF_RQ')).toBe('ivf_rq');
    expect(annIndexKind('IvfHnswSq')).toBe('ivf_hnsw_sq');
    expect(annIndexKind('IVF_HNSW_SQ')).toBe('ivf_hnsw_sq');
    expect(annIndexKind('IvfPq')).toBeUndefined();
  });

  it('IVF-RQ: no HNSW ef; every depth takes the probes of a short list (its partitions are scanned whole)', () => {
    expect(annQuery(10)).toEqual({ nprobes: 32, refineFactor: 4 });
    expect(annQuery(10, 9_630)).toEqual({ nprobes: 32, refineFactor: 4 });
    expect(annQuery(100, 1_000_000)).toEqual({ nprobes: 101, refineFactor: 2 });
    expect(annQuery(100, 1_000_000, 'merged')).toEqual({ nprobes: 101, refineFactor: 1 });
    expect(annQuery(100, 1_000_000, 'alone')).toEqual({ nprobes: 101, refineFactor: 0 });
    expect(annQuery(100, 100_000, 'alone')).toEqual({ nprobes: 57, refineFactor: 0 });
    expect(annQuery(10, 1_000_000).nprobes).toBe(101);
  });

  it('IVF-HNSW-SQ: keep ef at or above the rows refined (LanceDB fails the query otherwise) at every depth', () => {
    for (let limit = 1; limit <= 500; limit++)
      for (const fusion of [undefined, 'merged', 'alone'] as const) {
        const p = annQuery(limit, 1_000_000, fusion, HNSW);
        expect(p.ef, `limit ${limit}`).toBeGreaterThanOrEqual(limit * p.refineFactor);
      }
    // A top-10 query on up to ~10k vectors (SciFact's 9.6k chunks) searches 32 partitions (all of them below 32).
    expect(annQuery(10, undefined, undefined, HNSW)).toEqual({ nprobes: 32, ef: 64, refineFactor: 4 });
    expect(annQuery(10, 10_000, undefined, HNSW)).toEqual({ nprobes: 32, ef: 64, refineFactor: 4 });
    expect(annQuery(10, 15_000, undefined, HNSW).nprobes).toBe(36);
    // At 1M vectors (500 partitions): 101 probes for a top-10 query (85 gave 0.974 on one build and 0.949 on
    // another; 101 on that one 0.956), 64 for fusion's 100-deep list.
    expect(annQuery(10, 1_000_000, undefined, HNSW).nprobes).toBe(101);
    expect(annQuery(100, 1_000_000, undefined, HNSW).nprobes).toBe(64);
    // At 100k (158 partitions) 32 probes gave recall@10 0.932-0.953 from build to build, 48 gave 0.952-0.984.
    expect(annQuery(10, 100_000, undefined, HNSW).nprobes).toBe(57);
    expect(annQuery(100, 100_000, undefined, HNSW).nprobes).toBe(32);
  });

  it('re-score more candidates for the lists that become hits than for the ones fusion reads (only their own rows)', () => {
    expect(annQuery(100, 1_000_000, undefined, HNSW)).toEqual({ nprobes: 64, ef: 200, refineFactor: 2 });
    // At 1M: 27-31 ms instead of 36-44 for the same fused top 10 up to 0.2 % of its rows (docs/benchmarks.md).
    expect(annQuery(100, 1_000_000, 'merged', HNSW)).toEqual({ nprobes: 64, ef: 100, refineFactor: 1 });
    expect(annQuery(10, 1_000_000, 'merged', HNSW).refineFactor).toBe(1);
  });

  it('re-score nothing for a fusion list compared only with itself (its distances at the index scale)', () => {
    expect(annQuery(100, 1_000_000, 'alone', HNSW)).toEqual({ nprobes: 64, ef: 100, refineFactor: 0 });
    expect(annQuery(100, 9_630, 'alone', HNSW)).toEqual({ nprobes: 32, ef: 100, refineFactor: 0 });
  });

  it('search a share of the partitions that grows with the index, never fewer than the minimum nor more than there are', () => {
    for (const kind of ['ivf_rq', HNSW] as const)
      for (const limit of [10, 100]) {
        let last = 0;
        for (const rows of [1_000, 5_000, 50_000, 200_000, 500_000, 1_000_000, 4_000_000]) {
          const { nprobes } = annQuery(limit, rows, undefined, kind);
          expect(nprobes, `${rows} rows`).toBeLessThanOrEqual(annPartitions(rows));
          expect(nprobes, `${rows} rows`).toBeGreaterThanOrEqual(Math.min(ANN_MIN_PROBES, annPartitions(rows)));
          expect(nprobes, `${rows} rows`).toBeGreaterThanOrEqual(last);
          last = nprobes;
        }
      }
  });
});

describe('ChunkTable ANN index: the fusion lists (ann-params.ts)', () => {
  it('a merged list scores rows exactly; a list alone keeps the exact ranking at the index’s own distance scale', async () => {
    const dim = 16;
    const table = await ChunkTable.create(await connect(tableDir()), 'chunks__t', dim);
    // In clusters, as embeddings come.
    const { rand, unit } = seededVectors(dim, 7);
    const centres = Array.from({ length: 12 }, () => Array.from({ length: dim }, rand));
    const rows = Array.from({ length: 6_000 }, (_, i) =>
      plainChunkRow({
        chunk_id: `d${i}#0`,
        doc_id: `d${i}`,
        chunk_index: 0,
        text: `row ${i}`,
        fts: `row ${i}`,
        vector: unit(centres[i % 12]!),
      }),
    );
    await table.add(rows);
    await table.buildVectorIndex(rows.length);
    expect(table.vectorIndexReady).toBe(true);
    const snap = await table.snapshot();
    const z = (xs: number[]) => {
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length);
      return xs.map((x) => (x - mean) / sd);
    };
    let agree = 0;
    let worstZ = 0;
    let sumZ = 0;
    let nZ = 0;
    for (let q = 0; q < 20; q++) {
      const v = unit(centres[q % 12]!);
      const exact = await snap.vectorRank(v, 100, undefined, { exact: true });
      const exactScore = new Map(exact.map((r) => [r.chunk_id, r.score]));
      const merged = await snap.vectorRank(v, 100, undefined, { fusion: 'merged' });
      for (const r of merged) if (exactScore.has(r.chunk_id)) expect(r.score).toBeCloseTo(exactScore.get(r.chunk_id)!, 5);
      const alone = await snap.vectorRank(v, 100, undefined, { fusion: 'alone' });
      expect(alone).toHaveLength(100);
      // Its distances are the index's estimates of squared L2 between unit vectors: twice the cosine distance, give
      // or take (RaBitQ's estimates spread wider at 16 dimensions than over a real model's 128-384).
      const shared = alone.filter((r) => exactScore.has(r.chunk_id));
      expect(shared.length).toBeGreaterThan(80);
      for (const r of shared) expect((1 - r.score) / (1 - exactScore.get(r.chunk_id)!)).toBeGreaterThan(1.5);
      for (const r of shared) expect((1 - r.score) / (1 - exactScore.get(r.chunk_id)!)).toBeLessThan(2.5);
      // What fusion reads, z-scores over the list, comes out as the exact ones do (over the rows both lists hold).
      const zAlone = z(shared.map((r) => r.score));
      const zExact = z(shared.map((r) => exactScore.get(r.chunk_id)!));
      zAlone.forEach((s, i) => {
        worstZ = Math.max(worstZ, Math.abs(s - zExact[i]!));
        sumZ += Math.abs(s - zExact[i]!);
        nZ++;
      });
      const top = new Set(exact.slice(0, 10).map((r) => r.chunk_id));
      agree += alone.slice(0, 10).filter((r) => top.has(r.chunk_id)).length;
    }
    // 16 dimensions, 4 bits each: RaBitQ's estimates are coarser here than over a real model's 128-384 (IVF-HNSW-SQ
    // here: worst 0.16, mean 0.035, top-10 agreement 0.97; IVF-RQ 0.77, 0.16, 0.895). Over potion's 128-d vectors
    // SciFact's hybrid nDCG@10 is the same with either index (docs/benchmarks.md).
    expect(worstZ).toBeLessThan(1.2);
    expect(sumZ / nZ).toBeLessThan(0.3);
    expect(agree / 200).toBeGreaterThan(0.8);
    table.closeSnapshots();
  }, 60_000);

  it('folds appended rows into the IVF-RQ index at upkeep and drops removed ones; the ANN list finds them', async () => {
    const dir = tableDir();
    const dim = 32;
    const table = await ChunkTable.create(await connect(dir), 'chunks__t', dim);
    const { unit } = seededVectors(dim, 3);
    const vectorRow = (id: string, vector: Float32Array) =>
      plainChunkRow({ chunk_id: `${id}#0`, doc_id: id, chunk_index: 0, text: id, fts: id, vector });
    const base = Array.from({ length: 6_000 }, () => unit());
    await table.add(base.map((v, i) => vectorRow(`d${i}`, v)));
    await table.buildVectorIndex(6_000);
    expect(table.vectorIndexKind).toBe('ivf_rq');
    const fresh = Array.from({ length: 40 }, () => unit());
    await table.add(fresh.map((v, i) => vectorRow(`new${i}`, v)));
    await table.deleteDocs(['d0', 'd1', 'd2']);
    await table.optimize();
    const raw = await connect(dir).then((db) => db.openTable('chunks__t'));
    expect((await raw.indexStats('vector_idx'))?.numUnindexedRows).toBe(0);
    expect((await raw.indexStats('vector_idx'))?.indexType).toBe('IVF_RQ');
    const snap = await table.snapshot();
    let found = 0;
    for (const [i, v] of fresh.entries()) found += (await snap.vectorRank(v, 10)).some((r) => r.chunk_id === `new${i}#0`) ? 1 : 0;
    expect(found).toBeGreaterThanOrEqual(38); // each row is its own nearest neighbour; a probe may miss a partition
    // A removed row is not found by its own vector (its nearest neighbour); a kept one is.
    for (let i = 0; i < 3; i++) expect((await snap.vectorRank(base[i]!, 10)).map((r) => r.chunk_id)).not.toContain(`d${i}#0`);
    expect((await snap.vectorRank(base[3]!, 10, undefined, { exact: true }))[0]!.chunk_id).toBe('d3#0');
    table.closeSnapshots();
  }, 60_000);

  it('upkeep without compaction leaves appended vectors outside the ANN index (counted), where searches still find them', async () => {
    const dim = 32;
    const table = await ChunkTable.create(await connect(tableDir()), 'chunks__t', dim);
    const { unit } = seededVectors(dim, 5);
    const vectorRow = (id: string, vector: Float32Array) =>
      plainChunkRow({ chunk_id: `${id}#0`, doc_id: id, chunk_index: 0, text: id, fts: id, vector });
    await table.add(Array.from({ length: 6_000 }, (_, i) => vectorRow(`d${i}`, unit())));
    expect(await table.unindexedVectors()).toBe(0); // no ANN index yet: nothing to count
    await table.buildVectorIndex(6_000);
    const fresh = Array.from({ length: 30 }, () => unit());
    for (const [i, v] of fresh.entries()) await table.add([vectorRow(`new${i}`, v)]);
    const { done } = await table.rebuildFtsBeside(); // upkeep without compaction
    await done;
    expect(await table.unindexedVectors()).toBe(30);
    const snap = await table.snapshot();
    // Rows outside the index are scanned exactly: each is found by its own vector, at similarity 1.
    for (const [i, v] of fresh.entries()) {
      const own = (await snap.vectorRank(v, 10)).find((r) => r.chunk_id === `new${i}#0`);
      expect(own?.score).toBeCloseTo(1, 5);
    }
    await table.optimize();
    expect(await table.unindexedVectors()).toBe(0);
    table.closeSnapshots();
  }, 60_000);
});
