/**
 * BM25 exactly as LanceDB's full-text index scores it (lance-index `scorer.rs`), so that a ranking computed here
 * equals the ranking of a freshly built index, give or take float rounding:
 *   score(d, q) = Σ_{t ∈ set(q), df(t) > 0} idf(t) · tf·(K1+1) / (tf + K1·(1 − B + B·dl/avgdl))
 *   idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5)),  avgdl = total tokens / N
 * N counts every row (even one whose text has no tokens). The index splits the analysed text on spaces
 * (see text/analyzer.ts) and ignores tokens of MAX_TOKEN_BYTES UTF-8 bytes or more: they count neither
 * in a row's length nor as terms.
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/** The index's token length limit (tantivy's RemoveLongFilter default): a token of this many bytes or more is dropped. */
export const MAX_TOKEN_BYTES = 40;

/** Collection statistics over the rows a ranking is computed against. */
export interface LexStats {
  /** Rows (documents for BM25: chunks here). */
  docs: number;
  /** Sum of the rows' lengths in index tokens. */
  tokens: number;
  /** Rows holding each query term. */
  df: Map<string, number>;
}

export function emptyStats(): LexStats {
  return { docs: 0, tokens: 0, df: new Map() };
}

/** Add `b` into `a` (statistics of disjoint row sets). */
export function addStats(a: LexStats, b: LexStats): LexStats {
  a.docs += b.docs;
  a.tokens += b.tokens;
  for (const [t, n] of b.df) a.df.set(t, (a.df.get(t) ?? 0) + n);
  return a;
}

/** Whether the index keeps the token `s[from, to)`: not empty, and under MAX_TOKEN_BYTES UTF-8 bytes. */
function keptSpan(s: string, from: number, to: number): boolean {
  const units = to - from;
  // Fast path: a UTF-16 unit takes at most three UTF-8 bytes (a surrogate pair four for its two units).
  return units > 0 && (units * 3 < MAX_TOKEN_BYTES || utf8Bytes(s, from, to) < MAX_TOKEN_BYTES);
}

const kept = (token: string): boolean => keptSpan(token, 0, token.length);

/** The tokens the index keeps of an analysed text (the `fts` column). */
export function indexTokens(analyzed: string): string[] {
  return analyzed.split(' ').filter(kept);
}

/**
 * A row's length as the index counts it: indexTokens(analyzed).length, found by walking the text (every row
 * written is counted; the split made an array and a string per token: 264 ms of the main thread's 3.45 busy s in
 * the `add` of 20 MB of Markdown, and garbage for the collector).
 */
export function indexLength(analyzed: string): number {
  let n = 0;
  const len = analyzed.length;
  for (let start = 0; start <= len;) {
    let end = analyzed.indexOf(' ', start);
    if (end < 0) end = len;
    if (keptSpan(analyzed, start, end)) n++;
    start = end + 1;
  }
  return n;
}

/** UTF-8 bytes of `s` from `from` to `to` as Buffer.byteLength counts them (a lone surrogate as U+FFFD), up to the limit. */
function utf8Bytes(s: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to && bytes < MAX_TOKEN_BYTES; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The distinct terms of an analysed query that the index can match. */
export function queryTerms(analyzedQuery: string): string[] {
  return [...new Set(indexTokens(analyzedQuery))];
}

/**
 * Occurrences of each query term among an analysed text's space-separated tokens: the term frequencies of a full split
 * without splitting the whole text (a search scores up to a hundred candidates of hundreds of tokens each; the
 * row's length comes from its stored `fts_len`). `terms` are index tokens (queryTerms), so never hold a space.
 */
export function termCounts(analyzed: string, terms: ReadonlySet<string>): Map<string, number> {
  const tf = new Map<string, number>();
  const n = analyzed.length;
  for (const t of terms) {
    let count = 0;
    for (let i = analyzed.indexOf(t); i >= 0;) {
      const end = i + t.length;
      const whole = (i === 0 || analyzed.charCodeAt(i - 1) === 32) && (end === n || analyzed.charCodeAt(end) === 32);
      if (whole) count++;
      i = analyzed.indexOf(t, whole ? end + 1 : i + 1);
    }
    if (count > 0) tf.set(t, count);
  }
  return tf;
}

export function idf(df: number, docs: number): number {
  return Math.log((docs - df + 0.5) / (df + 0.5) + 1);
}

/** BM25 of one row for the query terms under `stats`. */
export function bm25(tf: ReadonlyMap<string, number>, dl: number, stats: LexStats): number {
  if (stats.docs === 0) return 0;
  const avgdl = stats.tokens / stats.docs;
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * dl) / (avgdl > 0 ? avgdl : 1));
  let score = 0;
  for (const [term, f] of tf) {
    const df = stats.df.get(term) ?? 0;
    if (df === 0 || f === 0) continue;
    score += (idf(df, stats.docs) * (f * (BM25_K1 + 1))) / (f + norm);
  }
  return score;
}

/**
 * The document frequency behind a one-term BM25 score: what a row's `score` for the single term `tf` times in `dl`
 * tokens implies under `docs` rows of `tokens` tokens (the inverse of `bm25`: idf = ln((N + 1) / (df + 0.5))).
 * Undefined unless it lands within 0.25 of a whole count in 1..docs (float rounding is far below that up to
 * millions of rows; anything else means the score was not computed over those statistics).
 */
export function dfFromScore(score: number, tf: number, dl: number, docs: number, tokens: number): number | undefined {
  if (docs === 0 || tf <= 0 || !(score > 0)) return undefined;
  return wholeCount(score / termWeight(tf, dl, tokens / docs), docs);
}

/** A term's weight in a row beside its idf: tf·(K1+1) / (tf + K1·(1 − B + B·dl/avgdl)). */
function termWeight(tf: number, dl: number, avgdl: number): number {
  return (tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * dl) / (avgdl > 0 ? avgdl : 1)));
}

/** The row count an idf stands for (idf = ln((N + 1) / (df + 0.5))), unless it lands over 0.25 from a whole count in 1..docs. */
function wholeCount(idfValue: number, docs: number): number | undefined {
  const df = (docs + 1) / Math.exp(idfValue) - 0.5;
  const n = Math.round(df);
  return Math.abs(df - n) <= 0.25 && n >= 1 && n <= docs ? n : undefined;
}

/** A row LanceDB scored for a query: its term frequencies (query terms only), length, and LanceDB's BM25 score. */
export interface ScoredRow {
  tf: ReadonlyMap<string, number>;
  dl: number;
  score: number;
}

/** Relative difference allowed between LanceDB's float32 score of a row and bm25() of it under the derived counts. */
const DERIVED_CHECK = 1e-5;
/**
 * How far LanceDB's float32 score of a row may be from the exact one, relative to it: a few roundings of 2^-24 each
 * (idf, the term weight, their product, the sum over terms), taken 16 times over.
 */
const SCORE_ERROR = 16 * 2 ** -24;

/**
 * Document frequencies read off the scores LanceDB gave the rows of one query, where its index's statistics (`docs`
 * rows, `tokens` tokens) are the live rows': each row's score is Σ idf(t)·w(t) over its query terms with w known
 * (the term's count in the row and the row's length), so the idfs of the terms whose counts are not `known` solve a
 * linear system (least squares over the rows), and each idf gives its count. A count is given only where the
 * scores pin it down: its error bound (what SCORE_ERROR on every score can move it, through the system's inverse)
 * is under 0.2 and it lands within 0.25 of a whole number; and none at all unless bm25() under them gives every row
 * whose terms are all counted its LanceDB score (to 1e-5). Terms left out (in no row, not told apart from another,
 * too common for the scores' precision) are counted the slow way. A search over several KBs needs each term's count
 * in each (lexical-index.ts), and a query per term per KB cost more than the search itself.
 */
export function dfsFromScores(
  rows: readonly ScoredRow[],
  known: ReadonlyMap<string, number>,
  docs: number,
  tokens: number,
): Map<string, number> {
  const none = new Map<string, number>();
  if (docs === 0) return none;
  const avgdl = tokens / docs;
  const weight = (f: number, dl: number) => termWeight(f, dl, avgdl);
  const unknown = [...new Set(rows.flatMap((r) => [...r.tf.keys()].filter((t) => !known.has(t))))];
  const m = unknown.length;
  if (m === 0) return none;
  const at = new Map(unknown.map((t, i) => [t, i]));
  // Normal equations (AᵀA) x = Aᵀb: a row of A holds the unknown terms' weights, b the score less the known terms' parts.
  const ata = new Float64Array(m * m);
  const atb = new Float64Array(m);
  const weights = rows.map((row) => {
    const a = new Float64Array(m);
    let b = row.score;
    for (const [t, f] of row.tf) {
      const i = at.get(t);
      if (i !== undefined) a[i] = weight(f, row.dl);
      else if (known.get(t)! > 0) b -= idf(known.get(t)!, docs) * weight(f, row.dl);
    }
    for (let i = 0; i < m; i++) {
      const ai = a[i]!;
      if (ai === 0) continue;
      atb[i] = atb[i]! + ai * b;
      for (let j = 0; j < m; j++) ata[i * m + j] = ata[i * m + j]! + ai * a[j]!;
    }
    return a;
  });
  // The idfs, and each column of (AᵀA)⁻¹ (for the error bounds), from one elimination.
  const units = unknown.map((_, i) => {
    const unit = new Float64Array(m);
    unit[i] = 1;
    return unit;
  });
  const solved = solve(ata, [atb, ...units], m);
  if (!solved) return none;
  const [idfs, ...inverse] = solved;
  const derived = new Map<string, number>();
  for (const [i, t] of unknown.entries()) {
    // Row i of (AᵀA)⁻¹Aᵀ says how each score moves this idf: |δidf| ≤ Σ_rows |g| · SCORE_ERROR · score.
    const y = inverse[i]!;
    let bound = 0;
    weights.forEach((a, r) => {
      let g = 0;
      for (let j = 0; j < m; j++) g += a[j]! * y[j]!;
      bound += Math.abs(g) * SCORE_ERROR * rows[r]!.score;
    });
    const n = wholeCount(idfs![i]!, docs);
    // d df / d idf = −(df + 0.5) = −(N + 1) / e^idf.
    if (n !== undefined && (bound * (docs + 1)) / Math.exp(idfs![i]!) < 0.2) derived.set(t, n);
  }
  if (derived.size === 0) return none;
  const stats: LexStats = { docs, tokens, df: new Map([...known, ...derived]) };
  for (const row of rows) {
    if ([...row.tf.keys()].some((t) => !stats.df.has(t))) continue;
    if (Math.abs(bm25(row.tf, row.dl, stats) - row.score) > DERIVED_CHECK * Math.max(row.score, 1e-9)) return none;
  }
  return derived;
}

/**
 * x of the m×m system `a` x = b for each b of `rhs` (row-major; all overwritten), by one Gaussian elimination with
 * partial pivoting; undefined when singular.
 */
function solve(a: Float64Array, rhs: Float64Array[], m: number): Float64Array[] | undefined {
  let scale = 0;
  for (let i = 0; i < m; i++) scale = Math.max(scale, Math.abs(a[i * m + i]!));
  for (let col = 0; col < m; col++) {
    let pivot = col;
    for (let r = col + 1; r < m; r++) if (Math.abs(a[r * m + col]!) > Math.abs(a[pivot * m + col]!)) pivot = r;
    if (!(Math.abs(a[pivot * m + col]!) > 1e-9 * scale)) return undefined;
    if (pivot !== col) {
      for (let j = 0; j < m; j++) [a[col * m + j], a[pivot * m + j]] = [a[pivot * m + j]!, a[col * m + j]!];
      for (const b of rhs) [b[col], b[pivot]] = [b[pivot]!, b[col]!];
    }
    for (let r = col + 1; r < m; r++) {
      const k = a[r * m + col]! / a[col * m + col]!;
      if (k === 0) continue;
      for (let j = col; j < m; j++) a[r * m + j] = a[r * m + j]! - k * a[col * m + j]!;
      for (const b of rhs) b[r] = b[r]! - k * b[col]!;
    }
  }
  return rhs.map((b) => {
    const x = new Float64Array(m);
    for (let r = m - 1; r >= 0; r--) {
      let sum = b[r]!;
      for (let j = r + 1; j < m; j++) sum -= a[r * m + j]! * x[j]!;
      x[r] = sum / a[r * m + r]!;
    }
    return x;
  });
}
