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

/** What a code point is to the estimate: the classes PIECE matches, by the same regular expressions. */
const SPACE = 0;
const CJK_CHAR = 1;
const WORD_CHAR = 2;
const SYMBOL = 3;
const IS_SPACE = /^\s$/u;
const IS_CJK = new RegExp(`^[${CJK}]$`, 'u');
const IS_WORD = /^[\p{L}\p{M}\p{N}]$/u;

function classify(cp: number): number {
  const c = String.fromCodePoint(cp);
  if (IS_CJK.test(c)) return CJK_CHAR;
  if (IS_WORD.test(c)) return WORD_CHAR;
  return IS_SPACE.test(c) ? SPACE : SYMBOL;
}

const ASCII = Uint8Array.from({ length: 0x80 }, (_, cp) => classify(cp));
/** Classes of the BMP, filled as code points are met (class + 1; 0 = not yet known); others are looked up each time. */
const BMP = new Uint8Array(0x10000);
function classOf(cp: number): number {
  if (cp > 0xffff) return classify(cp);
  const known = BMP[cp]!;
  if (known) return known - 1;
  const c = classify(cp);
  BMP[cp] = c + 1;
  return c;
}

/**
 * Estimated number of model tokens in `text` (no special tokens). One pass over the code points with their classes
 * memoised (the chunker counts every text about twice, so this is most of full-text-only chunking); the same count
 * as summing over PIECE's matches (estimateTokensByPattern, which the tests compare it with).
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  let run = 0; // code points of the word being read
  const n = text.length;
  for (let i = 0; i < n; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        i++;
      }
    }
    const cls = cp < 0x80 ? ASCII[cp]! : classOf(cp);
    if (cls === WORD_CHAR) {
      run++;
      continue;
    }
    if (run) {
      tokens += Math.ceil(run / CHARS_PER_PIECE);
      run = 0;
    }
    if (cls !== SPACE) tokens++;
  }
  if (run) tokens += Math.ceil(run / CHARS_PER_PIECE);
  return tokens;
}

/** The estimate as the regular expression defines it (the reference for estimateTokens). */
export function estimateTokensByPattern(text: string): number {
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
