import type * as TransformersModule from '@huggingface/transformers';
import type { TokenCounter } from '../chunk/types.js';
import { localTokenizerDir } from './loader.js';
import type { ModelSpec } from './model-spec.js';
import { bertWordIds, CHECK_WORDS } from './bert-word-ids.js';
import { GenerationalMemo } from '../util/generational-memo.js';
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
    return { id: spec.resolved, count: wordMemoizedCount(bertWordCount(tokenizer, full) ?? full), additive: true };
  } catch (err) {
    process.stderr.write(
      `ragdesk: tokenizer of ${spec.model} could not be loaded, estimating tokens: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    return undefined;
  }
}

const MAX_CACHED_WORD = 64;
const WHITESPACE = /[\s\u3000]+/;
const MAX_CACHE = 50_000;

/**
 * Token counts per whitespace-separated word, memoised. Exact for the tokenizers transformers.js runs for
 * embedding models: their pre-tokenizers (BERT's whitespace/punctuation split, SentencePiece's Metaspace) split
 * on whitespace first, so a text's count is the sum of its words' counts. Words repeat (Zipf), so chunking a
 * large corpus tokenizes each distinct word about once instead of every occurrence several times.
 */
export function wordMemoizedCount(countWord: (word: string) => number): (text: string) => number {
  const cache = new GenerationalMemo<string, number>(MAX_CACHE, ownString);
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
        cache.set(ownString(word), n);
      }
      total += n;
    }
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
