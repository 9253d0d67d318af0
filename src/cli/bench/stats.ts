/** Small helpers for benchmarks: percentiles, timing, memory. */

export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

export async function timeIt<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** How long `fn` took, in seconds. */
export async function secondsOf(fn: () => Promise<unknown>): Promise<number> {
  return (await timeIt(fn)).ms / 1000;
}

export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

export function rssMb(): number {
  return round(process.memoryUsage().rss / 1024 / 1024, 0);
}

/** Deterministic PRNG so runs are comparable. */
export { prng } from '../../core/util/prng.js';
