import { describe, expect, it } from 'vitest';
import { ANN_INDEX, ANN_MIN_PROBES, annIndexKind, annPartitions, annQuery } from './ann-params.js';

const HNSW = 'ivf_hnsw_sq' as const;

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
