import type { SizeLimits, Span, TokenCost } from './span.js';
import { lowerBound, makeSpan, upperBound } from './span.js';
import { tokenWindows } from './token.js';
import type { Range } from './segment.js';

/** A piece of text that is packed whole: a sentence, a line, a block, or a token window of an oversized one. */
export interface Unit {
  start: number;
  end: number;
  /** Token cost without the tokenizer's per-call overhead (see TokenCost). */
  cost: number;
  /** A chunk must start at this unit, and no overlap is carried into it (section starts, semantic cuts). */
  breakBefore?: boolean;
  /**
   * Text the chunk starting at this unit opens with, before the unit's own text (a table's head repeated over a later
   * row group). Only on units with `breakBefore`, which always start their chunk and are never carried as overlap.
   */
  prefix?: string;
}

/**
 * Turns ranges into units that each fit a chunk: a range over the budget is cut into token windows.
 * `breakBefore` marks the first unit made from the first range. `costs`: the ranges' costs when the caller has
 * counted them already (counting is most of chunking).
 */
export function rangesToUnits(
  text: string,
  ranges: Range[],
  limits: SizeLimits,
  tc: TokenCost,
  breakBefore = false,
  costs?: readonly number[],
): Unit[] {
  const budget = tc.budget(limits.size);
  const units: Unit[] = [];
  for (const [k, [s, e]] of ranges.entries()) {
    const cost = costs?.[k] ?? tc.costOf(text, s, e);
    if (cost <= budget) {
      units.push({ start: s, end: e, cost });
      continue;
    }
    for (const w of tokenWindows(text, s, e, limits, tc)) {
      units.push({ start: w.start, end: w.end, cost: Math.max(0, w.tokens - tc.overhead) });
    }
  }
  const first = units[0];
  if (breakBefore && first) first.breakBefore = true;
  return units;
}

/**
 * Greedy packing: consecutive units go into one chunk while their costs fit `size`; the next chunk starts with
 * the trailing whole units of the previous one that fit `overlap`, and never crosses a `breakBefore`.
 * Each chunk is counted once as a whole; if the tokenizer counts it above `size`, units are dropped from its
 * edges (carried overlap first) until it fits. Units must be in document order.
 */
export function packUnits(text: string, units: Unit[], limits: SizeLimits, tc: TokenCost): Span[] {
  const budget = tc.budget(limits.size);
  const n = units.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = (prefix[i] as number) + (units[i] as Unit).cost;
  const sum = (a: number, b: number): number => (prefix[b] as number) - (prefix[a] as number);
  // nextBreak[i]: the first index > i whose unit has breakBefore (n when none).
  const nextBreak = new Int32Array(n + 1).fill(n);
  for (let i = n - 1; i >= 0; i--) nextBreak[i] = (units[i + 1]?.breakBefore ?? false) ? i + 1 : (nextBreak[i + 1] as number);

  // With an additive counter, a chunk of units joined by whitespace counts as the sum of their costs (each unit was
  // counted on its own already): `unjoined[k]` counts the joins before unit k that are not whitespace.
  const unjoined = tc.additive ? unjoinedPrefix(text, units) : undefined;
  const spanOf = (i: number, j: number): Span | undefined => {
    const first = units[i] as Unit;
    const known = unjoined && first.prefix === undefined && unjoined[j - 1] === unjoined[i] ? sum(i, j) + tc.overhead : undefined;
    return makeSpan(text, first.start, (units[j - 1] as Unit).end, tc, first.prefix, known);
  };

  const out: Span[] = [];
  let next = 0; // first unit not yet in any chunk
  let from = 0; // first unit of the chunk being built (< next when overlap is carried)
  while (next < n) {
    let i = (units[next] as Unit).breakBefore ? next : from;
    while (i < next && sum(i, next + 1) > budget) i++;
    const limit = nextBreak[next] as number;
    let j = Math.min(limit, Math.max(next + 1, upperBound(prefix, (prefix[i] as number) + budget, next + 1, n + 1) - 1));
    let span = spanOf(i, j);
    while (span && span.tokens > limits.size && (i < next || j > next + 1)) {
      if (i < next) i++;
      else j--;
      span = spanOf(i, j);
    }
    if (span) out.push(span);
    next = j;
    if (next >= n) break;
    // Carry the trailing units that fit the overlap, leaving room for the next unit; at least one unit moves on.
    const room = Math.min(limits.overlap, budget - (units[next] as Unit).cost);
    from = room > 0 ? Math.max(i + 1, lowerBound(prefix, (prefix[j] as number) - room, i + 1, j + 1)) : next;
  }
  return out;
}

const SPACE = /^\s+$/;

/**
 * `out[k]`: how many of the joins between units 0..k are not whitespace (an empty gap, where a word could run on
 * from one unit into the next, or text between them that no unit holds); units [i, j) are joined by whitespace only
 * when `out[j - 1] === out[i]`.
 */
function unjoinedPrefix(text: string, units: Unit[]): Int32Array {
  const out = new Int32Array(units.length);
  for (let k = 1; k < units.length; k++) {
    const gap = text.slice((units[k - 1] as Unit).end, (units[k] as Unit).start);
    out[k] = (out[k - 1] as number) + (SPACE.test(gap) ? 0 : 1);
  }
  return out;
}
