import os from 'node:os';
import { RagError } from '../../shared/errors.js';

/** Fewest threads given to LanceDB's CPU pool (see configureLance). */
export const MIN_LANCE_CPU_THREADS = 4;

/** Postings one full-text build worker holds before it writes a part, in MiB (see configureLance). */
export const FTS_PARTITION_MIB = 128;

/**
 * LanceDB's runtime settings (environment variables it reads when its runtime starts or an index is built), set
 * before the store's first connect.
 *
 * LanceDB (0.31, lance 7) sizes its CPU pool from the core count, and on a machine with 2 cores or fewer building
 * a full-text index over more than one output batch deadlocks: the pool's only blocking thread waits to hand a
 * batch to a consumer that needs that same pool (lancedb/lancedb#3568). Measured here on 2 cores: a 1M-chunk
 * table's index build sat at 0 % CPU for good; with 4 threads it took 12.6 s. So the pool gets at least
 * MIN_LANCE_CPU_THREADS threads unless the user set LANCE_CPU_THREADS. LanceDB reads the variable when its
 * runtime starts (the first connect), so this runs before that.
 */
export function configureLance(env: NodeJS.ProcessEnv = process.env, cores = os.availableParallelism()): void {
  checkLanceNumbers(env);
  if (!env.LANCE_CPU_THREADS?.trim()) env.LANCE_CPU_THREADS = String(Math.max(MIN_LANCE_CPU_THREADS, cores));
  // One worker builds the full-text index (LanceDB's default is several, each with its own buffers). Measured on a
  // 1M-chunk table, 2 cores: the build's peak RSS +460 → +330 MB, its time 9.1 → 13.3 s on one core instead of
  // several (upkeep runs in the background), and searches 11.6 → 9.7 ms p50, as the index has fewer parts to
  // search (docs/benchmarks.md). A value the user set stays.
  if (!env.LANCE_FTS_NUM_SHARDS?.trim()) env.LANCE_FTS_NUM_SHARDS = '1';
  // That worker holds up to LANCE_FTS_PARTITION_SIZE MiB of postings before it writes a part (LanceDB 0.31: 2,048,
  // so a table's whole index is built in memory). Measured on a 570k-chunk table (200 MB of Markdown), fresh
  // process each: 2,048 → build +510-545 MB peak RSS, 1 part; 128 → +330-355 MB, 4 parts; 64 → +210-235 MB, 8 parts;
  // 32 → +205 MB, 14 parts. Searches cost with the parts: top-10 p50 3.7-4.3 ms with 1, 4 or 8 parts, 5.7 ms with
  // 14 (and 3× at 1M with partitions of 16). 128 keeps a 1M-chunk table to under ten parts.
  if (!env.LANCE_FTS_PARTITION_SIZE?.trim()) env.LANCE_FTS_PARTITION_SIZE = String(FTS_PARTITION_MIB);
  // Upkeep asks the ANN index's statistics for its unindexed rows (ChunkTable.unindexedVectors); LanceDB 0.31 puts
  // every IVF centroid in them unless told not to, and warns on stderr at each call that it will stop doing so.
  if (!env.LANCE_INCLUDE_VECTOR_CENTROIDS?.trim()) env.LANCE_INCLUDE_VECTOR_CENTROIDS = 'false';
}

/**
 * The counts LanceDB 0.31 reads from the environment with an unchecked parse: a value that is not a whole number
 * panics inside LanceDB (LANCE_CPU_THREADS at the first query, poisoning every later one; LANCE_IO_THREADS at the
 * first read; the full-text two at every index build, so a KB would never be indexed), and 0 I/O threads hangs the
 * first read. Measured on LanceDB 0.31 with each value set to "", "x", "0" and " 2 ".
 */
const LANCE_COUNTS = ['LANCE_CPU_THREADS', 'LANCE_IO_THREADS', 'LANCE_FTS_NUM_SHARDS', 'LANCE_FTS_PARTITION_SIZE'] as const;

/**
 * A blank LanceDB count is taken as unset (configureLance's default, or LanceDB's own), one with spaces around it is
 * trimmed (LanceDB's parse does not trim: " 2 " panics as "x" does); any other value must be a whole number from 1
 * to 999999, else the store refuses to open and names the variable, as ragdesk's own limits do
 * (services/env-limits.ts), instead of LanceDB panicking on its first query.
 */
function checkLanceNumbers(env: NodeJS.ProcessEnv): void {
  for (const name of LANCE_COUNTS) {
    const raw = env[name];
    if (raw === undefined) continue;
    const value = raw.trim();
    if (!value) delete env[name];
    else if (!/^[1-9][0-9]{0,5}$/.test(value))
      throw new RagError('invalid_parameter', `${name} must be a whole number from 1 to 999999, not "${value.slice(0, 40)}"`, {
        details: { variable: name },
      });
    else env[name] = value;
  }
}
