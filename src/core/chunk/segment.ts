import { trimRange } from './span.js';

/** A half-open character range [start, end) of the document text. */
export type Range = [start: number, end: number];

const sentenceSegmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });
const wordSegmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
const ALL_WS = /^\s+$/;
/**
 * Characters segmented per Intl.Segmenter call. V8's segment iterator gets slower with the length of the input
 * (quadratic in practice: 200 kB takes ~30 s), so long texts are segmented window by window.
 */
const WINDOW_CHARS = 4096;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Calls `visit` for each segment of text[start, end), in order, segmenting at most WINDOW_CHARS at a time. The last
 * segment of a window may be cut short by the window's end, so it is not reported; the next window starts at it.
 * A window holding a single segment (a "word" or "sentence" longer than the window) is reported as cut.
 */
export function forEachSegment(
  segmenter: Intl.Segmenter,
  text: string,
  start: number,
  end: number,
  visit: (segStart: number, segEnd: number, segment: string, isWordLike: boolean) => void,
): void {
  let pos = start;
  while (pos < end) {
    let stop = Math.min(end, pos + WINDOW_CHARS);
    if (stop < end && isHighSurrogate(text.charCodeAt(stop - 1))) stop--;
    const atEnd = stop >= end;
    let pending: { index: number; segment: string; isWordLike: boolean } | undefined;
    for (const seg of segmenter.segment(text.slice(pos, stop))) {
      if (pending) visit(pos + pending.index, pos + pending.index + pending.segment.length, pending.segment, pending.isWordLike);
      pending = { index: seg.index, segment: seg.segment, isWordLike: seg.isWordLike ?? false };
    }
    if (!pending) break;
    if (atEnd || pending.index === 0) {
      visit(pos + pending.index, pos + pending.index + pending.segment.length, pending.segment, pending.isWordLike);
      pos = stop;
    } else {
      pos += pending.index;
    }
  }
}

/**
 * Sentences of text[start, end) by Unicode sentence rules (Intl.Segmenter): Latin and Cyrillic `.!?`,
 * CJK `。！？`, and line breaks. Ranges are trimmed and never empty.
 */
export function sentenceRanges(text: string, start = 0, end = text.length): Range[] {
  const out: Range[] = [];
  forEachSegment(sentenceSegmenter, text, start, end, (s, e) => {
    const [a, b] = trimRange(text, s, e);
    if (a < b) out.push([a, b]);
  });
  return out;
}

/** Non-blank lines of text[start, end), trimmed. */
export function lineRanges(text: string, start = 0, end = text.length): Range[] {
  const out: Range[] = [];
  let s = start;
  while (s < end) {
    let e = text.indexOf('\n', s);
    if (e === -1 || e > end) e = end;
    const [a, b] = trimRange(text, s, e);
    if (a < b) out.push([a, b]);
    s = e + 1;
  }
  return out;
}

/**
 * Word pieces of text[start, end): each piece is a word (Intl.Segmenter word boundaries; Chinese and Japanese
 * get dictionary words or single characters) with the whitespace before it and the punctuation right after it.
 * Counting "␠word," as one piece matches how tokenizers see text and keeps the number of counts low.
 * Returns parallel arrays of piece starts and ends; the pieces tile the range except leading/trailing whitespace.
 */
export function wordPieces(text: string, start = 0, end = text.length): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  let wsStart = -1; // start of the whitespace run before the next piece
  let prevWasText = false;
  forEachSegment(wordSegmenter, text, start, end, (s, e, segment, isWordLike) => {
    if (ALL_WS.test(segment)) {
      if (wsStart === -1) wsStart = s;
      prevWasText = false;
      return;
    }
    if (prevWasText && !isWordLike && ends.length > 0) {
      ends[ends.length - 1] = e; // punctuation sticks to the word before it
    } else {
      starts.push(wsStart === -1 ? s : wsStart);
      ends.push(e);
    }
    wsStart = -1;
    prevWasText = true;
  });
  return { starts, ends };
}

/**
 * Splits one oversized piece text[start, end) into consecutive slices whose cost fits `budget`, by characters
 * (never inside a surrogate pair). A single character costing more than the budget still becomes its own slice,
 * so the caller always makes progress.
 */
export function splitByCharacters(
  text: string,
  start: number,
  end: number,
  budget: number,
  cost: (s: string) => number,
): { ranges: Range[]; costs: number[] } {
  const ranges: Range[] = [];
  const costs: number[] = [];
  const total = Math.max(1, cost(text.slice(start, end)));
  const charsPerToken = (end - start) / total;
  let pos = start;
  while (pos < end) {
    let len = Math.min(end - pos, Math.max(1, Math.floor(budget * charsPerToken)));
    for (;;) {
      let stop = pos + len;
      if (stop < end && isHighSurrogate(text.charCodeAt(stop - 1))) stop = stop - 1 > pos ? stop - 1 : stop + 1;
      const c = cost(text.slice(pos, stop));
      if (c <= budget || stop - pos <= 1 || (stop - pos === 2 && isHighSurrogate(text.charCodeAt(pos)))) {
        ranges.push([pos, stop]);
        costs.push(c);
        pos = stop;
        break;
      }
      len = Math.min(stop - pos - 1, Math.max(1, Math.floor(((stop - pos) * budget) / c)));
    }
  }
  return { ranges, costs };
}
