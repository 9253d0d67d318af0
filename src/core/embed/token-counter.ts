import type * as TokenizersModule from '@huggingface/tokenizers';
import type { TokenCounter } from '../chunk/types.js';
import { localTokenizerDir } from './loader.js';
import { readTokenizerFiles } from './tokenizer-files.js';
import type { ModelSpec } from './model-spec.js';
import { bertWordIds, CHECK_WORDS } from './bert-word-ids.js';
import { ownString } from '../util/own-string.js';
import { SPAN_HASH_SEED, spanHash, SpanMemo } from '../util/span-memo.js';
import { SPACE } from './space-table.js';
import { wordIdsCounter } from './token-index.js';
import { wordIdSource } from './word-ids.js';

/**
 * The model's own tokenizer on the main thread, for chunk sizes in model tokens, from disk only: a preset already
 * downloaded into `<data>/models` or a model folder. It is tokenizers.js' Tokenizer built from tokenizer.json and
 * tokenizer_config.json, as transformers.js' AutoTokenizer builds the one it wraps (transformers.js bundles
 * tokenizers.js, and its `encode` is the Tokenizer's), without transformers.js: importing that took ~0.3 s of the
 * main thread of every process that writes, and loads onnxruntime and sharp, which only the embedding worker uses.
 * tokenizers.js is imported lazily (tokenizer-files.ts) so hosts that never count tokens never load it.
 */

/** The tokenizers.js Tokenizer of the model files in `dir` (tokenizer.json, tokenizer_config.json). */
export async function readTokenizer(dir: string): Promise<TokenizersModule.Tokenizer> {
  return (await readTokenizerFiles(dir)).tokenizer;
}

/** A TokenCounter over the model's tokenizer, or undefined when its tokenizer files are not on disk. */
export async function loadModelTokenCounter(spec: ModelSpec, cacheDir: string): Promise<TokenCounter | undefined> {
  const dir = localTokenizerDir(spec, cacheDir);
  if (!dir) return undefined;
  try {
    const tokenizer = await readTokenizer(dir);
    // BERT-style: counts and ids from one scan (token-index.ts), the ids handed to the embedding worker.
    const source = wordIdSource(tokenizer);
    if (source) return wordIdsCounter(spec.resolved, source);
    const full = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).ids.length;
    return { id: spec.resolved, count: wordMemoizedCount(bertWordCount(tokenizer, full) ?? full), additive: true };
  } catch (err) {
    process.stderr.write(
      `ragdesk: tokenizer of ${spec.model} could not be loaded, estimating tokens: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    return undefined;
  }
}

/**
 * The token counters of a process's models, by resolved model: each tokenizer is loaded once, and asks that come
 * while it loads share the load (the first writes of two adds at once each loaded it). One that is not on disk is
 * looked for again at the next ask (the model may arrive). Emptied when the model manager is disposed (a counter's
 * word caches hold up to 200k words); nothing is kept after that.
 */
export class TokenCounters {
  private readonly known = new Map<string, TokenCounter>();
  private readonly loads = new Map<string, Promise<TokenCounter | undefined>>();
  private cleared = false;

  constructor(private readonly cacheDir: string) {}

  /** The model's counter, or undefined when its tokenizer is not on disk (or could not be loaded). */
  async get(spec: ModelSpec): Promise<TokenCounter | undefined> {
    const known = this.known.get(spec.resolved);
    if (known) return known;
    let loading = this.loads.get(spec.resolved);
    if (!loading) {
      loading = loadModelTokenCounter(spec, this.cacheDir).finally(() => this.loads.delete(spec.resolved));
      this.loads.set(spec.resolved, loading);
    }
    const counter = await loading;
    if (counter && !this.cleared) this.known.set(spec.resolved, counter);
    return counter;
  }

  clear(): void {
    this.cleared = true;
    this.known.clear();
  }
}

const MAX_CACHED_WORD = 64;
const MAX_CACHE = 50_000;

/**
 * Token counts per whitespace-separated word, memoised. Exact for the tokenizers transformers.js runs for
 * embedding models: their pre-tokenizers (BERT's whitespace/punctuation split, SentencePiece's Metaspace) split
 * on whitespace first, so a text's count is the sum of its words' counts. Words repeat (Zipf), so chunking a
 * large corpus tokenizes each distinct word about once instead of every occurrence several times. The words are
 * looked up by their span of the text (util/span-memo.ts), hashed as the scan passes over them: only a word not
 * seen yet is cut out of the text (splitting every text made a string per word and hashed each again for the
 * lookup: ~0.45 s of the main thread's 7 s and garbage for the collector in the `add` of 20 MB with potion).
 */
export function wordMemoizedCount(countWord: (word: string) => number): (text: string) => number {
  const cache = new SpanMemo<number>(MAX_CACHE);
  const wordCount = (text: string, start: number, end: number, hash: number): number => {
    if (end - start > MAX_CACHED_WORD) return countWord(text.slice(start, end));
    const known = cache.get(text, start, end, hash);
    if (known !== undefined) return known;
    const word = ownString(text.slice(start, end));
    const n = countWord(word);
    cache.set(word, hash, n);
    return n;
  };
  return (text: string) => {
    let total = 0;
    let start = -1;
    let hash = SPAN_HASH_SEED;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (SPACE[c] === 1) {
        if (start >= 0) total += wordCount(text, start, i, hash);
        start = -1;
      } else {
        if (start < 0) {
          start = i;
          hash = SPAN_HASH_SEED;
        }
        hash = spanHash(hash, c);
      }
    }
    if (start >= 0) total += wordCount(text, start, text.length, hash);
    return total;
  };
}

/**
 * A word's token count for BERT-style tokenizers from bertWordIds (normalised, pre-tokenized and split into
 * WordPiece pieces directly, without the tokenizer's whole pipeline per word); words it leaves (CJK, characters
 * BertNormalizer drops, added tokens) go to `full`. The chunker counts every distinct word once
 * (wordMemoizedCount). Undefined for any other tokenizer, or when the two disagree on CHECK_WORDS.
 */
export function bertWordCount(tokenizer: unknown, full: (word: string) => number): ((word: string) => number) | undefined {
  const ids = bertWordIds(tokenizer);
  if (!ids) return undefined;
  const scratch: number[] = [];
  const count = (word: string): number => {
    scratch.length = 0;
    return ids(word, scratch) ? scratch.length : full(word);
  };
  return CHECK_WORDS.every((w) => count(w) === full(w)) ? count : undefined;
}
