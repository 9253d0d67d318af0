import v8 from 'node:v8';
import { envInt } from './env-int.js';

/**
 * How far V8 lets a heap grow past what the last full collection kept, in percent (RAGDESK_HEAP_GROWING_PERCENT
 * overrides; 0 keeps V8's own policy).
 *
 * V8's default grows the old generation by up to 4× the live heap when the program allocates fast, and ingest
 * allocates fast (parsed blocks, chunk texts, analysed columns and Arrow rows, all short-lived). Measured with
 * `ragdesk add` on 2 cores (docs/benchmarks.md, "Memory of `ragdesk add`"):
 * - 60 MB of Markdown, fixture model, peak RSS: V8's policy 908 MB (the main isolate's heap at 250-325 MB for
 *   ~60 MB live), 100 % 760 MB, 60 % 708 MB, 30 % 644-666 MB; the same time (50.7-52.9 s) with each.
 * - 20 MB in 77 files with potion-base-4M, user CPU: V8's policy 24.5-28.5 s, 100 % 27.4 s, 60 % 30.5 s, 30 %
 *   36-39 s: the flag holds for every isolate, and the embedding worker's heap (a small live set, a high
 *   allocation rate) then ran 180 full collections instead of 14.
 * 100 % (at most twice the live heap) kept most of the saving at no measurable cost. Once glibc's arenas no longer
 * held what LanceDB freed (native-heap-trim.ts fixMmapThreshold), V8's heaps were most of a folder's peak: the
 * bench's 50,000 files with potion peaked at 622 / 613 MB with 100 %, 570 / 581 with 70 %, 550 / 554 with 50 %, in
 * the same time (64-69 s). The 20 MB folder, alternating, two rounds: potion 12.49 / 12.73 → 12.68 / 12.87 s at 70 %
 * (13.05 / 13.61 at 50 %), full-text 7.14 / 6.91 → 7.48 / 7.40 s (7.80 / 7.73). 70 % brings the folder under
 * 600 MB for ~1 % of potion's ingest time and ~5 % of full-text's.
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 70;

/** The percent to use from the environment: an integer 0–400, else the default. */
export function heapGrowingPercent(env: NodeJS.ProcessEnv = process.env): number {
  return envInt(env, 'RAGDESK_HEAP_GROWING_PERCENT', 0, 400, DEFAULT_HEAP_GROWING_PERCENT);
}

/**
 * Set the heap growth of every isolate of this process (V8's flags are process-wide, so worker threads started
 * later follow it). V8 reads the flag at each full collection, so setting it at start-up takes effect; call it
 * first thing in an entry point. Returns the percent set (0: V8's policy left alone).
 */
export function configureHeapGrowth(env: NodeJS.ProcessEnv = process.env): number {
  const percent = heapGrowingPercent(env);
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  return percent;
}
