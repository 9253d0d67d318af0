import v8 from 'node:v8';

/**
 * How far V8 lets a heap grow past what the last full collection kept, in percent (RAGDESK_HEAP_GROWING_PERCENT
 * overrides; 0 keeps V8's own policy).
 *
 * V8's default grows the old generation by up to 4× the live heap when the program allocates fast, and ingest
 * allocates fast (parsed blocks, chunk texts, analysed columns and Arrow rows, all short-lived). Measured with
 * `ragdesk add` of a 60 MB Markdown file (2 cores, fixture model): the main isolate's heap stood at 250–325 MB for
 * ~60 MB live, and V8's pages were half of the 908 MB peak RSS. With 30 % the same add peaked at 644–666 MB in the
 * same time (50.7–52.9 s against 51.2 s); 10,000 small files 683 → 647 MB, 27 → 30 s. 15 % saved little more
 * (609–673 MB) and cost more time. docs/benchmarks.md, "Memory of `ragdesk add`".
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 30;

/** The percent to use from the environment: an integer 0–400, else the default. */
export function heapGrowingPercent(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.RAGDESK_HEAP_GROWING_PERCENT?.trim();
  if (!raw) return DEFAULT_HEAP_GROWING_PERCENT;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 && n <= 400 ? n : DEFAULT_HEAP_GROWING_PERCENT;
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
