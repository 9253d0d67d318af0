import { stemmer as stemEnglish } from '@orama/stemmers/english';
import { stemmer as stemRussian } from '@orama/stemmers/russian';
import { ENGLISH_STOP_WORDS, RUSSIAN_STOP_WORDS } from './stopwords.js';

/**
 * What to mark in a hit for a query, matching the way full-text search matched it: the UI marks every word that
 * starts with one of `prefixes` (the query words' stems, so "shipped" marks "shipping" and "таможенной" marks
 * "таможня", "таможенные") and every occurrence of `exact` (CJK runs, numbers).
 */
export interface HighlightTerms {
  prefixes: string[];
  exact: string[];
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /\p{Script=Latin}/u;
/** The analyzer's Russian stem prefix length (see analyzer.ts). */
const RU_PREFIX = 5;
const MIN_PREFIX = 3;

export function highlightTerms(query: string): HighlightTerms {
  const prefixes = new Set<string>();
  const exact = new Set<string>();
  const lower = query.normalize('NFKC').toLowerCase();
  for (const m of lower.matchAll(CJK_RUN)) exact.add(m[0]);
  for (const m of lower.replace(CJK_RUN, ' ').matchAll(WORD)) {
    const word = m[0];
    if (CYRILLIC.test(word)) {
      const w = word.replace(/ё/g, 'е');
      if (RUSSIAN_STOP_WORDS.has(w)) continue;
      const stem = stemRussian(w);
      const prefix = stem.length > RU_PREFIX ? stem.slice(0, RU_PREFIX) : stem;
      if (prefix.length >= MIN_PREFIX) prefixes.add(prefix);
      else exact.add(w);
    } else if (LATIN.test(word)) {
      if (ENGLISH_STOP_WORDS.has(word)) continue;
      const stem = stemEnglish(word);
      if (stem.length >= MIN_PREFIX) prefixes.add(stem);
      else exact.add(word);
    } else if (word.length > 0) exact.add(word);
  }
  const byLength = (a: string, b: string) => b.length - a.length;
  return { prefixes: [...prefixes].sort(byLength).slice(0, 64), exact: [...exact].sort(byLength).slice(0, 64) };
}
