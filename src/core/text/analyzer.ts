import { stemmer as stemEnglish } from '@orama/stemmers/english';
import { stemmer as stemRussian } from '@orama/stemmers/russian';
import { foldCjkRadicals } from './cjk-radicals.js';
import { ENGLISH_STOP_WORDS, RUSSIAN_STOP_WORDS } from './stopwords.js';
import { GenerationalMemo } from '../util/generational-memo.js';
import { ownString } from '../util/own-string.js';
import { SPAN_HASH_SEED, spanHash, SpanMemo } from '../util/span-memo.js';

/**
 * The multilingual analyzer behind full-text search. One KB can hold English, Russian and Chinese side by
 * side, so the analysis is chosen per token by script, not per KB:
 * - Latin: lowercase, Lucene's English stop words, English (Porter) stemming.
 * - Cyrillic: lowercase, ё→е, Russian stop words, Snowball Russian stemming, plus a 5-letter prefix of the
 *   stem so that alternating stems of one word family ("таможн-", "таможен-") still meet.
 * - Han / kana / Hangul: overlapping character unigrams and bigrams (a 2-character query matches); CJK radicals
 *   (⿅, ⻔: what PDFs printed with some CJK fonts hold) count as their ideographs (鹿, 门).
 * - digits and other scripts: lowercased as they are.
 * The output is a space-separated token string; the store indexes it with a plain whitespace tokenizer,
 * and queries go through this same function, so both sides always agree.
 */

const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /\p{Script=Latin}/u;
const RU_PREFIX = 5;
const MAX_TOKEN = 40;

/**
 * What a code point is to the analyzer: not part of a word, a letter/mark/number of a CJK script, or of any other.
 * Words are runs of letters, marks and numbers; inside one, runs of CJK characters and of the others are analysed
 * apart. Decided by the regular expressions below, memoised for the BMP.
 */
const OTHER = 0;
const WORD_CJK = 1;
const WORD = 2;
const IS_WORD = /^[\p{L}\p{M}\p{N}]$/u;
const IS_CJK = new RegExp(`^[${CJK_CLASS}]$`, 'u');
function classify(cp: number): number {
  const c = String.fromCodePoint(cp);
  if (!IS_WORD.test(c)) return OTHER;
  return IS_CJK.test(c) ? WORD_CJK : WORD;
}
/** Classes of the BMP, filled as code points are met (class + 1; 0 = not yet known). */
const BMP = new Uint8Array(0x10000);
function classOf(cp: number): number {
  if (cp > 0xffff) return classify(cp);
  const known = BMP[cp]!;
  if (known) return known - 1;
  const c = classify(cp);
  BMP[cp] = c + 1;
  return c;
}

function pushCjk(run: string, out: string[]): void {
  const chars = Array.from(run);
  for (let i = 0; i < chars.length; i++) {
    out.push(chars[i]!);
    if (i + 1 < chars.length) out.push(chars[i]! + chars[i + 1]!);
  }
}

/** Analysed tokens per distinct word, memoised: stemming every occurrence is most of the indexing cost. */
const MAX_WORD_CACHE = 50_000;
const wordCache = new GenerationalMemo<string, readonly string[]>(MAX_WORD_CACHE, ownString);

function wordTokens(word: string): readonly string[] {
  let tokens = wordCache.get(word);
  if (!tokens) {
    // Its tokens are cut out of the word: from a copy, so that neither keeps the text it came from alive.
    const own = ownString(word);
    const fresh: string[] = [];
    analyzeWord(own, fresh);
    tokens = fresh;
    wordCache.set(own, tokens);
  }
  return tokens;
}

function analyzeWord(word: string, out: string[]): void {
  if (word.length > MAX_TOKEN) return;
  if (CYRILLIC.test(word)) {
    const w = word.replace(/ё/g, 'е');
    if (RUSSIAN_STOP_WORDS.has(w)) return;
    const stem = stemRussian(w);
    out.push(stem);
    if (stem.length > RU_PREFIX) out.push(stem.slice(0, RU_PREFIX));
    return;
  }
  if (LATIN.test(word)) {
    if (ENGLISH_STOP_WORDS.has(word)) return;
    out.push(stemEnglish(word));
    return;
  }
  out.push(word);
}

/** `text` as the analyzer reads it: NFKC (full-width forms, the Kangxi radicals), the supplement radicals, lower case. */
function normalised(text: string): string {
  return foldCjkRadicals(text.normalize('NFKC')).toLowerCase();
}

/** What forEachRun calls for each run. */
interface RunVisitor {
  visit(start: number, end: number, cjk: boolean, hash: number): void;
}

/**
 * The runs of `lower` (normalised) to analyse, in order: `runs.visit(start, end, cjk, hash)` for each maximal run of CJK
 * letters and for each of other letters, marks and numbers, with the run's span hash (util/span-memo.ts). One pass
 * over the code points (no regular expression per word, no run cut out of the text).
 */
function forEachRun(lower: string, runs: RunVisitor): void {
  const n = lower.length;
  let runStart = 0;
  let runClass = OTHER;
  let hash = SPAN_HASH_SEED;
  for (let i = 0; i < n; i++) {
    const at = i;
    let cp = lower.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
      const low = lower.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        i++;
      }
    }
    const cls = cp < 0x80 ? ASCII[cp]! : classOf(cp);
    if (cls !== runClass) {
      if (runClass !== OTHER) runs.visit(runStart, at, runClass === WORD_CJK, hash);
      runClass = cls;
      runStart = at;
      hash = SPAN_HASH_SEED;
    }
    hash = spanHash(hash, lower.charCodeAt(at));
    if (i !== at) hash = spanHash(hash, lower.charCodeAt(i));
  }
  if (runClass !== OTHER) runs.visit(runStart, n, runClass === WORD_CJK, hash);
}
const ASCII = Uint8Array.from({ length: 0x80 }, (_, cp) => classify(cp));

/** Analyze text into index tokens (see the module comment). */
export function analyzeTokens(text: string): string[] {
  const out: string[] = [];
  const lower = normalised(text);
  forEachRun(lower, {
    visit(start, end, cjk) {
      const run = lower.slice(start, end);
      if (cjk) pushCjk(run, out);
      else for (const t of wordTokens(run)) out.push(t);
    },
  });
  return out;
}

/**
 * A word's tokens joined by spaces ('' for none), memoised apart from wordCache for the index string, by the word's
 * span in the text being analysed (util/span-memo.ts: no word is cut out of its chunk to be looked up).
 */
const joinedCache = new SpanMemo<string>(MAX_WORD_CACHE);

/** Empty the word caches (up to 50k words each, in two generations): for a process done analysing for a while. */
export function clearAnalyzerCaches(): void {
  wordCache.clear();
  joinedCache.clear();
}

/** The analyzed form stored in the full-text column and sent as the query: analyzeTokens(text).join(' '). */
export function analyzeForIndex(text: string): string {
  return analyzeAfter('', text);
}

/**
 * analyzeForIndex(`${title}\n${text}`) given `head` = analyzeForIndex(title): a chunk's full-text column with its
 * document's title analysed once per document, not once per chunk, and the two never joined into one string to be
 * flattened and copied (~70 MB of the main thread's allocation in an `add` of 20 MB). The same string: no run
 * crosses the line break, and the line break changes nothing about either side's normalisation or case mapping.
 */
export function analyzeAfter(head: string, text: string): string {
  const lower = normalised(text);
  indexRuns.lower = lower;
  if (head) indexRuns.parts.push(head);
  try {
    forEachRun(lower, indexRuns);
    return indexRuns.parts.join(' ');
  } finally {
    indexRuns.lower = '';
    indexRuns.parts.length = 0;
  }
}

/**
 * The full-text column of a document's chunks: analyzeForIndex(`${title}\n${text}`) of each text, the title
 * analysed once.
 */
export function analyzeChunkTexts(title: string, texts: readonly string[]): string[] {
  const head = analyzeForIndex(title);
  const out = new Array<string>(texts.length);
  // A loop, not a callback made per call (see store/arrow-build.ts).
  for (let i = 0; i < texts.length; i++) out[i] = analyzeAfter(head, texts[i]!);
  return out;
}

/**
 * analyzeForIndex's visitor: one object for every call (the analysis is synchronous), not a callback made per call,
 * whose optimised code V8 dropped with it after every major GC (7 times in an `add` of 20 MB).
 */
class IndexRuns implements RunVisitor {
  lower = '';
  readonly parts: string[] = [];
  private readonly cjkTokens: string[] = [];

  visit(start: number, end: number, cjk: boolean, hash: number): void {
    const lower = this.lower;
    let joined: string;
    if (cjk) {
      this.cjkTokens.length = 0;
      pushCjk(lower.slice(start, end), this.cjkTokens);
      joined = this.cjkTokens.join(' ');
    } else {
      let known = joinedCache.get(lower, start, end, hash);
      if (known === undefined) {
        // Analysed here without going through wordCache (what searches' highlighting uses): ingest analyses
        // millions of words, and keeping each in both caches held ~200,000 token arrays more (~40 MB).
        const own = ownString(lower.slice(start, end));
        const tokens: string[] = [];
        analyzeWord(own, tokens);
        known = tokens.join(' ');
        joinedCache.set(own, hash, known);
      }
      joined = known;
    }
    if (joined) this.parts.push(joined);
  }
}
const indexRuns = new IndexRuns();
