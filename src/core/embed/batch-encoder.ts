import type { Int64Rows } from './int64-rows.js';
import { addTokenizerFastPaths } from './tokenizer-fast-paths.js';
import { tokenizerRows, wordIdsEncoder, type GivenIds } from './word-ids.js';
import { memoizeWordPiece } from './wordpiece-memo.js';

/**
 * Token rows of a batch of texts, padded to the longest and truncated to the model's length, as int64 arrays.
 * `takesIds`: the encoder builds rows from ids given with the texts (word-ids.ts GivenIds); other encoders are
 * never given any.
 */
export type BatchEncoder = ((texts: string[], given?: GivenIds) => Int64Rows) & { readonly takesIds?: boolean };

/**
 * How the embedding worker (and the bench's bare loop, so the two compare like with like) tokenizes a batch: for
 * BERT-style tokenizers from memoised per-word ids (word-ids.ts), else by the tokenizer itself, with its WordPiece
 * memo and per-text shortcuts installed (these also serve the texts word-ids.ts sends through the tokenizer).
 */
export function batchEncoder(tokenizer: unknown): BatchEncoder {
  memoizeWordPiece(tokenizer);
  addTokenizerFastPaths(tokenizer);
  const words = wordIdsEncoder(tokenizer);
  if (words) return Object.assign(words, { takesIds: true });
  return (texts: string[]) => tokenizerRows(tokenizer, texts);
}
