/**
 * The ANN index and query parameters in one place: ChunkTable.buildVectorIndex builds with them,
 * TableSnapshot.vectorRank queries with them, and the `scale` bench makes its raw LanceDB call with the same
 * ones. How they were chosen (recall@10 against exact search, latency at 1M chunks): docs/benchmarks.md.
 */

/** IVF partitions for `rows` vectors: √rows / 2 (≈ 4,000 rows each at 1M; HNSW searches inside a partition). */
export function annPartitions(rows: number): number {
  return Math.max(1, Math.round(Math.sqrt(rows) / 2));
}

/** Query-time search effort for a `limit`-deep ANN query. */
export function annQuery(limit: number): { nprobes: number; ef: number; refineFactor: number } {
  // Deep candidate lists for fusion (50-100) use a cheaper refine, as their tail matters less. LanceDB refuses a
  // query whose HNSW `ef` is below the candidates it refines (limit × refine factor): "ef must be >= k".
  const refineFactor = limit <= 20 ? 4 : 2;
  return { nprobes: 32, ef: Math.max(64, limit * 2, limit * refineFactor), refineFactor };
}
