import { stemmer as stemEnglish } from '@orama/stemmers/english';
import { stemmer as stemRussian } from '@orama/stemmers/russian';
import { analyzeTokens } from './analyzer.js';
import { foldCjkRadicals } from './cjk-radicals.js';
import { ENGLISH_HIGHLIGHT_STOP_WORDS } from './highlight-stopwords.js';
import { ENGLISH_STOP_WORDS, RUSSIAN_STOP_WORDS } from './stopwords.js';

/** A half-open range [start, end) of UTF-16 offsets in a text. */
export type MarkRange = [start: number, end: number];

/**
 * What to mark in hits for a query. `marks[i]` are the ranges of `texts[i]` to mark: whole words whose analysed
 * tokens (the index's analyzer: stems, the Russian stem prefix) meet the query's, and CJK bigrams of the query
 * (a lone CJK character only when the query itself is one). `prefixes`/`exact` are the older, text-free hint.
 */
export interface HighlightTerms {
  prefixes: string[];
  exact: string[];
  marks?: MarkRange[][];
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /\p{Script=Latin}/u;
const LETTER = /\p{L}/u;
/** The analyzer's Russian stem prefix length (see analyzer.ts). */
const RU_PREFIX = 5;
const MIN_PREFIX = 3;

/** A query or text word that is never marked: a stop word of the index or of highlighting, or a lone letter. */
function unmarkable(word: string): boolean {
  const w = word.normalize('NFKC').toLowerCase().replace(/ё/g, 'е');
  if (Array.from(w).length === 1 && LETTER.test(w)) return true;
  return ENGLISH_STOP_WORDS.has(w) || ENGLISH_HIGHLIGHT_STOP_WORDS.has(w) || RUSSIAN_STOP_WORDS.has(w);
}

/** The query as the marker needs it: analysed word tokens, and CJK bigrams / lone characters. */
interface QueryTerms {
  tokens: Set<string>;
  bigrams: Set<string>;
  singles: Set<string>;
}

function queryTerms(query: string): QueryTerms {
  const q: QueryTerms = { tokens: new Set(), bigrams: new Set(), singles: new Set() };
  const lower = foldCjkRadicals(query.normalize('NFKC')).toLowerCase();
  for (const m of lower.matchAll(CJK_RUN)) {
    const chars = Array.from(m[0]);
    if (chars.length === 1) q.singles.add(chars[0]!);
    for (let i = 0; i + 1 < chars.length; i++) q.bigrams.add(chars[i]! + chars[i + 1]!);
  }
  for (const m of lower.replace(CJK_RUN, ' ').matchAll(WORD)) {
    if (unmarkable(m[0])) continue;
    for (const t of analyzeTokens(m[0])) q.tokens.add(t);
  }
  return q;
}

/** Merge sorted-or-not ranges that overlap or touch. */
function merge(ranges: MarkRange[]): MarkRange[] {
  ranges.sort((a, b) => a[0] - b[0]);
  const out: MarkRange[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

function markCjk(run: string, offset: number, q: QueryTerms, out: MarkRange[]): void {
  // Code points with their UTF-16 offsets (a Han character outside the BMP is two units).
  const chars: Array<{ c: string; at: number; len: number }> = [];
  let at = offset;
  for (const c of run) {
    chars.push({ c: c.normalize('NFKC').toLowerCase(), at, len: c.length });
    at += c.length;
  }
  for (let i = 0; i < chars.length; i++) {
    const cur = chars[i]!;
    const next = chars[i + 1];
    if (next && q.bigrams.has(cur.c + next.c)) out.push([cur.at, next.at + next.len]);
    else if (q.singles.has(cur.c)) out.push([cur.at, cur.at + cur.len]);
  }
}

/**
 * The ranges of `text` to mark for `query`: whole words only (never a letter inside a word), never stop words,
 * matched the way full-text search matched them (the same analyzer), CJK by the query's bigrams.
 */
export function markRanges(query: string, text: string, q: QueryTerms = queryTerms(query)): MarkRange[] {
  if (q.tokens.size + q.bigrams.size + q.singles.size === 0 || !text) return [];
  const out: MarkRange[] = [];
  // CJK radicals (symbols, not letters) read as their ideographs; one UTF-16 unit each way, so offsets hold.
  for (const m of foldCjkRadicals(text).matchAll(WORD)) {
    const word = m[0];
    const start = m.index;
    if (!CJK_CHAR.test(word)) {
      if (q.tokens.size > 0 && !unmarkable(word) && analyzeTokens(word).some((t) => q.tokens.has(t)))
        out.push([start, start + word.length]);
      continue;
    }
    // A word mixing CJK and other letters: CJK runs by bigram, the rest as words.
    let pos = 0;
    for (const part of word.matchAll(CJK_RUN)) {
      const before = word.slice(pos, part.index);
      if (before && q.tokens.size > 0 && !unmarkable(before) && analyzeTokens(before).some((t) => q.tokens.has(t)))
        out.push([start + pos, start + part.index]);
      markCjk(part[0], start + part.index, q, out);
      pos = part.index + part[0].length;
    }
    const after = word.slice(pos);
    if (after && q.tokens.size > 0 && !unmarkable(after) && analyzeTokens(after).some((t) => q.tokens.has(t)))
      out.push([start + pos, start + word.length]);
  }
  return merge(out);
}

/** The text-free hint: stems as prefixes, CJK runs and numbers exact (no stop words, no lone letters). */
function legacyTerms(query: string): Pick<HighlightTerms, 'prefixes' | 'exact'> {
  const prefixes = new Set<string>();
  const exact = new Set<string>();
  const lower = foldCjkRadicals(query.normalize('NFKC')).toLowerCase();
  for (const m of lower.matchAll(CJK_RUN)) exact.add(m[0]);
  for (const m of lower.replace(CJK_RUN, ' ').matchAll(WORD)) {
    const word = m[0];
    if (unmarkable(word)) continue;
    if (CYRILLIC.test(word)) {
      const stem = stemRussian(word.replace(/ё/g, 'е'));
      const prefix = stem.length > RU_PREFIX ? stem.slice(0, RU_PREFIX) : stem;
      if (prefix.length >= MIN_PREFIX) prefixes.add(prefix);
      else exact.add(word);
    } else if (LATIN.test(word)) {
      const stem = stemEnglish(word);
      if (stem.length >= MIN_PREFIX) prefixes.add(stem);
      else exact.add(word);
    } else exact.add(word);
  }
  const byLength = (a: string, b: string) => b.length - a.length;
  return { prefixes: [...prefixes].sort(byLength).slice(0, 64), exact: [...exact].sort(byLength).slice(0, 64) };
}

/** What to mark for `query`; with `texts`, the exact ranges in each (see HighlightTerms). */
export function highlightTerms(query: string, texts?: readonly string[]): HighlightTerms {
  const legacy = legacyTerms(query);
  if (!texts) return legacy;
  const q = queryTerms(query);
  return { ...legacy, marks: texts.map((t) => markRanges(query, t, q)) };
}
