/**
 * Static embedding models (model2vec's potion family, the test fixture) give every token a vector that depends on
 * its id alone: no attention, no positions. Their ONNX export still answers per token, `last_hidden_state`
 * [batch, seq, dim], which the worker then mean-pools: for potion-base-4M that run wrote 128 floats per token of
 * every batch (4.9 MB for 32 chunks) only for pooling to read them back. For such a model the embedding worker asks
 * onnxruntime once for the vector of every id in the vocabulary (the same session, the same graph) and pools rows
 * of that table (pooling.ts tablePoolNormalize, the same sums in the same order: bit-identical vectors). The table
 * is kept in a WebAssembly module's memory where SIMD can sum its rows (simd-pool.ts, 3-4× faster; float32 sums,
 * the same vectors but for rounding); RAGDESK_EMBED_SIMD=0 keeps the scalar sums.
 *
 * Whether a model is static is measured, not assumed from its config: check texts are run as a padded batch and
 * their distinct ids once more as one sequence in another order; every unmasked token's row must equal its id's
 * row bit for bit (a model with attention or position embeddings gives other vectors in another context), and the
 * table, built in slices, must give those rows again. Models whose table would exceed TABLE_MAX_BYTES, or whose
 * session takes inputs other than input_ids, attention_mask and token_type_ids, are not tried.
 */
import type { Int64Rows } from './int64-rows.js';
import { embeddingOutput, type OutputTensor } from './pooling.js';
import { simdRowSum, type SimdRowSum } from './simd-pool.js';

/** A static model's per-token vectors: row `id` of `rows` ([size, dim]) is the model's output for that token. */
export interface TokenTable {
  rows: Float32Array;
  dim: number;
  size: number;
  /** Sums rows of `rows` with WebAssembly SIMD (`rows` is then its memory). */
  simd?: SimdRowSum;
}

/** Larger tables are not built (potion-base-4M: 29,528 × 128 floats, 15 MB). */
export const TABLE_MAX_BYTES = 128 * 1024 * 1024;
/** Ids per run while the table is built. */
const SLICE = 4096;
const CHECK_TEXTS = [
  'the harbor and the customs clearance of the harbor',
  'customs, the harbor',
  'Таможенной пошлины таможенной',
  '海关清关 and 中文',
];
const TEXT_INPUTS = new Set(['input_ids', 'attention_mask', 'token_type_ids']);

/** Whether a model's inputs are a text's alone: input_ids, and attention_mask and token_type_ids at most. */
export function textInputsOnly(names: readonly string[]): boolean {
  return names.includes('input_ids') && names.every((n) => TEXT_INPUTS.has(n));
}

/**
 * An embedding model as the worker runs it: through transformers.js (its model object) or onnxruntime's session
 * alone (bare-model.ts). `run` takes int64 rows by input name and gives the outputs by name.
 */
export interface ModelRunner {
  readonly inputNames: readonly string[];
  /** The config's hidden size, when it declares one. */
  readonly hiddenSize?: number;
  run(feeds: Int64Rows): Promise<Record<string, OutputTensor | undefined>>;
}

/** The per-token output the worker would pool (pooling.ts embeddingOutput), when it is float32. */
function tokenOutput(outputs: Record<string, OutputTensor | undefined>): OutputTensor | undefined {
  const output = embeddingOutput(outputs);
  return output && 'tokens' in output && output.tokens.data instanceof Float32Array ? output.tokens : undefined;
}

/** One past the largest id the tokenizer can emit (its vocabulary and added tokens); 0 when it cannot be read. */
export function tokenizerSize(tokenizer: unknown): number {
  const t = (tokenizer as { _tokenizer?: unknown })._tokenizer as
    { model?: { vocab?: unknown; tokens_to_ids?: unknown }; added_tokens?: Array<{ id?: number }> } | undefined;
  let size = 0;
  const vocab = t?.model?.vocab;
  if (Array.isArray(vocab)) size = vocab.length;
  const ids = t?.model?.tokens_to_ids;
  if (ids instanceof Map)
    for (const id of ids.values() as IterableIterator<unknown>) if (typeof id === 'number') size = Math.max(size, id + 1);
  for (const a of t?.added_tokens ?? []) if (typeof a.id === 'number') size = Math.max(size, a.id + 1);
  return size;
}

/** Run `ids` ([batch, seq] rows) through the model: the other inputs it takes as a single text's (ones, zeros). */
async function run(
  model: ModelRunner,
  ids: BigInt64Array,
  dims: [number, number],
  mask?: BigInt64Array,
): Promise<OutputTensor | undefined> {
  const feeds: Int64Rows = {};
  for (const name of model.inputNames) {
    const data =
      name === 'input_ids'
        ? ids
        : name === 'attention_mask'
          ? (mask ?? new BigInt64Array(ids.length).fill(1n))
          : new BigInt64Array(ids.length);
    feeds[name] = { data, dims };
  }
  return tokenOutput(await model.run(feeds));
}

const sameRow = (a: Float32Array, at: number, b: Float32Array, bt: number, dim: number) => {
  for (let k = 0; k < dim; k++) if (!Object.is(a[at + k], b[bt + k])) return false;
  return true;
};

/**
 * The model's token table when it is a static model (see the module comment), else undefined. `encode` is the
 * worker's batch encoder (padded int64 rows with an attention mask).
 */
export async function staticTokenTable(
  model: ModelRunner,
  tokenizer: unknown,
  encode: (texts: string[]) => Int64Rows,
): Promise<TokenTable | undefined> {
  const names = model.inputNames;
  const size = tokenizerSize(tokenizer);
  if (!textInputsOnly(names) || size === 0) return undefined;
  // A transformer whose table could not be kept anyway (multilingual-e5: 250k × 384) is not even run for the check.
  const declared = model.hiddenSize;
  if (declared !== undefined && size * declared * 4 > TABLE_MAX_BYTES) return undefined;
  try {
    const batch = encode(CHECK_TEXTS);
    const ids = batch.input_ids;
    const mask = batch.attention_mask;
    if (!ids || !mask) return undefined;
    const hidden = await run(model, ids.data, ids.dims, mask.data);
    if (!hidden) return undefined;
    const dim = hidden.dims[2]!;
    if (size * dim * 4 > TABLE_MAX_BYTES) return undefined;
    const seen: number[] = [];
    for (let x = 0; x < ids.data.length; x++) if (mask.data[x] !== 0n) seen.push(Number(ids.data[x]));
    const distinct = [...new Set(seen)].sort((a, b) => b - a);
    const alone = await run(model, BigInt64Array.from(distinct, BigInt), [1, distinct.length]);
    if (!alone) return undefined;
    const at = new Map(distinct.map((id, k) => [id, k * dim]));
    const h = hidden.data as Float32Array;
    const a = alone.data as Float32Array;
    for (let x = 0; x < ids.data.length; x++) {
      if (mask.data[x] !== 0n && !sameRow(h, x * dim, a, at.get(Number(ids.data[x]))!, dim)) return undefined;
    }
    const simd = process.env.RAGDESK_EMBED_SIMD === '0' ? undefined : simdRowSum(size, dim);
    const rows = simd?.table ?? new Float32Array(size * dim);
    for (let start = 0; start < size; start += SLICE) {
      const n = Math.min(SLICE, size - start);
      const out = await run(
        model,
        BigInt64Array.from({ length: n }, (_, k) => BigInt(start + k)),
        [1, n],
      );
      if (!out || out.dims[2] !== dim) return undefined;
      rows.set(out.data as Float32Array, start * dim);
    }
    for (const [id, k] of at) if (!sameRow(rows, id * dim, a, k, dim)) return undefined;
    return simd ? { rows, dim, size, simd } : { rows, dim, size };
  } catch {
    // An id the graph cannot take (a vocabulary larger than its embedding matrix): not a table model here.
    return undefined;
  }
}
