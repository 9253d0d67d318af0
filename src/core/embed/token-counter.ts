import type * as TransformersModule from '@huggingface/transformers';
import type { TokenCounter } from '../chunk/types.js';
import { localTokenizerDir } from './loader.js';
import type { ModelSpec } from './model-spec.js';
import { ownString } from '../util/own-string.js';

/**
 * The model's own tokenizer on the main thread, for chunk sizes in model tokens. Only the tokenizer is loaded
 * (a JSON file, milliseconds), from disk only: a preset already downloaded into `<data>/models` or a model
 * folder. transformers.js is imported lazily so hosts that never count tokens never load it here.
 */

type Transformers = typeof TransformersModule;
let transformers: Promise<Transformers> | undefined;
/** Loads mutate the main thread's transformers.js `env`: one at a time. */
let lock: Promise<unknown> = Promise.resolve();

function loadTransformers(cacheDir: string): Promise<Transformers> {
  transformers ??= import('@huggingface/transformers').then((t) => {
    t.env.allowRemoteModels = false;
    t.env.allowLocalModels = true;
    t.env.logLevel = t.LogLevel.ERROR;
    t.env.cacheDir = cacheDir;
    return t;
  });
  return transformers;
}

/** A TokenCounter over the model's tokenizer, or undefined when its tokenizer files are not on disk. */
export async function loadModelTokenCounter(spec: ModelSpec, cacheDir: string): Promise<TokenCounter | undefined> {
  if (!localTokenizerDir(spec, cacheDir)) return undefined;
  const run = lock.then(async () => {
    const t = await loadTransformers(cacheDir);
    t.env.allowRemoteModels = false;
    t.env.cacheDir = cacheDir;
    t.env.localModelPath = spec.localModelPath ?? cacheDir;
    return t.AutoTokenizer.from_pretrained(spec.name, { local_files_only: true });
  });
  lock = run.catch(() => undefined);
  try {
    const tokenizer = await run;
    const full = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).length;
    return { id: spec.resolved, count: wordMemoizedCount(bertWordCount(tokenizer, full) ?? full) };
  } catch (err) {
    process.stderr.write(
      `ragdesk: tokenizer of ${spec.model} could not be loaded, estimating tokens: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    return undefined;
  }
}

const MAX_CACHED_WORD = 64;
const WHITESPACE = /[\s\u3000]+/;
const MAX_CACHE = 200_000;

/**
 * Token counts per whitespace-separated word, memoised. Exact for the tokenizers transformers.js runs for
 * embedding models: their pre-tokenizers (BERT's whitespace/punctuation split, SentencePiece's Metaspace) split
 * on whitespace first, so a text's count is the sum of its words' counts. Words repeat (Zipf), so chunking a
 * large corpus tokenizes each distinct word about once instead of every occurrence several times.
 */
export function wordMemoizedCount(countWord: (word: string) => number): (text: string) => number {
  const cache = new Map<string, number>();
  return (text: string) => {
    let total = 0;
    for (const word of text.split(WHITESPACE)) {
      if (!word) continue;
      if (word.length > MAX_CACHED_WORD) {
        total += countWord(word);
        continue;
      }
      let n = cache.get(word);
      if (n === undefined) {
        n = countWord(word);
        if (cache.size >= MAX_CACHE) cache.clear();
        cache.set(ownString(word), n);
      }
      total += n;
    }
    return total;
  };
}

/** Printable ASCII without the space: letters, digits and what BertPreTokenizer counts as punctuation. */
const PRINTABLE = /^[\x21-\x7e]+$/;
/**
 * What BertNormalizer does more to a word than change case and strip accents (characters it drops, whitespace,
 * CJK ideographs it pads), and characters outside the BMP (WordPiece counts code points): such words go to `full`.
 */
const NOT_SIMPLE = /[\s\p{Cc}\p{Cf}\p{Co}\p{Cs}\ufffd\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{10000}-\u{10ffff}]/u;
/** What BertPreTokenizer splits off one character at a time (transformers.js' PUNCTUATION_REGEX). */
const PUNCTUATION = /^[\p{P}\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E]$/u;
const MARKS = /\p{Mn}/gu;
/** Words the fast count is checked against the tokenizer's own on, before it is used. */
const CHECK_WORDS = [
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
];

interface BertLike {
  /** tokenizer.json as read. */
  tokenizer?: {
    normalizer?: { type?: string; lowercase?: boolean; strip_accents?: boolean | null } | null;
    pre_tokenizer?: { type?: string } | null;
  };
  added_tokens?: Array<{ content?: string }>;
  model?: {
    constructor?: { name?: string };
    tokens_to_ids?: Map<string, number>;
    config?: { continuing_subword_prefix?: string };
    max_input_chars_per_word?: number;
    fuse_unk?: boolean;
  };
}

/**
 * A word's token count for BERT-style tokenizers (BertNormalizer, BertPreTokenizer, WordPiece: potion, MiniLM,
 * bge…) without the tokenizer's whole pipeline per word, for words of BMP letters, digits, marks and punctuation
 * (no CJK ideographs, nothing BertNormalizer drops): the word is normalised as BertNormalizer does (lowercase, then
 * accents stripped: NFD without nonspacing marks), BertPreTokenizer makes each run of non-punctuation one
 * pre-token and each punctuation character one more (one token whether the vocabulary has it or not: [UNK]), and
 * a run counts WordPiece's greedy longest-match pieces (one [UNK] when a part has none), found by slicing the string
 * instead of re-joining its characters for every candidate length. Other words, and words holding an added token
 * ([CLS]…), go to `full`. The chunker counts every distinct word once (wordMemoizedCount). Undefined (the
 * tokenizer's own count is used) for any other tokenizer, or when the two disagree on CHECK_WORDS; uses
 * transformers.js' internal `_tokenizer`.
 */
export function bertWordCount(tokenizer: unknown, full: (word: string) => number): ((word: string) => number) | undefined {
  const t = (tokenizer as { _tokenizer?: BertLike } | undefined)?._tokenizer;
  const model = t?.model;
  const vocab = model?.tokens_to_ids;
  if (!t || !model || !(vocab instanceof Map) || model.constructor?.name !== 'WordPieceTokenizer' || model.fuse_unk) return undefined;
  const json = t.tokenizer;
  if (json?.normalizer?.type !== 'BertNormalizer' || json.pre_tokenizer?.type !== 'BertPreTokenizer') return undefined;
  const prefix = model.config?.continuing_subword_prefix ?? '##';
  const maxChars = model.max_input_chars_per_word ?? 100;
  const lowercase = json.normalizer.lowercase !== false;
  const strip = lowercase ? json.normalizer.strip_accents !== false : Boolean(json.normalizer.strip_accents);
  let longest = 0;
  for (const key of vocab.keys()) longest = Math.max(longest, key.length);
  const added = (t.added_tokens ?? []).map((a) => a.content ?? '').filter(Boolean);
  /** Punctuation to BertPreTokenizer, per UTF-16 unit (class + 1; 0 = not yet known). */
  const punct = new Uint8Array(0x10000);
  const isPunct = (c: number): boolean => {
    let known = punct[c]!;
    if (!known) punct[c] = known = PUNCTUATION.test(String.fromCharCode(c)) ? 2 : 1;
    return known === 2;
  };
  /** WordPiece pieces of one normalised pre-token. */
  const pieces = (w: string): number => {
    if (w.length > maxChars) return 1;
    let n = 0;
    for (let start = 0; start < w.length; n++) {
      let end = Math.min(w.length, start + longest);
      while (end > start && !vocab.has(start > 0 ? prefix + w.slice(start, end) : w.slice(start, end))) end--;
      if (end === start) return 1; // no piece fits: the whole pre-token is [UNK]
      start = end;
    }
    return n;
  };
  const count = (word: string): number => {
    const ascii = PRINTABLE.test(word);
    if (!ascii && NOT_SIMPLE.test(word)) return full(word);
    let w = lowercase ? word.toLowerCase() : word;
    if (strip && !ascii) w = w.normalize('NFD').replace(MARKS, '');
    if (added.some((a) => word.includes(a) || w.includes(a))) return full(word);
    let n = 0;
    let run = -1; // start of the pre-token being read
    for (let i = 0; i < w.length; i++) {
      if (!isPunct(w.charCodeAt(i))) {
        if (run < 0) run = i;
        continue;
      }
      if (run >= 0) n += pieces(w.slice(run, i));
      run = -1;
      n++;
    }
    return run >= 0 ? n + pieces(w.slice(run)) : n;
  };
  return CHECK_WORDS.every((w) => count(w) === full(w)) ? count : undefined;
}
