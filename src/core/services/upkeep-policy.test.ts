import { describe, expect, it } from 'vitest';
import {
  BUILD_TOGETHER_MAX_BYTES,
  buildTogether,
  COMPACT_AT_FRAGMENTS,
  COMPACT_FIRST_MAX_BYTES,
  compactAfterWrites,
  compactFirst,
  compactionDue,
  MAX_UNCOMPACTED_RUNS,
  MAX_UNINDEXED_VECTORS,
} from './upkeep-policy.js';

// Upkeep's own runs under these rules (what a run compacts, when a write brings it early) are in indexing.test.ts.

describe('compactionDue: upkeep compacts only when it pays', () => {
  it('past COMPACT_AT_FRAGMENTS fragments, after MAX_UNCOMPACTED_RUNS runs without, or past MAX_UNINDEXED_VECTORS', () => {
    const quiet = { fragments: 3, uncompactedRuns: 0, unindexedVectors: 10 };
    expect(compactionDue(quiet)).toBe(false);
    expect(compactionDue({ ...quiet, fragments: COMPACT_AT_FRAGMENTS })).toBe(false);
    expect(compactionDue({ ...quiet, fragments: COMPACT_AT_FRAGMENTS + 1 })).toBe(true);
    expect(compactionDue({ ...quiet, uncompactedRuns: MAX_UNCOMPACTED_RUNS - 1 })).toBe(false);
    expect(compactionDue({ ...quiet, uncompactedRuns: MAX_UNCOMPACTED_RUNS })).toBe(true);
    expect(compactionDue({ ...quiet, unindexedVectors: MAX_UNINDEXED_VECTORS })).toBe(false);
    expect(compactionDue({ ...quiet, unindexedVectors: MAX_UNINDEXED_VECTORS + 1 })).toBe(true);
  });
});

describe('compactAfterWrites: upkeep comes early once enough fragments wait', () => {
  it('every √(2 · compaction ms / cost per fragment) writes, and never before upkeep would compact', () => {
    expect(compactAfterWrites(0)).toBe(COMPACT_AT_FRAGMENTS + 1);
    expect(compactAfterWrites(200)).toBe(COMPACT_AT_FRAGMENTS + 1);
    expect(compactAfterWrites(1_000)).toBe(45);
    expect(compactAfterWrites(13_000)).toBe(161);
  });
});

describe('buildTogether: the first full-text and ANN indexes at once only for a table whose vectors are small', () => {
  it('bounds the vectors held, counting at least 128 dimensions', () => {
    const rows128 = BUILD_TOGETHER_MAX_BYTES / (128 * 4);
    expect(buildTogether({ dim: 128 }, rows128)).toBe(true);
    expect(buildTogether({ dim: 128 }, rows128 + 1)).toBe(false);
    expect(buildTogether({ dim: 384 }, Math.floor(BUILD_TOGETHER_MAX_BYTES / (384 * 4)) + 1)).toBe(false);
    expect(buildTogether({ dim: 16 }, rows128)).toBe(true);
    expect(buildTogether({ dim: 16 }, rows128 + 1)).toBe(false);
  });
});

describe('compactFirst: rows written before any index are compacted first unless the ANN build would hold them all', () => {
  it('a KB with a model: while its vectors (128 dimensions at least) are under the bound and no ANN index exists', () => {
    const rows128 = COMPACT_FIRST_MAX_BYTES / (128 * 4);
    const table = { dim: 128, vectorIndexReady: false };
    expect(compactFirst(table, rows128, true)).toBe(true);
    expect(compactFirst(table, rows128 + 1, true)).toBe(false);
    // No vector column yet (the model had not loaded): counted at 128 dimensions all the same.
    expect(compactFirst({ dim: 0, vectorIndexReady: false }, rows128 + 1, true)).toBe(false);
    expect(compactFirst({ dim: 384, vectorIndexReady: false }, Math.floor(COMPACT_FIRST_MAX_BYTES / (384 * 4)) + 1, true)).toBe(false);
    expect(compactFirst({ dim: 128, vectorIndexReady: true }, 10, true)).toBe(false);
  });

  it('a full-text only KB: at any size (no ANN build to hold its vectors)', () => {
    expect(compactFirst({ dim: 0, vectorIndexReady: false }, 10, false)).toBe(true);
    expect(compactFirst({ dim: 0, vectorIndexReady: false }, 10_000_000, false)).toBe(true);
  });
});
