import { describe, expect, it } from 'vitest';
import { prng } from '../util/prng.js';
import { tablePoolNormalize } from './pooling.js';
import { SIMD_MAX_ROWS, simdRowSum, simdSumModule } from './simd-pool.js';

/** The largest difference between two vectors of the same length. */
const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i]!)), 0);

/** A [size, dim] table of values in [-1, 1) in a SIMD module's memory, and the same values in a plain array. */
function tables(size: number, dim: number, seed = 7) {
  const rand = prng(seed);
  const simd = simdRowSum(size, dim)!;
  for (let i = 0; i < simd.table.length; i++) simd.table[i] = rand() * 2 - 1;
  return { simd, plain: Float32Array.from(simd.table) };
}

/** Int64 rows of a batch: text b has lengths[b] tokens (ids from `rand`), the rest padding. */
function batchOf(lengths: number[], seq: number, size: number, seed = 11) {
  const rand = prng(seed);
  const ids = new BigInt64Array(lengths.length * seq);
  const mask = new BigInt64Array(lengths.length * seq);
  lengths.forEach((len, b) => {
    for (let s = 0; s < len; s++) {
      ids[b * seq + s] = BigInt(Math.floor(rand() * size));
      mask[b * seq + s] = 1n;
    }
  });
  return { ids, mask, dims: [lengths.length, seq] };
}

describe('simdRowSum', () => {
  it('is a valid module where WebAssembly SIMD exists (Node 20 and Electron have it)', () => {
    const wasm = (globalThis as { WebAssembly?: { validate(bytes: Uint8Array): boolean } }).WebAssembly;
    expect(wasm?.validate(simdSumModule())).toBe(true);
  });

  it('pools the vectors the scalar sums give, but for float32 rounding, for each dimension a multiple of 16', () => {
    for (const dim of [16, 64, 128, 256]) {
      const size = 500;
      const { simd, plain } = tables(size, dim);
      // No token, one token, a chunk's worth, and one text as long as the rows list holds.
      const seq = SIMD_MAX_ROWS;
      const { ids, mask, dims } = batchOf([0, 1, 2, 97, 300, SIMD_MAX_ROWS], seq, size);
      const want = tablePoolNormalize(plain, dim, ids, mask, dims)!;
      const got = tablePoolNormalize(simd.table, dim, ids, mask, dims, simd)!;
      expect(got.length).toBe(6 * dim);
      expect(Array.from(got.subarray(0, dim))).toEqual(new Array(dim).fill(0));
      // Float32 sums drift from double ones by ~1e-7 per few hundred rows; the 8,192-row text reaches ~1.5e-6.
      expect(maxDiff(got.subarray(0, 5 * dim), want.subarray(0, 5 * dim)), `dim ${dim}`).toBeLessThan(1e-6);
      expect(maxDiff(got, want), `dim ${dim}`).toBeLessThan(1e-5);
      // One token: its own row, normalised (the sum of one row is that row, exactly).
      expect(maxDiff(got.subarray(dim, 2 * dim), want.subarray(dim, 2 * dim))).toBe(0);
    }
  });

  it('sums every row it is given, each block of 16 floats of a row in its own lane', () => {
    // Row r holds r + 1 in dimension r % dim and 0 elsewhere: the sum of rows 0..n-1 is known exactly.
    const dim = 32;
    const simd = simdRowSum(dim * 2, dim)!;
    for (let r = 0; r < dim * 2; r++) simd.table[r * dim + (r % dim)] = r + 1;
    const n = dim * 2;
    for (let r = 0; r < n; r++) simd.rows[r] = r * dim;
    const out = new Float32Array(dim + 3);
    simd.sumNormalize(n, out, 3);
    const sums = Array.from({ length: dim }, (_, k) => k + 1 + (k + dim + 1));
    const norm = Math.hypot(...sums);
    expect(out[0]).toBe(0);
    expect(
      maxDiff(
        out.subarray(3),
        Float32Array.from(sums, (x) => x / norm),
      ),
    ).toBeLessThan(1e-7);
  });

  it('is not made for a dimension that is not a multiple of 16, or an empty table', () => {
    expect(simdRowSum(10, 12)).toBeUndefined();
    expect(simdRowSum(10, 0)).toBeUndefined();
    expect(simdRowSum(0, 16)).toBeUndefined();
  });

  it('leaves a batch longer than its rows list to the scalar sums (the same vectors, bit for bit)', () => {
    const dim = 16;
    const size = 50;
    const { simd, plain } = tables(size, dim);
    const { ids, mask, dims } = batchOf([SIMD_MAX_ROWS + 1, 3], SIMD_MAX_ROWS + 1, size);
    const got = tablePoolNormalize(simd.table, dim, ids, mask, dims, simd)!;
    expect(Array.from(got)).toEqual(Array.from(tablePoolNormalize(plain, dim, ids, mask, dims)!));
  });
});
