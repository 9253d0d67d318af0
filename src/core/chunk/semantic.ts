import { RagError } from '../../shared/errors.js';
import type { ParsedDocument } from '../parse/types.js';
import type { Unit } from './pack.js';
import { packUnits, rangesToUnits } from './pack.js';
import { sentenceRanges } from './segment.js';
import type { SizeLimits, Span, TokenCost } from './span.js';

export type EmbedFn = (texts: string[]) => Promise<Float32Array[]>;

/** Sentences per embed call: bounds memory on long documents; the embedder batches within a call. */
const EMBED_BATCH = 128;
/** Sentences on each side of a gap whose mean embeddings are compared (fewer near the ends); smooths odd sentences. */
const WINDOW = 2;
/** A gap is a cut when its depth is above this percentile of the document's own gap depths. */
const PERCENTILE = 95;

function unit(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  return norm > 0 ? v.map((x) => x / norm) : v;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

function sumOf(vectors: Float32Array[], from: number, to: number, dim: number): Float32Array {
  const out = new Float32Array(dim);
  for (let i = from; i < to; i++) {
    const v = vectors[i] as Float32Array;
    for (let d = 0; d < dim; d++) out[d] = (out[d] as number) + (v[d] as number);
  }
  return out;
}

/** The p-th percentile (0..100) of values, linearly interpolated. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (rank - lo);
}

/**
 * Cosine similarity across each gap between sentences: `s[g]` compares the mean embedding of the sentences ending
 * at g with that of the sentences starting at g + 1, using the same number on both sides (WINDOW, fewer at the ends).
 */
export function gapSimilarities(vectors: Float32Array[]): number[] {
  const n = vectors.length;
  const dim = vectors[0]?.length ?? 0;
  const normalized = vectors.map(unit);
  const out: number[] = [];
  for (let g = 0; g < n - 1; g++) {
    const w = Math.min(WINDOW, g + 1, n - 1 - g);
    out.push(cosine(sumOf(normalized, g + 1 - w, g + 1, dim), sumOf(normalized, g + 1, g + 1 + w, dim)));
  }
  return out;
}

/**
 * How deep each gap's similarity valley is (TextTiling): the climb to the nearest peak on the left plus the climb
 * on the right. A drop between two coherent stretches scores high; uniform noise and the document's ends score low.
 */
export function depthScores(similarities: number[]): number[] {
  const n = similarities.length;
  const sim = (i: number): number => similarities[i] as number;
  // Peak reached climbing left/right from each gap while similarity does not fall: linear time.
  const leftPeak = new Float64Array(n);
  const rightPeak = new Float64Array(n);
  for (let g = 0; g < n; g++) leftPeak[g] = g > 0 && sim(g - 1) >= sim(g) ? (leftPeak[g - 1] as number) : sim(g);
  for (let g = n - 1; g >= 0; g--) rightPeak[g] = g < n - 1 && sim(g + 1) >= sim(g) ? (rightPeak[g + 1] as number) : sim(g);
  return similarities.map((s, g) => (leftPeak[g] as number) - s + ((rightPeak[g] as number) - s));
}

/**
 * Gaps to cut at, chosen from the document's own distribution of drops: depth above its `PERCENTILE`-th percentile
 * and above the mean (a text with no topic shift is not cut just because some gap is deepest), and a local peak.
 */
export function chooseCuts(depths: number[]): Set<number> {
  const cuts = new Set<number>();
  if (depths.length === 0) return cuts;
  const threshold = percentile(depths, PERCENTILE);
  const mean = depths.reduce((a, b) => a + b, 0) / depths.length;
  depths.forEach((d, g) => {
    const before = depths[g - 1] ?? -Infinity;
    const after = depths[g + 1] ?? -Infinity;
    if (d > threshold && d > mean + 1e-9 && d > before && d >= after) cuts.add(g);
  });
  return cuts;
}

async function embedAll(embed: EmbedFn, texts: string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    const batch = texts.slice(i, i + EMBED_BATCH);
    const vectors = await embed(batch);
    if (vectors.length !== batch.length) {
      throw new RagError('internal', `embed returned ${vectors.length} vectors for ${batch.length} sentences`);
    }
    out.push(...vectors);
  }
  const dim = out[0]?.length ?? 0;
  if (out.some((v) => v.length !== dim)) throw new RagError('internal', 'embed returned vectors of different dimensions');
  return out;
}

/**
 * The `semantic` strategy: sentences are embedded, and a chunk ends where the similarity of neighbouring sentence
 * windows drops deeply compared with the rest of the document (see gapSimilarities, depthScores, chooseCuts); `size` stays a hard maximum, so a long topic is packed into several chunks (with sentence
 * overlap inside the topic, never across a cut). If embedding fails, a warning is added and no cuts are made,
 * which is exactly the `sentence` strategy.
 */
export async function semanticStrategy(
  doc: ParsedDocument,
  limits: SizeLimits,
  tc: TokenCost,
  embed: EmbedFn,
  warnings: string[] = [],
): Promise<Span[]> {
  const text = doc.text;
  const sentences = sentenceRanges(text);
  let cuts = new Set<number>();
  if (sentences.length >= 3) {
    try {
      const vectors = await embedAll(
        embed,
        sentences.map(([s, e]) => text.slice(s, e)),
      );
      cuts = chooseCuts(depthScores(gapSimilarities(vectors)));
    } catch (err) {
      // The model failed mid-way (e.g. it could not load): chunk by sentence rather than lose the document.
      const reason = err instanceof Error ? err.message : String(err);
      warnings.push(`semantic chunking could not embed the sentences (${reason}); the document was chunked by sentence instead`);
    }
  }
  const units: Unit[] = [];
  sentences.forEach((range, i) => {
    units.push(...rangesToUnits(text, [range], limits, tc, cuts.has(i - 1)));
  });
  return packUnits(text, units, limits, tc);
}
