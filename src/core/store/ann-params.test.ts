import { describe, expect, it } from 'vitest';
import { annQuery } from './ann-params.js';

describe('ANN query parameters', () => {
  it('keep HNSW ef at or above the rows refined (LanceDB fails the query otherwise) at every depth', () => {
    for (let limit = 1; limit <= 500; limit++) {
      const p = annQuery(limit);
      expect(p.ef, `limit ${limit}`).toBeGreaterThanOrEqual(limit * p.refineFactor);
    }
    // The measured settings for a top-10 query stay as they were (docs/benchmarks.md).
    expect(annQuery(10)).toEqual({ nprobes: 32, ef: 64, refineFactor: 4 });
  });
});
