import { describe, expect, it } from 'vitest';
import { PRUNE_ALLOWANCE_FACTOR, PRUNE_ALLOWANCE_MIN_MS, PRUNE_MARGIN_MS, pruneCutoff } from './prune-cutoff.js';

describe('pruneCutoff', () => {
  const open = Date.UTC(2026, 11, 6, 3, 0, 0);

  it('keeps the oldest open version, the margin and the least allowance for compaction', () => {
    expect(pruneCutoff(open, 0).getTime()).toBe(open - PRUNE_MARGIN_MS - PRUNE_ALLOWANCE_MIN_MS);
    expect(pruneCutoff(open, 1_000).getTime()).toBe(open - PRUNE_MARGIN_MS - PRUNE_ALLOWANCE_MIN_MS);
  });

  it('sets the cutoff back further when the last compaction was long (a large table)', () => {
    const last = 25_000;
    expect(PRUNE_ALLOWANCE_FACTOR * last).toBeGreaterThan(PRUNE_ALLOWANCE_MIN_MS);
    expect(pruneCutoff(open, last).getTime()).toBe(open - PRUNE_MARGIN_MS - PRUNE_ALLOWANCE_FACTOR * last);
  });

  it('a version read by an open snapshot outlives any compaction shorter than the allowance', () => {
    // LanceDB prunes what is older than the cutoff plus the time compaction took (measured from its end).
    for (const last of [0, 2_000, 40_000]) {
      for (const took of [0, last, 2 * last, PRUNE_ALLOWANCE_MIN_MS - 1]) {
        const effective = pruneCutoff(open, last).getTime() + took;
        expect(effective, `last ${last} ms, this one ${took} ms`).toBeLessThan(open);
      }
    }
  });

  it('with no known open version, counts back from now', () => {
    const now = open + 5_000;
    expect(pruneCutoff(undefined, 0, now).getTime()).toBe(now - PRUNE_MARGIN_MS - PRUNE_ALLOWANCE_MIN_MS);
  });
});
