import { includesAny } from '../util/includes-any.js';
import { ownString } from '../util/own-string.js';
import { bertWordIds, tokenizerPipeline } from './bert-word-ids.js';
import { SPACE } from './space-table.js';
import { int64Rows, type Int64Rows } from './int64-rows.js';
import { DROPPED_OR_CONTROL } from './tokenizer-fast-paths.js';

/**
 * Token rows of a batch of single texts for BERT-style tokenizers (BertNormalizer, BertPreTokenizer, WordPiece:
 * potion, MiniLM, bge…), built from each whitespace-separated word's ids, memoised, instead of sending every text
 * through the tokenizer's whole pipeline (cleaning, padding CJK, lowercasing, stripping accents, the pre-tokenizer's
 * regular expression, WordPiece, the post-processor, two map lookups per token).
 *
 * Why it is exact: once BertNormalizer.clean_text has nothing to drop (no control, format, private-use, surrogate,
 * NUL or U+FFFD character), it only turns each whitespace character into a space, and every later step either works
 * character by character (CJK padding, lowercasing: the final-sigma rule does not look across whitespace, accent
 * stripping: NFD does not reorder across a starter) or splits on whitespace first (BertPreTokenizer, then WordPiece
 * per pre-token). So a text's tokens are its words' tokens one after the other. Texts with a character clean_text
 * drops, or holding an added token's text ([CLS]…), go through the tokenizer as they are. A word's ids come from
 * bert-word-ids.ts (or the tokenizer itself, `encode(word)`, for a word it leaves), the special tokens from
 * encoding a probe, and truncation and padding follow transformers.js' `_call`: the whole row (specials included)
 * cut to the length, padded on the right. The encoder is only used when it gives the tokenizer's own rows for every
 * CHECK_TEXTS entry; the test compares rows over the sample KB in three languages. The encoder uses transformers.js'
 * internal `_tokenizer`; wordIdSource takes that or tokenizers.js' Tokenizer itself; anything else: undefined.
 */

/** Distinct words kept; the memo starts over past this. */
export const WORD_IDS_MEMO_WORDS = 200_000;
/** Longer words (a run of CJK text has no spaces) are encoded, not kept. */
const MAX_MEMO_WORD = 64;
const WHITESPACE = /\s+/;

/** Texts the encoder must give the tokenizer's own rows for before it is used. */
const CHECK_TEXTS = [
  'the Harbor ragdesk190 e.g. (FOB,) |---|',
  '**Таможенной** «пошлины» Ёлка, café—naïve Straße İstanbul ΟΔΟΣ x\u0301y',
  '海关清关 and 中文 mixed',
  '  leading\tand\ntrailing\u00a0spaces\u3000 ',
  'z'.repeat(101),
  '',
];

interface HfTokenizer {
  normalizer?: { constructor?: { name?: string } } | null;
  pre_tokenizer?: { constructor?: { name?: string } } | null;
  remove_space?: boolean;
  do_lowercase_and_remove_accent?: boolean;
  added_tokens?: Array<{ content?: string }>;
  encode(text: string, options?: { add_special_tokens?: boolean }): { ids: number[] };
}

interface Encoded {
  input_ids: number[];
  attention_mask: number[];
  token_type_ids?: number[];
}

interface TransformersTokenizer {
  _tokenizer?: HfTokenizer;
  _encode_plus?(text: string, options: { add_special_tokens: boolean }): Encoded;
  model_max_length?: number;
  pad_token_id?: number;
  padding_side?: string;
}

/**
 * Token ids handed over with the texts of a batch (the chunker's, by position: chunk/types.ts TokenIndex): text k's
 * ids are `data[offsets[k], offsets[k] + lengths[k])`, without special tokens, or none where `lengths[k]` is -1 (its
 * text is tokenized). `prefix`: text before every text (a model's passage prefix), tokenized here.
 */
export interface GivenIds {
  data: Int32Array;
  offsets: Int32Array;
  lengths: Int32Array;
  prefix?: string;
}

/** Token rows of a batch of texts; with `given`, the texts it has ids for are not read (they may be empty). */
export type IdsEncoder = (texts: string[], given?: GivenIds) => Int64Rows;

/**
 * The per-word path both threads share: a word's ids, and which words and whitespace keep a text on it. A text takes
 * the path when none of its words is unclean and none of its whitespace is dirty; its ids are then its words' ids one
 * after the other.
 */
export interface WordIdSource {
  /** A word's ids without specials (bertWordIds, else the tokenizer on the word alone); valid until the next call. */
  idsOf(word: string): number[];
  /** False for a word holding a character clean_text drops or an added token's text. */
  clean(word: string): boolean;
  /** 1 at the whitespace characters (JavaScript \s) that clean_text drops (form feed, vertical tab, BOM). */
  readonly dirtySpaces: Uint8Array;
}

interface Checked {
  tok: TransformersTokenizer;
  t: HfTokenizer;
  source: WordIdSource;
  maxLength: number;
  pad: number;
  prefix: number[];
  suffix: number[];
  tokenTypes: boolean;
  added: string[];
}

/** The whitespace (space-table.ts) that clean_text drops: the same for every tokenizer, so derived once. */
const DIRTY_SPACES = new Uint8Array(0x10000);
for (let c = 0; c < 0x10000; c++) if (SPACE[c] === 1 && DROPPED_OR_CONTROL.test(String.fromCharCode(c))) DIRTY_SPACES[c] = 1;

/** Whether `t` is a BERT-style pipeline the per-word path is exact for (see the module comment). */
function bertStyle(t: HfTokenizer | undefined): t is HfTokenizer {
  if (!t || typeof t.encode !== 'function') return false;
  if (t.normalizer?.constructor?.name !== 'BertNormalizer' || t.pre_tokenizer?.constructor?.name !== 'BertPreTokenizer') return false;
  return !t.remove_space && !t.do_lowercase_and_remove_accent;
}

const addedTexts = (t: HfTokenizer): string[] => (t.added_tokens ?? []).map((a) => a.content ?? '').filter(Boolean);

/** The per-word path of a BERT-style pipeline with these added tokens. */
function sourceOf(t: HfTokenizer, added: string[]): WordIdSource {
  const direct = bertWordIds(t);
  const scratch: number[] = [];
  // A word the direct path took holds nothing clean_text drops and no added token (bertWordIds leaves those).
  let lastDirect: string | undefined;
  return {
    idsOf: (word) => {
      scratch.length = 0;
      lastDirect = direct?.(word, scratch) ? word : undefined;
      return lastDirect !== undefined ? scratch : t.encode(word, { add_special_tokens: false }).ids;
    },
    clean: (word) => word === lastDirect || (!DROPPED_OR_CONTROL.test(word) && !includesAny(word, added)),
    dirtySpaces: DIRTY_SPACES,
  };
}

/** The tokenizer's parts the per-word encoder needs, or undefined when it is not BERT-style (no check of ids yet). */
function checkedTokenizer(tokenizer: unknown): Checked | undefined {
  const tok = tokenizer as TransformersTokenizer | undefined;
  const t = tok?._tokenizer;
  if (!tok || !bertStyle(t) || typeof tok._encode_plus !== 'function' || (tok.padding_side ?? 'right') !== 'right') return undefined;
  const added = addedTexts(t);

  // The special tokens around a single text: encode a probe with and without them.
  const probe = tok._encode_plus('a', { add_special_tokens: true });
  const bare = t.encode('a', { add_special_tokens: false }).ids;
  const at = indexOfRun(probe.input_ids, bare);
  if (at < 0 || bare.length === 0) return undefined;
  const keys = Object.keys(probe);
  if (probe.token_type_ids?.some((v) => v !== 0) || probe.attention_mask.some((v) => v !== 1)) return undefined;
  if (keys.some((k) => k !== 'input_ids' && k !== 'attention_mask' && k !== 'token_type_ids')) return undefined;
  return {
    tok,
    t,
    source: sourceOf(t, added),
    maxLength: tok.model_max_length ?? Infinity,
    pad: tok.pad_token_id ?? 0,
    prefix: probe.input_ids.slice(0, at),
    suffix: probe.input_ids.slice(at + bare.length),
    tokenTypes: probe.token_type_ids !== undefined,
    added,
  };
}

/**
 * The per-word path of a BERT-style tokenizer, for ids computed elsewhere than in the encoder (the chunker's token
 * index on the main thread, which loads the tokenizers.js Tokenizer alone: token-counter.ts), or undefined for
 * another kind, or when an added token holds whitespace (a text could then hold one across two words). Its ids
 * equal the encoder's where both take a word: the two build them from the same tokenizer.json with the same code
 * and library (transformers.js bundles tokenizers.js; the test compares the main thread's ids with the worker's
 * rows). Whether the encoder takes given ids at all is the embedding worker's to say (LoadResult.ids): ids are only
 * handed over where it does.
 */
export function wordIdSource(tokenizer: unknown): WordIdSource | undefined {
  const t = tokenizerPipeline<HfTokenizer>(tokenizer);
  if (!bertStyle(t)) return undefined;
  const added = addedTexts(t);
  return added.some((a) => /\s/.test(a)) ? undefined : sourceOf(t, added);
}

/** The encoder for `tokenizer`, or undefined when it is not BERT-style or disagrees with the tokenizer on a check. */
export function wordIdsEncoder(tokenizer: unknown, memoWords = WORD_IDS_MEMO_WORDS): IdsEncoder | undefined {
  const c = checkedTokenizer(tokenizer);
  return c && encoderOf(c, memoWords);
}

/** The encoder over a checked tokenizer's per-word path, or undefined when it disagrees with the tokenizer on CHECK_TEXTS. */
function encoderOf(c: Checked, memoWords: number): IdsEncoder | undefined {
  const { tok, source, maxLength, pad, prefix, suffix, added } = c;
  const full = (text: string): Encoded => tok._encode_plus!(text, { add_special_tokens: true });

  // Word → ids: offset and length into one growing pool (no array per word).
  let pool = new Int32Array(1 << 16);
  let used = 0;
  const memo = new Map<string, number>();
  const wordIds = (word: string, out: number[]): void => {
    if (word.length > MAX_MEMO_WORD) {
      for (const id of source.idsOf(word)) out.push(id);
      return;
    }
    let slot = memo.get(word);
    if (slot === undefined) {
      const ids = source.idsOf(word);
      if (ids.length >= 256) {
        for (const id of ids) out.push(id);
        return;
      }
      if (memo.size >= memoWords) {
        memo.clear();
        used = 0;
      }
      if (used + ids.length > pool.length) {
        const grown = new Int32Array(pool.length * 2);
        grown.set(pool.subarray(0, used));
        pool = grown;
      }
      pool.set(ids, used);
      slot = used * 256 + ids.length;
      used += ids.length;
      memo.set(ownString(word), slot);
    }
    const start = Math.floor(slot / 256);
    const end = start + (slot % 256);
    for (let i = start; i < end; i++) out.push(pool[i]!);
  };

  /** The ids of a text's words, appended to `out` until it holds `maxLength` (the row is cut there anyway). */
  const appendWords = (text: string, out: number[]): void => {
    for (const word of text.split(WHITESPACE)) {
      if (!word) continue;
      wordIds(word, out);
      // The row is cut to maxLength anyway, its suffix included: the rest of the text cannot show.
      if (out.length >= maxLength) return;
    }
  };
  const rowIds = (text: string): number[] => {
    if (DROPPED_OR_CONTROL.test(text) || includesAny(text, added)) return full(text).input_ids;
    const out = prefix.slice();
    appendWords(text, out);
    if (out.length >= maxLength) return out;
    for (const id of suffix) out.push(id);
    return out;
  };
  /** The row of a text whose ids are given: the specials, the prefix's ids, the given ids, cut to maxLength. */
  const givenRow = (given: GivenIds, k: number, before: number[]): number[] => {
    const out = before.slice();
    const from = given.offsets[k]!;
    const to = Math.min(from + given.lengths[k]!, from + maxLength);
    for (let i = from; i < to && out.length < maxLength; i++) out.push(given.data[i]!);
    if (out.length >= maxLength) return out;
    for (const id of suffix) out.push(id);
    return out;
  };

  const encode: IdsEncoder = (texts, given) => {
    let before = prefix;
    if (given?.prefix) {
      before = prefix.slice();
      appendWords(given.prefix, before);
    }
    const rows = texts.map((text, k) => (given && given.lengths[k]! >= 0 ? givenRow(given, k, before) : rowIds(text)));
    let width = 0;
    for (const r of rows) width = Math.max(width, r.length);
    width = Math.min(width, maxLength);
    const n = rows.length * width;
    const ids = new BigInt64Array(n);
    const mask = new BigInt64Array(n);
    // Ids are small and non-negative: write each int64's low half (little-endian) through an int32 view, no BigInt.
    const ids32 = new Int32Array(ids.buffer);
    const mask32 = new Int32Array(mask.buffer);
    for (let b = 0; b < rows.length; b++) {
      const row = rows[b]!;
      const len = Math.min(row.length, width);
      const base = 2 * b * width;
      for (let k = 0; k < len; k++) {
        ids32[base + 2 * k] = row[k]!;
        mask32[base + 2 * k] = 1;
      }
      if (pad !== 0) for (let k = len; k < width; k++) ids32[base + 2 * k] = pad;
    }
    const dims: [number, number] = [rows.length, width];
    const out: Int64Rows = { input_ids: { data: ids, dims }, attention_mask: { data: mask, dims } };
    if (c.tokenTypes) out.token_type_ids = { data: new BigInt64Array(n), dims };
    return out;
  };

  try {
    for (const text of CHECK_TEXTS) if (!sameRows(encode([text, 'a']), tokenizerRows(tok, [text, 'a']))) return undefined;
  } catch {
    // A tokenizer that cannot pad (no pad token) or otherwise fails on the checks keeps its own path.
    return undefined;
  }
  return encode;
}

/**
 * The tokenizer's own rows (its whole pipeline), padded and truncated as the worker asks for them, as int64: what
 * the encoder is checked against, and what the worker uses for tokenizers the encoder does not take.
 */
export function tokenizerRows(tokenizer: unknown, texts: string[]): Int64Rows {
  const call = tokenizer as (t: string[], o: object) => Record<string, number[][]>;
  return int64Rows(call(texts, { padding: true, truncation: true, return_tensor: false }));
}

export function sameRows(a: Int64Rows, b: Int64Rows): boolean {
  const keys = Object.keys(a).sort();
  if (keys.join() !== Object.keys(b).sort().join()) return false;
  for (const k of keys) {
    const x = a[k]!;
    const y = b[k]!;
    if (x.dims[0] !== y.dims[0] || x.dims[1] !== y.dims[1] || x.data.length !== y.data.length) return false;
    for (let i = 0; i < x.data.length; i++) if (x.data[i] !== y.data[i]) return false;
  }
  return true;
}

function indexOfRun(haystack: number[], needle: number[]): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
