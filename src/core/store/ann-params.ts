import { Index, type VectorQuery } from '@lancedb/lancedb';

/**
 * The ANN index and query parameters in one place: ChunkTable.buildVectorIndex builds with them,
 * TableSnapshot.vectorRank queries with them, and the `scale` bench makes its raw LanceDB call with the same
 * ones. How they were chosen (recall@10 against exact search, latency at 1M chunks): docs/benchmarks.md.
 */

/** IVF partitions for `rows` vectors: √rows / 2 (≈ 2,000 rows each at 1M; a query scans the partitions it probes). */
export function annPartitions(rows: number): number {
  return Math.max(1, Math.round(Math.sqrt(rows) / 2));
}

/**
 * The distance a vector query asks LanceDB for. Every stored vector and every query vector is unit length (the
 * embedders L2-normalise, and arrow-build.ts normalises each vector written once more), so `1 − a·b` (LanceDB's
 * `dot`) is the cosine distance, to the last float bit or two. An exact search (no ANN index yet: fewer than
 * ANN_MIN_ROWS vectors, most KBs) asks for `dot`: LanceDB's flat `cosine` divides by both norms for every row, twice
 * the time (SciFact rows, potion 128-d, p50: 4.8k rows 6.5 → 3.1 ms, 9.6k 12.0 → 5.4 ms; the top 10 the same for
 * 50 of 50 queries, distances within 2.4e-7). An ANN index is queried with the distance it was built for (cosine);
 * built for `dot` it was no faster (IVF-RQ at 9.6k: 3.60 → 3.43 ms), so indexes stay as built.
 */
export function vectorDistance(annIndexed: boolean): 'cosine' | 'dot' {
  return annIndexed ? 'cosine' : 'dot';
}

/** Fewest partitions a query searches (all of them below that many). */
export const ANN_MIN_PROBES = 32;
/**
 * Share of the partitions a query searches past ANN_MIN_PROBES: recall falls as the table grows when the number
 * of probes stays put (32 of 112 partitions at 50k vectors: 0.969; 32 of 500 at 1M: 0.903). At 1M, recall@10
 * against exact search for 32 / 50 / 64 / 100 / 150 probes of 500: 0.903 / 0.933 / 0.953 / 0.973 / 0.977; 64
 * (this share) is the fewest measured that reach 0.95. More probes past 250k vectors, the same 32 below. Short
 * lists: ANN_SHORT_PROBES_PER_ROOT.
 */
export const ANN_PROBE_SHARE = 0.128;
/**
 * Probes for short lists (top_k up to 20: what recall@10 measures) per square root of the partition count. A fixed
 * share of the partitions does not hold recall as the table grows: IVF partitions grow too (√rows / 2 of them, ~630
 * vectors at 100k, ~2,000 at 1M), and smaller tables needed a larger share. Measured recall@10 against exact search
 * (200 SciFact claims, the `scale` bench's tables): at 100k (158 partitions) 32 / 40 / 48 / 64 probes gave 0.932 /
 * 0.954 / 0.964 / 0.980 at 5.7 / 6.2 / 6.5 / 7.5 ms p50 (CI's 100k runs with 32: 0.933-0.953); at 1M (500) 64 /
 * 80 / 100 gave 0.956 / 0.969 / 0.980 at 15.6 / 15.2 / 17.9 ms. A later 1M build (the same vectors, IVF trained on
 * another random sample) gave 0.949 at 85 probes and 0.956 at 101 (100 claims; vector p50 18.8 → 20.3 ms), so the
 * margin is taken from the worse build: 4.5·√partitions is 57 at 100k and 101 at 1M.
 * (Those figures are IVF-HNSW-SQ's; IVF-RQ at 101 probes of 500: 0.986, and at 57 of 158: 0.995.) On IVF-HNSW-SQ,
 * fusion's deep lists keep ANN_PROBE_SHARE: their cost grows with the probes (100 deep at 1M: 62 ms at 64 probes,
 * 90 ms at 100) and their tail matters less.
 */
export const ANN_SHORT_PROBES_PER_ROOT = 4.5;

/**
 * The kind of ANN index a table has. ragdesk builds IVF-RQ (`ANN_INDEX`: IVF partitions, each vector stored as
 * RaBitQ codes of ANN_RQ_BITS bits per dimension, scanned whole in every probed partition); KBs indexed before
 * 2026-12-03 have IVF-HNSW-SQ (an HNSW graph over 8-bit scalar-quantised vectors in each partition), queried with
 * its own parameters until upkeep rebuilds it (services/indexing.ts). Measured on the `scale` bench's potion
 * tables, the same queries (midpoints of two stored vectors) against exact search, one build each
 * (docs/benchmarks.md): at 1M, build 56.5 → 18.5 s (104 → 31 CPU s); top-10 at 101 probes recall 0.966 → 0.986,
 * p50 20.6 → 7.7 ms; fusion's 100-deep list at 64 probes recall@100 0.918 → 0.912, p50 24.6 → 9.7 ms; the index
 * 201 → 85 MB. At 100k: build 7.5 → 3.4 s; top-10 0.987 → 0.995, 10.5 → 4.5 ms. Two bits per dimension lose
 * recall (top-10 0.938 at 1M), one bit more (0.925 at 100k).
 */
export type AnnIndexKind = 'ivf_rq' | 'ivf_hnsw_sq';
export const ANN_INDEX: AnnIndexKind = 'ivf_rq';
export const ANN_RQ_BITS = 4;
/**
 * Training vectors per IVF partition (LanceDB's `sampleRate`; its default is 256): k-means over 64 per partition
 * is what FAISS asks for at least (39) with a margin. Measured on potion tables (the same vectors, one build each,
 * 100 queries, 4.5·√partitions probes, refine 4): 54k vectors (116 partitions) build 1.9 → 0.86 s, recall@10
 * 0.997 → 1.000; 1M (500) 18.2 → 14.6 s, 0.977 → 0.987. The whole index build is the last ~15 % of a `ragdesk
 * add` of 20 MB with potion.
 */
export const ANN_SAMPLE_RATE = 64;

/** The index ChunkTable.buildIndexes builds over `rows` vectors: IVF-RQ, cosine, with the parameters above. */
export function annIndexConfig(rows: number): Index {
  return Index.ivfRq({ distanceType: 'cosine', numPartitions: annPartitions(rows), numBits: ANN_RQ_BITS, sampleRate: ANN_SAMPLE_RATE });
}

/** The kind of a vector index from LanceDB's `listIndices()` entry (its `indexType`); undefined for another kind. */
export function annIndexKind(indexType: string): AnnIndexKind | undefined {
  const t = indexType.replace(/_/g, '').toLowerCase();
  return t === 'ivfrq' ? 'ivf_rq' : t === 'ivfhnswsq' ? 'ivf_hnsw_sq' : undefined;
}

/**
 * How a list of a hybrid search is used: `merged` lists of several KBs on one model are merged by their distances
 * before fusion (rankKbs), so they must be exact; the `alone` list of a KB searched by itself is only z-scored
 * against its own rows (fusion.ts), where any scale of the distances ranks the same.
 */
export type FusionList = 'merged' | 'alone';

/**
 * Query-time search effort for a `limit`-deep ANN query over an index of about `rows` vectors (its partition
 * count follows from it: annPartitions). Without `rows`, the fewest probes. `fusion`: the list is one side of a
 * hybrid search, read for its ranks and z-scored distances, never shown as they come. `ef` (HNSW candidates) only
 * for an IVF-HNSW-SQ index.
 */
export function annQuery(
  limit: number,
  rows?: number,
  fusion?: FusionList,
  kind: AnnIndexKind = ANN_INDEX,
): { nprobes: number; ef?: number; refineFactor: number } {
  // Refine factor f: the index's best limit × f candidates (quantised distances) are re-scored at full precision
  // and the best `limit` kept; a hits list takes 4× (short) or 2× (deep) for the order it shows. A merged fusion
  // list takes 1: the rows the index picks, their distances exact, no candidates beyond them (at 1M, 100 deep,
  // IVF-HNSW-SQ: 27-31 ms against 36-44 with ef 200 and factor 2). A fusion list alone takes none (0: no refine
  // step): its distances are the quantised ones, a scale of their own (IVF-HNSW-SQ gives squared L2 between unit
  // vectors, 2 × the cosine distance), which the z-scores of fusion.ts do not see. Against factor 1 (IVF-HNSW-SQ):
  // the list on SciFact's 9.6k chunks 4.9 → 3.6 ms, hybrid p50 at 1M 56.6 → 49.6-50.6 ms; SciFact hybrid nDCG@10
  // 0.6837 → 0.6822 and Recall@100 0.939 → 0.943, means of four index builds each (docs/benchmarks.md). LanceDB
  // refuses an HNSW query whose `ef` is below limit × refine factor: "ef must be >= k".
  const refineFactor = fusion === 'alone' ? 0 : fusion ? 1 : limit <= 20 ? 4 : 2;
  const partitions = rows === undefined ? ANN_MIN_PROBES : annPartitions(rows);
  // IVF-RQ scans its probed partitions whole, so every list takes the short lists' probes: at 1M, a 100-deep list
  // at 64 / 96 probes had recall@100 0.912 / 0.942 at 9.7 / 10.3 ms (IVF-HNSW-SQ: 0.918 / 0.948 at 24.6 / 31 ms).
  const short = limit <= 20 || kind === 'ivf_rq';
  const wanted = short ? ANN_SHORT_PROBES_PER_ROOT * Math.sqrt(partitions) : partitions * ANN_PROBE_SHARE;
  const nprobes = rows === undefined ? ANN_MIN_PROBES : Math.min(partitions, Math.max(ANN_MIN_PROBES, Math.ceil(wanted)));
  if (kind === 'ivf_rq') return { nprobes, refineFactor };
  const ef = Math.max(64, fusion ? limit : limit * 2, limit * refineFactor);
  return { nprobes, ef, refineFactor };
}

/**
 * A LanceDB vector query with annQuery's parameters: its probes, `ef` where the index has HNSW graphs, and the
 * refine step unless the factor is 0.
 */
export function withAnnQuery(q: VectorQuery, p: ReturnType<typeof annQuery>): VectorQuery {
  q = q.nprobes(p.nprobes);
  if (p.ef !== undefined) q = q.ef(p.ef);
  return p.refineFactor ? q.refineFactor(p.refineFactor) : q;
}
