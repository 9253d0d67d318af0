import type { Unit } from './pack.js';
import { rangesToUnits } from './pack.js';
import type { Range } from './segment.js';
import { lineRanges } from './segment.js';
import type { SizeLimits, TokenCost } from './span.js';

/** A Markdown table's delimiter row: pipes, hyphens, colons and spaces only (`| --- | :-: |`). */
const RULE = /^\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?$/;

/** The head of a Markdown table block (header row + delimiter row) as [start, end), or undefined when it has none. */
export function tableHead(text: string, lines: readonly Range[]): Range | undefined {
  const [header, rule] = lines;
  if (!header || !rule || !text.slice(header[0], header[1]).includes('|')) return undefined;
  return RULE.test(text.slice(rule[0], rule[1])) ? [header[0], rule[1]] : undefined;
}

/**
 * Units for a table block that does not fit its chunk (the parser sized its row groups by an estimate; the KB's
 * tokenizer or a smaller chunk size may count more): its body rows in groups that each fit a chunk together with the
 * table's head. The first group starts at the head in the text (within `room`, what a heading before it leaves);
 * every later group is a chunk of its own with the head as its `prefix`, so each chunk of the table starts with its
 * header row and no row is cut. When the head and the first row do not fit one chunk, the head is a unit of its own
 * and the first row a group like the later ones. A row too big for a chunk with the head gets the header row alone;
 * one too big even so is cut into token windows.
 * Undefined when the block is not a Markdown table with a head: the caller cuts it by lines.
 */
export function tableUnits(
  text: string,
  start: number,
  end: number,
  limits: SizeLimits,
  tc: TokenCost,
  room: number,
  breakBefore: boolean,
): Unit[] | undefined {
  const lines = lineRanges(text, start, end);
  const headRange = tableHead(text, lines);
  if (!headRange || lines.length < 3) return undefined;
  const head = text.slice(headRange[0], headRange[1]);
  const headCost = tc.costOf(text, headRange[0], headRange[1]);
  const budget = tc.budget(limits.size);
  const units: Unit[] = [];

  let groupStart = headRange[0];
  let groupEnd = headRange[1];
  let cost = headCost;
  let limit = Math.min(budget, room);
  let rows = 0;
  // A row too big for a chunk with the whole head repeats the header row alone (without the delimiter row).
  const prefixes = [head, text.slice(lines[0]![0], lines[0]![1])];
  const flush = (): void => {
    if (units.length === 0) {
      const cost = tc.costOf(text, groupStart, groupEnd);
      if (cost <= budget) {
        units.push({ start: groupStart, end: groupEnd, cost, breakBefore });
        return;
      }
      // The head and the first row do not fit one chunk: the head goes alone (it may join the text before it) and
      // the row follows with the head repeated, like any later group.
      units.push({ start: headRange[0], end: headRange[1], cost: headCost, breakBefore });
      groupStart = lines[2]![0];
    }
    const body = text.slice(groupStart, groupEnd);
    for (const prefix of prefixes) {
      const cost = tc.cost(`${prefix}\n${body}`);
      if (cost > budget) continue;
      units.push({ start: groupStart, end: groupEnd, cost, breakBefore: true, prefix });
      return;
    }
    // A row is bigger than a chunk even with the header row alone: nothing keeps it whole, so it is cut like any
    // oversized text.
    units.push(...rangesToUnits(text, [[groupStart, groupEnd]], limits, tc, true));
  };
  for (const [a, b] of lines.slice(2)) {
    const rowCost = tc.costOf(text, a, b);
    if (rows > 0 && cost + rowCost > limit) {
      flush();
      groupStart = a;
      cost = headCost;
      limit = budget;
      rows = 0;
    }
    cost += rowCost;
    groupEnd = b;
    rows++;
  }
  flush();
  return units;
}
