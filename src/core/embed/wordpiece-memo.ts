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

/** Distinct words kept; the memo starts over past this (a few MB of short strings). */
export const WORDPIECE_MEMO_WORDS = 200_000;

interface WordPieceModel {
  encode(tokens: string[]): string[];
}

/** Memoise the tokenizer's WordPiece model per word; returns the memo (for tests), or undefined when not WordPiece. */
export function memoizeWordPiece(tokenizer: unknown): Map<string, string[]> | undefined {
  const model = (tokenizer as { _tokenizer?: { model?: unknown } } | undefined)?._tokenizer?.model as WordPieceModel | undefined;
  if (!model || typeof model.encode !== 'function' || model.constructor?.name !== 'WordPieceTokenizer') return undefined;
  const encode = model.encode.bind(model);
  const memo = new Map<string, string[]>();
  model.encode = (tokens: string[]): string[] => {
    const out: string[] = [];
    for (const word of tokens) {
      let pieces = memo.get(word);
      if (!pieces) {
        pieces = encode([word]);
        if (memo.size >= WORDPIECE_MEMO_WORDS) memo.clear();
        memo.set(word, pieces);
      }
      for (const p of pieces) out.push(p);
    }
    return out;
  };
  return memo;
}
