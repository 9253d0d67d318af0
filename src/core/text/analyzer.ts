import { stemmer as stemEnglish } from '@orama/stemmers/english';
import { stemmer as stemRussian } from '@orama/stemmers/russian';
import { foldCjkRadicals } from './cjk-radicals.js';
import { ENGLISH_STOP_WORDS, RUSSIAN_STOP_WORDS } from './stopwords.js';

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

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/u;
const CJK_RUNS =
  /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)|([^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)/gu;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /\p{Script=Latin}/u;
const RU_PREFIX = 5;
const MAX_TOKEN = 40;

function pushCjk(run: string, out: string[]): void {
  const chars = Array.from(run);
  for (let i = 0; i < chars.length; i++) {
    out.push(chars[i]!);
    if (i + 1 < chars.length) out.push(chars[i]! + chars[i + 1]!);
  }
}

/** Analysed tokens per distinct word, memoised: stemming every occurrence is most of the indexing cost. */
const wordCache = new Map<string, readonly string[]>();
const MAX_WORD_CACHE = 200_000;

function pushWord(word: string, out: string[]): void {
  let tokens = wordCache.get(word);
  if (!tokens) {
    const fresh: string[] = [];
    analyzeWord(word, fresh);
    tokens = fresh;
    if (wordCache.size >= MAX_WORD_CACHE) wordCache.clear();
    wordCache.set(word, tokens);
  }
  for (const t of tokens) out.push(t);
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

/** Analyze text into index tokens (see the module comment). */
export function analyzeTokens(text: string): string[] {
  const out: string[] = [];
  // NFKC folds full-width forms and the Kangxi radicals; the supplement radicals need their table.
  const lower = foldCjkRadicals(text.normalize('NFKC')).toLowerCase();
  for (const m of lower.matchAll(WORD)) {
    const word = m[0];
    if (!CJK.test(word)) {
      pushWord(word, out);
      continue;
    }
    for (const part of word.matchAll(CJK_RUNS)) {
      if (part[1]) pushCjk(part[1], out);
      else if (part[2]) pushWord(part[2], out);
    }
  }
  return out;
}

/** The analyzed form stored in the full-text column and sent as the query. */
export function analyzeForIndex(text: string): string {
  return analyzeTokens(text).join(' ');
}
