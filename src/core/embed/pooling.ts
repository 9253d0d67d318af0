/**
 * Masked mean pooling + L2 normalisation, in one pass over the model output. Written here rather than using
 * transformers.js' `pooling: 'mean'`, which converts the int64 mask entry again for every dimension and walks
 * the hidden states with a stride: this is several times faster and keeps the masking rule in plain sight.
 */

/**
 * Pool `hidden` ([batch, seq, dim], row-major) over the positions where `mask` ([batch, seq]) is non-zero,
 * then scale each row to unit length. Padding positions never contribute, so a text's vector is the same
 * whether it was embedded alone or padded in a batch. A row with no unmasked position (or all zeros) stays zero.
 */
export function meanPoolNormalize(hidden: ArrayLike<number>, dims: readonly number[], mask: ArrayLike<number | bigint>): Float32Array {
  const [batch = 0, seq = 0, dim = 0] = dims;
  const out = new Float32Array(batch * dim);
  const sum = new Float64Array(dim);
  for (let b = 0; b < batch; b++) {
    sum.fill(0);
    for (let s = 0; s < seq; s++) {
      if (Number(mask[b * seq + s]) === 0) continue;
      const offset = (b * seq + s) * dim;
      for (let k = 0; k < dim; k++) sum[k]! += hidden[offset + k]!;
    }
    // mean = sum / count, and the 1/count cancels out in the normalisation
    let sq = 0;
    for (let k = 0; k < dim; k++) sq += sum[k]! * sum[k]!;
    const norm = Math.sqrt(sq);
    if (norm > 0) for (let k = 0; k < dim; k++) out[b * dim + k] = sum[k]! / norm;
  }
  return out;
}

/** L2-normalise each row of a [batch, dim] array (already pooled model outputs). */
export function normalizeRows(values: ArrayLike<number>, dims: readonly number[]): Float32Array {
  const [batch = 0, dim = 0] = dims;
  const out = Float32Array.from(values as ArrayLike<number>);
  for (let b = 0; b < batch; b++) normalizeInPlace(out.subarray(b * dim, (b + 1) * dim));
  return out;
}

function normalizeInPlace(row: Float32Array): void {
  let sum = 0;
  for (let k = 0; k < row.length; k++) sum += row[k]! * row[k]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let k = 0; k < row.length; k++) row[k]! /= norm;
}
