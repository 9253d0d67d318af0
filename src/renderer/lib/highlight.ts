/** A piece of text, marked when it matches a query term. Rendered as React text nodes, never as HTML. */
export interface Segment {
  text: string;
  match: boolean;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Query terms worth marking (literal fallback): words of 2+ letters (any CJK run), longest first so longer terms win. */
export function queryTerms(query: string): string[] {
  const words = query
    .split(/[^\p{L}\p{N}_]+/u)
    .map((w) => w.trim())
    .filter((w) => w.length >= 2 || CJK.test(w));
  return [...new Set(words.map((w) => w.toLowerCase()))].sort((a, b) => b.length - a.length).slice(0, 32);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Stems and exact terms from the server (`highlightTerms`): the words full-text search matched, inflected or not. */
export interface StemTerms {
  prefixes: string[];
  exact: string[];
  /** Per text asked about: the exact ranges to mark (preferred when present). */
  marks?: Array<Array<[number, number]>>;
}

const NOT_WORD_BEFORE = '(?<![\\p{L}\\p{M}\\p{N}])';
const NOT_WORD_AFTER = '(?![\\p{L}\\p{M}\\p{N}])';

/** A literal term as a pattern: whole words only, except CJK runs (no spaces between words there). */
function literal(term: string): string {
  return CJK.test(term) ? escapeRegExp(term) : `${NOT_WORD_BEFORE}${escapeRegExp(term)}${NOT_WORD_AFTER}`;
}

function termsPattern(query: string, stems?: StemTerms): string | undefined {
  if (stems && stems.prefixes.length + stems.exact.length > 0) {
    // A word that starts with a stem is marked whole ("ship" marks "shipping"; "тамож" marks "таможенные").
    const parts = [...stems.prefixes.map((p) => `${NOT_WORD_BEFORE}${escapeRegExp(p)}[\\p{L}\\p{M}\\p{N}]*`), ...stems.exact.map(literal)];
    return parts.join('|');
  }
  const terms = queryTerms(query);
  return terms.length ? terms.map(literal).join('|') : undefined;
}

/** Segments from the server's mark ranges (`highlightTerms` with texts): exactly what full-text search matched. */
export function segmentsFromMarks(text: string, marks: ReadonlyArray<readonly [number, number]>): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const [s, e] of [...marks].sort((a, b) => a[0] - b[0])) {
    const start = Math.max(s, last);
    const end = Math.min(e, text.length);
    if (end <= start) continue;
    if (start > last) out.push({ text: text.slice(last, start), match: false });
    out.push({ text: text.slice(start, end), match: true });
    last = end;
  }
  if (last < text.length) out.push({ text: text.slice(last), match: false });
  return out.length > 0 ? out : [{ text, match: false }];
}

/**
 * Split `text` into marked and plain segments for the query (case-insensitive): by the server's stems when given,
 * else by the query's words literally.
 */
export function highlightSegments(text: string, query: string, stems?: StemTerms): Segment[] {
  const pattern = termsPattern(query, stems);
  if (!pattern || !text) return [{ text, match: false }];
  const re = new RegExp(`(${pattern})`, 'giu');
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    const start = m.index ?? 0;
    if (m[0].length === 0) continue;
    if (start > last) out.push({ text: text.slice(last, start), match: false });
    out.push({ text: m[0], match: true });
    last = start + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last), match: false });
  return out.length > 0 ? out : [{ text, match: false }];
}
