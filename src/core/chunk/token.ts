import type { ParsedDocument } from '../parse/types.js';
import { splitByCharacters, wordPieces } from './segment.js';
import type { SizeLimits, Span, TokenCost } from './span.js';
import { lowerBound, makeSpan, upperBound } from './span.js';

/**
 * Token windows over text[start, end): chunks of at most `size` tokens, each starting `overlap` tokens (or less)
 * before the previous one ended. Cuts fall on word boundaries; every word piece is counted once (with its leading
 * whitespace), window sizes come from prefix sums, and each window is counted once more as a whole to check it:
 * O(n) counting for any text length. A piece larger than a window is cut by characters.
 */
export function tokenWindows(text: string, start: number, end: number, limits: SizeLimits, tc: TokenCost): Span[] {
  const budget = tc.budget(limits.size);
  const { starts: rawStarts, ends: rawEnds } = wordPieces(text, start, end);
  const ps: number[] = [];
  const pe: number[] = [];
  const costs: number[] = [];
  for (let i = 0; i < rawStarts.length; i++) {
    const s = rawStarts[i] as number;
    const e = rawEnds[i] as number;
    const c = tc.costOf(text, s, e);
    if (c <= budget) {
      ps.push(s);
      pe.push(e);
      costs.push(c);
      continue;
    }
    const split = splitByCharacters(text, s, e, budget, (t) => tc.cost(t));
    split.ranges.forEach(([a, b], k) => {
      ps.push(a);
      pe.push(b);
      costs.push(split.costs[k] as number);
    });
  }

  const m = ps.length;
  const prefix = new Float64Array(m + 1);
  for (let i = 0; i < m; i++) prefix[i + 1] = (prefix[i] as number) + (costs[i] as number);

  const out: Span[] = [];
  let k = 0;
  while (k < m) {
    const base = prefix[k] as number;
    // j = number of pieces taken: the largest j with prefix[j] - prefix[k] <= budget, at least one piece.
    let j = Math.max(k + 1, upperBound(prefix, base + budget, k + 1, m + 1) - 1);
    let span = makeSpan(text, ps[k] as number, pe[j - 1] as number, tc);
    // The sum of piece counts is an estimate; the whole window's count is the truth. Shrink until it fits.
    while (span && span.tokens > limits.size && j > k + 1) {
      const excess = span.tokens - limits.size;
      const target = upperBound(prefix, (prefix[j] as number) - excess, k + 1, j + 1) - 1;
      j = Math.max(k + 1, Math.min(j - 1, target));
      span = makeSpan(text, ps[k] as number, pe[j - 1] as number, tc);
    }
    if (span) out.push(span);
    if (j >= m) break;
    // Next window starts at the earliest piece whose suffix up to j fits the overlap, and after k.
    // It must leave room for piece j, or the next window could not reach past this one.
    const room = Math.min(limits.overlap, budget - (costs[j] as number));
    const next = room > 0 ? lowerBound(prefix, (prefix[j] as number) - room, k + 1, j + 1) : j;
    k = Math.max(k + 1, next);
  }
  return out;
}

/** The `token` strategy: fixed-size token windows over the whole document text. */
export function tokenStrategy(doc: ParsedDocument, limits: SizeLimits, tc: TokenCost): Span[] {
  return tokenWindows(doc.text, 0, doc.text.length, limits, tc);
}
