import type { RecognizeOutcome, TesseractEngine } from './engine.js';
import { recognitionSet } from './languages.js';

/**
 * One page, in the language it is written in. Tesseract reads a page in the wrong script with a low confidence
 * (English data on Russian text: ~30; on Chinese: under 10; the right data: 85-96), so the language is found by
 * trying: the language of the previous page first (a document rarely switches), then the other candidates in
 * the KB's order, until one reads the page confidently. A blank page stops at the first try. Only languages on
 * disk are tried; the others are named in `missing`, for the caller to fetch and try again.
 */

/** A reading at or above this mean confidence is taken without trying other languages. */
export const ACCEPT_CONFIDENCE = 70;
/** Below this, a page read without some candidate language (not on disk, no download) fails as model_unavailable. */
export const USABLE_CONFIDENCE = 50;
/** Fewer recognised characters than this: a blank page (or a picture); no other language is tried. */
const BLANK_CHARS = 3;

export interface PageReading extends RecognizeOutcome {
  /** The candidate language that won (`eng`, `rus`, `chi_sim`). */
  language: string;
}

export interface PageVerdict {
  /** The best reading; undefined only when no candidate language is on disk. */
  reading: PageReading | undefined;
  /** Languages tried, in order. */
  tried: string[];
  /** Candidates not on disk that might read the page better (none when the reading was accepted). */
  missing: string[];
}

export interface PageOcrContext {
  engine: TesseractEngine;
  /** Whether a language's data is on disk. */
  has: (code: string) => boolean;
  /** Candidate Tesseract codes, most likely first. */
  candidates: readonly string[];
  /** The language the previous page was read in. */
  previous?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Resolution of the image, when known (rendered pages). */
  dpi?: number | undefined;
}

export function accepted(reading: PageReading): boolean {
  return reading.chars < BLANK_CHARS || reading.confidence >= ACCEPT_CONFIDENCE;
}

export async function readPage(image: Uint8Array, ctx: PageOcrContext): Promise<PageVerdict> {
  const { candidates, previous } = ctx;
  const order = previous && candidates.includes(previous) ? [previous, ...candidates.filter((c) => c !== previous)] : [...candidates];
  const ready = order.filter((c) => ctx.has(c));
  const missing = order.filter((c) => !ctx.has(c));
  const tried: string[] = [];
  let best: PageReading | undefined;
  for (const code of ready) {
    const set = recognitionSet(code, ready);
    const outcome = await ctx.engine.recognize(image, set, ctx.signal, ctx.dpi);
    const reading: PageReading = { ...outcome, language: code };
    tried.push(code);
    if (!best || reading.confidence > best.confidence) best = reading;
    if (accepted(reading)) return { reading, tried, missing: [] };
  }
  return { reading: best, tried, missing };
}
