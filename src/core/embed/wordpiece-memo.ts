import { GenerationalMemo } from '../util/generational-memo.js';
import { ownString } from '../util/own-string.js';
import { PIECE_SPAN, pieceFinder } from './piece-trie.js';

/**
 * A per-word memo for transformers.js' WordPiece tokenizer model (BERT-style tokenizers: potion, MiniLM, bge…).
 * WordPiece splits each pre-tokenized word on its own (WordPieceTokenizer.encode maps every word independently,
 * a greedy longest-match over the vocabulary that re-joins the word's characters for every candidate length), and
 * words repeat (Zipf), so the worker splits each distinct word once. The ids are the same by construction; the
 * test checks them against the unmemoised tokenizer. Other tokenizer models are left alone. Uses transformers.js'
 * internal `_tokenizer.model`: when that is not there (another version), nothing is changed.
 * Measured with potion-base-4M's tokenizer, 7,738 chunks in batches of 32: 1.77–2.04 s → 0.98–1.25 s together with
 * int64-rows.ts (loaded 2-core machine).
 */

/** Distinct words kept, in two generations (util/generational-memo.ts; a few MB of short strings). */
export const WORDPIECE_MEMO_WORDS = 50_000;

interface WordPieceModel {
  encode(tokens: string[]): string[];
  tokens_to_ids?: Map<string, number>;
  config?: { continuing_subword_prefix?: string };
  max_input_chars_per_word?: number;
  unk_token?: string;
}

const SURROGATE = /[\ud800-\udfff]/;

/**
 * WordPiece's split of one pre-token as WordPieceTokenizer.encode gives it (greedy longest match first, the whole
 * word [UNK] when a part matches nothing), by piece-trie.ts's longest match instead of re-joining the word's
 * characters for every length down from the whole word: on the embed bench's distinct words several times faster.
 * Undefined for a word with surrogates (encode splits it: it counts code points) or when the model lacks what this
 * needs.
 */
export function wordPieceSplitter(model: WordPieceModel): ((word: string) => string[] | undefined) | undefined {
  const vocab = model.tokens_to_ids;
  const prefix = model.config?.continuing_subword_prefix;
  const unk = model.unk_token;
  if (!(vocab instanceof Map) || typeof prefix !== 'string' || typeof unk !== 'string') return undefined;
  const maxChars = model.max_input_chars_per_word ?? 100;
  const finder = pieceFinder(vocab, prefix);
  return (word) => {
    if (SURROGATE.test(word)) return undefined;
    if (word.length > maxChars) return [unk];
    const pieces: string[] = [];
    for (let start = 0; start < word.length;) {
      const found = finder.longest(word, start);
      if (found < 0) return [unk];
      const end = start + (found % PIECE_SPAN);
      pieces.push(start > 0 ? prefix + word.slice(start, end) : word.slice(start, end));
      start = end;
    }
    return pieces;
  };
}

/** Memoise the tokenizer's WordPiece model per word; returns the memo (for tests), or undefined when not WordPiece. */
export function memoizeWordPiece(tokenizer: unknown): GenerationalMemo<string, string[]> | undefined {
  const model = (tokenizer as { _tokenizer?: { model?: unknown } } | undefined)?._tokenizer?.model as WordPieceModel | undefined;
  if (!model || typeof model.encode !== 'function' || model.constructor?.name !== 'WordPieceTokenizer') return undefined;
  const encode = model.encode.bind(model);
  const split = wordPieceSplitter(model);
  const memo = new GenerationalMemo<string, string[]>(WORDPIECE_MEMO_WORDS, ownString);
  model.encode = (tokens: string[]): string[] => {
    const out: string[] = [];
    for (const word of tokens) {
      let pieces = memo.get(word);
      if (!pieces) {
        // Pieces are cut out of the word: split a copy, so that neither keeps the text it came from alive.
        const own = ownString(word);
        pieces = split?.(own) ?? encode([own]);
        memo.set(own, pieces);
      }
      for (const p of pieces) out.push(p);
    }
    return out;
  };
  return memo;
}
