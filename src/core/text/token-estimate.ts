/**
 * An honest token estimate for when no model tokenizer is at hand (model not downloaded yet, no model at all).
 * It mimics what BERT-style WordPiece / SentencePiece tokenizers of the presets do:
 * - each CJK character (Han, kana, Hangul) is about one token;
 * - every other word (a run of letters, marks and digits, any script) is ceil(length / 4) word pieces, at least 1;
 * - each punctuation or symbol character is one token; whitespace is free.
 * The chunker counts with it when the KB's model tokenizer is not loaded (chunk/estimate.ts), and parsers size
 * table row groups with it (parse/table-markdown.ts), so both agree on what fits a chunk.
 */

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
/** Groups: 1 = one CJK character, 2 = a word without CJK characters, 3 = one punctuation/symbol character. */
const PIECE = new RegExp(`([${CJK}])|((?:(?![${CJK}])[\\p{L}\\p{M}\\p{N}])+)|([^\\s\\p{L}\\p{M}\\p{N}])`, 'gu');
const CHARS_PER_PIECE = 4;

/** Estimated number of model tokens in `text` (no special tokens). */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const m of text.matchAll(PIECE)) {
    const word = m[2];
    tokens += word === undefined ? 1 : Math.max(1, Math.ceil(codePoints(word) / CHARS_PER_PIECE));
  }
  return tokens;
}

function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--; // a surrogate pair is one character
  }
  return n;
}
