import { includesAny } from '../util/includes-any.js';
import { PIECE_SPAN, pieceFinder } from './piece-trie.js';

/**
 * A word's token ids for BERT-style tokenizers (BertNormalizer, BertPreTokenizer, WordPiece: potion, MiniLM, bge…)
 * without the tokenizer's whole pipeline per word, for words of BMP letters, digits, marks, punctuation and CJK
 * ideographs (nothing BertNormalizer drops): the word is normalised as BertNormalizer does (lowercase, then accents
 * stripped: NFD without nonspacing marks), BertPreTokenizer makes each run of non-punctuation one pre-token and each
 * punctuation character one more, as is each CJK ideograph when the normalizer pads them (`handle_chinese_chars`:
 * Chinese text has no spaces, so a sentence was one "word" sent through the tokenizer's whole pipeline; counting
 * the bench corpus' words took 553 ms per 7.9 MB then, 518 now), and a run becomes WordPiece's greedy longest-match
 * pieces (one [UNK] when a part has none), found by piece-trie.ts instead of re-joining its characters for every
 * candidate length. Other words, and words holding an added token ([CLS]…), return false: the caller uses the
 * tokenizer itself.
 * The chunker counts tokens with it (token-counter.ts), the embedding worker builds token rows with it
 * (word-ids.ts). Undefined for any other tokenizer, or when it disagrees with the tokenizer's own ids on
 * CHECK_WORDS. Takes a transformers.js tokenizer (its internal `_tokenizer`) or the tokenizers.js Tokenizer itself.
 */

/** Appends `word`'s ids to `out` and returns true, or returns false (and appends nothing) for a word it leaves. */
export type WordIds = (word: string, out: number[]) => boolean;

/** Printable ASCII without the space: letters, digits and what BertPreTokenizer counts as punctuation. */
const PRINTABLE = /^[\x21-\x7e]+$/;
/**
 * What BertNormalizer does more to a word than change case and strip accents (characters it drops, whitespace,
 * CJK ideographs it pads when it does not handle them as below), and characters outside the BMP (WordPiece counts
 * code points): such words are left.
 */
const NOT_SIMPLE = /[\s\p{Cc}\p{Cf}\p{Co}\p{Cs}\ufffd\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{10000}-\u{10ffff}]/u;
/** NOT_SIMPLE for a normalizer that pads CJK ideographs (`handle_chinese_chars`): those are split off below. */
const NOT_SIMPLE_BUT_CJK = /[\s\p{Cc}\p{Cf}\p{Co}\p{Cs}\ufffd\u{10000}-\u{10ffff}]/u;
/** A surrogate: a character outside the BMP, which NFD can make of a CJK compatibility ideograph. */
const SURROGATE = /[\ud800-\udfff]/;
/**
 * transformers.js' is_chinese_char on one UTF-16 unit (tokenize_chinese_chars reads units, so only its BMP ranges
 * count): CJK Unified Ideographs, Extension A, Compatibility Ideographs.
 */
const isCjk = (c: number): boolean => (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0xf900 && c <= 0xfaff);
/** What BertPreTokenizer splits off one character at a time (transformers.js' PUNCTUATION_REGEX). */
const PUNCTUATION = /^[\p{P}\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E]$/u;
const MARKS = /\p{Mn}/gu;
/** Words the fast path is checked against the tokenizer's own ids on, before it is used. */
export const CHECK_WORDS = [
  'a',
  'the',
  'Harbor',
  'ragdesk190',
  'UN38',
  'x2',
  '1234567890',
  'Qwzxkjv',
  'z'.repeat(101),
  'A'.repeat(100),
  '(FOB,',
  '`rag_data/`190',
  '**Harbor**',
  'e.g.',
  '|---|---|',
  '~^{}[]\\',
  '[UNK]',
  'x[CLS]y',
  'таможенной',
  'Ёлка,',
  '«пошлины»',
  'café—naïve',
  'Straße',
  'İstanbul',
  'x\u0301y',
  '海关清关',
  '中文abc中',
  '退货须在三十天内申请。',
  '（第3条）',
  'x海y',
  '豈更',
  '\ufa6c',
  '中\u0301',
];

interface BertLike {
  /** tokenizer.json as read. */
  tokenizer?: {
    normalizer?: { type?: string; lowercase?: boolean; strip_accents?: boolean | null; handle_chinese_chars?: boolean } | null;
    pre_tokenizer?: { type?: string } | null;
  };
  added_tokens?: Array<{ content?: string }>;
  model?: {
    constructor?: { name?: string };
    tokens_to_ids?: Map<string, number>;
    config?: { continuing_subword_prefix?: string };
    max_input_chars_per_word?: number;
    fuse_unk?: boolean;
    unk_token_id?: number;
  };
  encode?(text: string, options?: { add_special_tokens?: boolean }): { ids: number[] };
}

/**
 * The tokenizers.js Tokenizer of `tokenizer` (normalizer, pre-tokenizer, model, post-processor): a transformers.js
 * tokenizer's `_tokenizer`, or `tokenizer` itself when it is one (the main thread loads it alone: token-counter.ts).
 */
export function tokenizerPipeline<T>(tokenizer: unknown): T | undefined {
  // A transformers.js tokenizer is callable: a function.
  if (!tokenizer || (typeof tokenizer !== 'object' && typeof tokenizer !== 'function')) return undefined;
  const inner = (tokenizer as { _tokenizer?: unknown })._tokenizer;
  if (inner && typeof inner === 'object') return inner as T;
  const own = tokenizer as { model?: unknown; encode?: unknown };
  return own.model && typeof own.encode === 'function' ? (tokenizer as T) : undefined;
}

export function bertWordIds(tokenizer: unknown): WordIds | undefined {
  const t = tokenizerPipeline<BertLike>(tokenizer);
  const model = t?.model;
  const vocab = model?.tokens_to_ids;
  if (!t || !model || !(vocab instanceof Map) || model.constructor?.name !== 'WordPieceTokenizer' || model.fuse_unk) return undefined;
  const json = t.tokenizer;
  if (json?.normalizer?.type !== 'BertNormalizer' || json.pre_tokenizer?.type !== 'BertPreTokenizer') return undefined;
  const unk = model.unk_token_id;
  if (typeof unk !== 'number' || typeof t.encode !== 'function') return undefined;
  const prefix = model.config?.continuing_subword_prefix ?? '##';
  const maxChars = model.max_input_chars_per_word ?? 100;
  const lowercase = json.normalizer.lowercase !== false;
  // transformers.js pads CJK ideographs only when the flag is set (absent: not).
  const chinese = json.normalizer.handle_chinese_chars === true;
  const notSimple = chinese ? NOT_SIMPLE_BUT_CJK : NOT_SIMPLE;
  const strip = lowercase ? json.normalizer.strip_accents !== false : Boolean(json.normalizer.strip_accents);
  const finder = pieceFinder(vocab, prefix);
  const added = (t.added_tokens ?? []).map((a) => a.content ?? '').filter(Boolean);
  /**
   * Whether a word may hold an added token: it has the first character of one (in either case, which normalising may
   * change; for BERT's [CLS], [SEP]… only "["). Most words have none, and are spared two searches per added token.
   */
  const addedFirst = new Set(added.flatMap((a) => [a[0]!, a[0]!.toLowerCase(), a[0]!.toUpperCase()]));
  const mayHoldAdded = (word: string): boolean => {
    for (const c of addedFirst) if (word.includes(c)) return true;
    return false;
  };
  /** Punctuation to BertPreTokenizer, per UTF-16 unit (class + 1; 0 = not yet known). */
  const punct = new Uint8Array(0x10000);
  const isPunct = (c: number): boolean => {
    let known = punct[c]!;
    if (!known) punct[c] = known = PUNCTUATION.test(String.fromCharCode(c)) ? 2 : 1;
    return known === 2;
  };
  /** WordPiece pieces of one normalised pre-token, appended to `out`. */
  const pieces = (w: string, out: number[]): void => {
    if (w.length > maxChars) {
      out.push(unk);
      return;
    }
    const from = out.length;
    for (let start = 0; start < w.length;) {
      const found = finder.longest(w, start);
      if (found < 0) {
        // No piece fits: the whole pre-token is [UNK].
        out.length = from;
        out.push(unk);
        return;
      }
      out.push(Math.floor(found / PIECE_SPAN));
      start += found % PIECE_SPAN;
    }
  };
  const wordIds: WordIds = (word, out) => {
    const ascii = PRINTABLE.test(word);
    if (!ascii && notSimple.test(word)) return false;
    let w = lowercase ? word.toLowerCase() : word;
    if (strip && !ascii) w = w.normalize('NFD').replace(MARKS, '');
    if (!ascii && SURROGATE.test(w)) return false;
    if (mayHoldAdded(word) && (includesAny(word, added) || includesAny(w, added))) return false;
    let run = -1; // start of the pre-token being read
    for (let i = 0; i < w.length; i++) {
      const c = w.charCodeAt(i);
      // Punctuation, and a CJK ideograph the normalizer padded with spaces, are pre-tokens of one character.
      if (!isPunct(c) && !(chinese && isCjk(c))) {
        if (run < 0) run = i;
        continue;
      }
      if (run >= 0) pieces(w.slice(run, i), out);
      run = -1;
      const id = vocab.get(w[i]!);
      out.push(id ?? unk);
    }
    if (run >= 0) pieces(w.slice(run), out);
    return true;
  };
  const encode = t.encode.bind(t);
  const agrees = (word: string): boolean => {
    const out: number[] = [];
    const own = encode(word, { add_special_tokens: false }).ids;
    return wordIds(word, out)
      ? out.length === own.length && out.every((id, i) => id === own[i])
      : !PRINTABLE.test(word) || added.some((a) => word.includes(a));
  };
  return CHECK_WORDS.every(agrees) ? wordIds : undefined;
}
