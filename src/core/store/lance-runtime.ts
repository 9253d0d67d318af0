import os from 'node:os';

/** Fewest threads given to LanceDB's CPU pool (see ensureLanceThreads). */
export const MIN_LANCE_CPU_THREADS = 4;

/**
 * LanceDB (0.31, lance 7) sizes its CPU pool from the core count, and on a machine with 2 cores or fewer building
 * a full-text index over more than one output batch deadlocks: the pool's only blocking thread waits to hand a
 * batch to a consumer that needs that same pool (lancedb/lancedb#3568). Measured here on 2 cores: a 1M-chunk
 * table's index build sat at 0 % CPU for good; with 4 threads it took 12.6 s. So the pool gets at least
 * MIN_LANCE_CPU_THREADS threads unless the user set LANCE_CPU_THREADS. LanceDB reads the variable when its
 * runtime starts (the first connect), so this runs before that.
 */
export function ensureLanceThreads(env: NodeJS.ProcessEnv = process.env, cores = os.availableParallelism()): void {
  if (env.LANCE_CPU_THREADS?.trim()) return;
  env.LANCE_CPU_THREADS = String(Math.max(MIN_LANCE_CPU_THREADS, cores));
}
