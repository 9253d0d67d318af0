/**
 * Masked mean pooling + L2 normalisation, in one pass over the model output. Written here rather than using
 * transformers.js' `pooling: 'mean'`, which converts the int64 mask entry again for every dimension and walks
 * the hidden states with a stride: this is several times faster and keeps the masking rule in plain sight.
 */
import type { SimdRowSum } from './simd-pool.js';

/** A model output tensor as transformers.js or onnxruntime gives it. */
export interface OutputTensor {
  dims: readonly number[];
  data: unknown;
}

/**
 * Which output of an embedding model to read: one it already pooled ([batch, dim]: `sentence_embedding`, or a 2-D
 * hidden state), else the per-token hidden state ([batch, seq, dim]) to pool; undefined for anything else.
 */
export function embeddingOutput<T extends OutputTensor>(outputs: Record<string, T | undefined>): { pooled: T } | { tokens: T } | undefined {
  const pooled = outputs.sentence_embedding;
  const hidden = outputs.last_hidden_state ?? outputs.token_embeddings ?? outputs.logits;
  if (pooled?.dims.length === 2 || (!pooled && hidden?.dims.length === 2)) return { pooled: (pooled ?? hidden)! };
  return hidden?.dims.length === 3 ? { tokens: hidden } : undefined;
}

/**
 * Pool `hidden` ([batch, seq, dim], row-major) over the positions where `mask` ([batch, seq]) is non-zero,
 * then scale each row to unit length. Padding positions never contribute, so a text's vector is the same
 * whether it was embedded alone or padded in a batch. A row with no unmasked position (or all zeros) stays zero.
 */
export function meanPoolNormalize(hidden: ArrayLike<number>, dims: readonly number[], mask: ArrayLike<number | bigint>): Float32Array {
  const [batch = 0, seq = 0, dim = 0] = dims;
  const out = new Float32Array(batch * dim);
  const sum = new Float64Array(dim);
  /** Offsets of the text's unmasked token rows. */
  const rows = new Int32Array(seq);
  for (let b = 0; b < batch; b++) {
    let n = 0;
    for (let s = 0; s < seq; s++) if (Number(mask[b * seq + s]) !== 0) rows[n++] = (b * seq + s) * dim;
    sumRowsNormalize(hidden, rows, n, dim, sum, out, b * dim);
  }
  return out;
}

/**
 * The same pooling over a static model's token table (static-table.ts): a text's unmasked tokens' rows are read
 * from `table` ([vocab, dim]) by id instead of from a model output, and summed in the same order, so the vectors
 * are bit-identical to meanPoolNormalize over that model's output. With `simd` (simd-pool.ts, over the same table)
 * the rows are summed four floats at a time in float32: the same vectors but for rounding (~1e-6). `ids` and
 * `mask` are [batch, seq] int64 rows; undefined when an id falls outside the table.
 */
export function tablePoolNormalize(
  table: Float32Array,
  dim: number,
  ids: BigInt64Array,
  mask: BigInt64Array,
  dims: readonly number[],
  simd?: SimdRowSum,
): Float32Array | undefined {
  const [batch = 0, seq = 0] = dims;
  const size = table.length / dim;
  const out = new Float32Array(batch * dim);
  const sum = new Float64Array(dim);
  const fast = simd && seq <= simd.rows.length ? simd : undefined;
  const rows = fast ? fast.rows : new Int32Array(seq);
  // int64 entries read as their two int32 halves (no BigInt per token): ids are below 2^31 (the table's size).
  const id32 = LITTLE_ENDIAN ? new Int32Array(ids.buffer, ids.byteOffset, ids.length * 2) : undefined;
  const mask32 = LITTLE_ENDIAN ? new Int32Array(mask.buffer, mask.byteOffset, mask.length * 2) : undefined;
  for (let b = 0; b < batch; b++) {
    let n = 0;
    for (let s = 0; s < seq; s++) {
      const x = b * seq + s;
      if (mask32 ? mask32[2 * x] === 0 && mask32[2 * x + 1] === 0 : mask[x] === 0n) continue;
      const id = id32 ? (id32[2 * x + 1] === 0 ? id32[2 * x]! : -1) : Number(ids[x]);
      if (id < 0 || id >= size) return undefined;
      rows[n++] = id * dim;
    }
    if (fast) fast.sumNormalize(n, out, b * dim);
    else sumRowsNormalize(table, rows, n, dim, sum, out, b * dim);
  }
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/**
 * Sum the `n` rows of `values` starting at `rows[0..n)` (each `dim` long) and write the sum, scaled to unit length,
 * to `out` at `at`. Eight dimensions at a time are summed in local variables over the rows (in row order, in
 * doubles: the same sums as one dimension at a time), instead of adding each row into an array of sums: ~3× faster
 * on potion's outputs, where pooling had become the embedding worker's largest cost.
 */
function sumRowsNormalize(
  values: ArrayLike<number>,
  rows: Int32Array,
  n: number,
  dim: number,
  sum: Float64Array,
  out: Float32Array,
  at: number,
): void {
  let k = 0;
  for (; k + 8 <= dim; k += 8) {
    let a0 = 0,
      a1 = 0,
      a2 = 0,
      a3 = 0,
      a4 = 0,
      a5 = 0,
      a6 = 0,
      a7 = 0;
    for (let j = 0; j < n; j++) {
      const o = rows[j]! + k;
      a0 += values[o]!;
      a1 += values[o + 1]!;
      a2 += values[o + 2]!;
      a3 += values[o + 3]!;
      a4 += values[o + 4]!;
      a5 += values[o + 5]!;
      a6 += values[o + 6]!;
      a7 += values[o + 7]!;
    }
    sum[k] = a0;
    sum[k + 1] = a1;
    sum[k + 2] = a2;
    sum[k + 3] = a3;
    sum[k + 4] = a4;
    sum[k + 5] = a5;
    sum[k + 6] = a6;
    sum[k + 7] = a7;
  }
  for (; k < dim; k++) {
    let a = 0;
    for (let j = 0; j < n; j++) a += values[rows[j]! + k]!;
    sum[k] = a;
  }
  // mean = sum / count, and the 1/count cancels out in the normalisation
  let sq = 0;
  for (let q = 0; q < dim; q++) sq += sum[q]! * sum[q]!;
  const norm = Math.sqrt(sq);
  if (norm > 0) for (let q = 0; q < dim; q++) out[at + q] = sum[q]! / norm;
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

/**
 * A cross-encoder's relevance scores from its logits ([batch, labels]): one logit is the score; two (not relevant,
 * relevant) give their difference, monotone in P(relevant).
 */
export function logitScores(logits: OutputTensor): number[] {
  const [batch = 0, labels = 1] = logits.dims;
  const data = logits.data as ArrayLike<number>;
  const scores = new Array<number>(batch);
  for (let i = 0; i < batch; i++) scores[i] = labels === 1 ? data[i]! : data[i * labels + labels - 1]! - data[i * labels]!;
  return scores;
}
