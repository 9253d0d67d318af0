import { describe, expect, it } from 'vitest';
import { prng } from '../util/prng.js';
import { meanPoolNormalize, normalizeRows } from './pooling.js';

describe('meanPoolNormalize', () => {
  it('averages only the unmasked positions, then normalises', () => {
    // batch 2, seq 3, dim 2; the second text has one padding position holding a large vector
    const hidden = Float32Array.of(1, 0, 0, 1, 1, 1, 3, 4, 3, 4, 100, -100);
    const mask = BigInt64Array.of(1n, 1n, 1n, 1n, 1n, 0n);
    const out = meanPoolNormalize(hidden, [2, 3, 2], mask);
    const s = Math.SQRT1_2;
    expect(out[0]).toBeCloseTo(s, 6); // mean (2/3, 2/3) → (0.707, 0.707)
    expect(out[1]).toBeCloseTo(s, 6);
    expect(out[2]).toBeCloseTo(0.6, 6); // (3, 4) → (0.6, 0.8); the padding is ignored
    expect(out[3]).toBeCloseTo(0.8, 6);
  });

  it('gives the same vector for a text alone and padded in a batch', () => {
    const alone = meanPoolNormalize(Float32Array.of(1, 2, 3, 4), [1, 2, 2], [1, 1]);
    const padded = meanPoolNormalize(Float32Array.of(1, 2, 3, 4, 9, 9, 9, 9), [1, 4, 2], [1, 1, 0, 0]);
    expect(Array.from(padded)).toEqual(Array.from(alone));
  });

  it('gives the sums of one dimension at a time, in token order, to the bit (model-sized dims and a remainder)', () => {
    const rand = prng(3);
    const [batch, seq, dim] = [5, 17, 131];
    const hidden = Float32Array.from({ length: batch * seq * dim }, () => rand() * 2 - 1);
    const mask = BigInt64Array.from({ length: batch * seq }, (_, i) => (i % seq < 3 + ((i / seq) | 0) * 3 ? 1n : 0n));
    const want = new Float32Array(batch * dim);
    for (let b = 0; b < batch; b++) {
      const sum = new Float64Array(dim);
      for (let s = 0; s < seq; s++) {
        if (mask[b * seq + s] === 0n) continue;
        for (let k = 0; k < dim; k++) sum[k]! += hidden[(b * seq + s) * dim + k]!;
      }
      let sq = 0;
      for (let k = 0; k < dim; k++) sq += sum[k]! * sum[k]!;
      const norm = Math.sqrt(sq);
      for (let k = 0; k < dim; k++) want[b * dim + k] = sum[k]! / norm;
    }
    expect(Array.from(meanPoolNormalize(hidden, [batch, seq, dim], mask))).toEqual(Array.from(want));
  });

  it('leaves a fully masked or zero row at zero instead of NaN', () => {
    const out = meanPoolNormalize(Float32Array.of(1, 1, 0, 0), [2, 1, 2], [0, 1]);
    expect(Array.from(out)).toEqual([0, 0, 0, 0]);
  });
});

describe('normalizeRows', () => {
  it('scales each row to unit length', () => {
    expect(Array.from(normalizeRows(Float32Array.of(3, 4, 0, 2), [2, 2]))).toEqual([0.6000000238418579, 0.800000011920929, 0, 1]);
  });
});
