import type { Kb } from '../../shared/contract/index.js';
import { idf, type LexStats } from '../store/bm25.js';
import type { LexicalPart } from '../store/lexical-index.js';
import { rankLexical, summedStats, type KbRef } from './lexical-rank.js';

/**
 * How deep each KB's full-text list must be read for a ranking over several KBs (or over a table with unindexed
 * rows) to be exact. Candidates are fetched by LanceDB's score under one table's indexed statistics and ranked under
 * other ones (the KBs' summed statistics, lexical-rank.ts), so a row the index ranked below the rows fetched can
 * still rank high. It cannot rank higher than this bound, per term t of the query, for a row of the part:
 *   global_t / local_t = idf_global(t) / idf_local(t) · F(avgdl_global) / F(avgdl_local) ≤ r_t · max(1, avgdl_global / avgdl_local)
 * (F = tf·(K1+1) / (tf + K1·(1 − B + B·dl/avgdl)) grows with avgdl, at most in its ratio), so a row's global score is
 * at most ρ = max_t r_t · max(1, avgdl ratio) times its local score, and every row not fetched scored at most the
 * lowest fetched. Where ρ times that falls below the k-th best global score, no row left behind can enter the top k.
 * Only where LanceDB's scores are exact BM25 under the indexed rows' statistics (LexicalPart.bound).
 */

/** Relative margin over LanceDB's float32 scores (sums of a few float32 products: ~1e-6 each). */
const SCORE_SLACK = 1e-4;

/**
 * The highest global score a row of `part` that was not fetched could have: 0 when every row holding a term was
 * fetched, undefined when unknown (LanceDB's scores of the part are not exact: no bound).
 */
export function unfetchedCeiling(part: LexicalPart, global: LexStats): number | undefined {
  const b = part.bound;
  if (!b) return undefined;
  if (!b.full || b.indexed.docs === 0 || global.docs === 0) return 0;
  let ratio = 0;
  for (const [term, local] of b.indexed.df) {
    // A term no indexed row holds adds nothing to any of them.
    if (local <= 0) continue;
    const r = idf(global.df.get(term) ?? local, global.docs) / idf(local, b.indexed.docs);
    if (r > ratio) ratio = r;
  }
  const localAvg = b.indexed.tokens / b.indexed.docs;
  const lengths = localAvg > 0 ? Math.max(1, global.tokens / global.docs / localAvg) : 1;
  return ratio * lengths * b.lowest * (1 + SCORE_SLACK);
}

/**
 * The parts to read deeper so that the best `k` of `ranked` (the ranking of `parts`, best first) are exact: those
 * whose rows left behind could score as high as the k-th. A part without a bound is never among them (the caller
 * reads it to a fixed depth: its rows are as exact as that depth makes them).
 */
export function partsToDeepen(parts: readonly LexicalPart[], ranked: ReadonlyArray<{ score: number }>, k: number): number[] {
  const global = summedStats(parts);
  // Fewer than k rows scored: any row left behind could still enter.
  const kth = ranked.length >= k ? ranked[k - 1]!.score : 0;
  const deeper: number[] = [];
  parts.forEach((part, i) => {
    const ceiling = unfetchedCeiling(part, global);
    if (ceiling !== undefined && ceiling > 0 && ceiling >= kth) deeper.push(i);
  });
  return deeper;
}

/** The shallowest a full-text list ranked under other statistics is first read (then deeper where its bound asks). */
export const MIN_LEXICAL_DEPTH = 20;

/** One KB's full-text list of a search, as read so far, and how to read it again deeper. */
export interface LexicalList {
  kb: Kb;
  lexical: LexicalPart | undefined;
  lexDepth: number;
  /** Ranked under other statistics than LanceDB scored it with (several KBs, unindexed rows). */
  resorted?: boolean;
  readLexical?: (depth: number) => Promise<LexicalPart>;
}

interface ReadList extends LexicalList {
  lexical: LexicalPart;
  readLexical: (depth: number) => Promise<LexicalPart>;
}

/**
 * rankLexical over the KBs' parts, those with a bound read deeper (4× a round, to `maxDepth` at most) until no row
 * they left behind can reach the best `exactHead`. `per`'s parts are replaced by the deeper reads.
 */
export async function rankLexicalExact(per: LexicalList[], depth: number, exactHead: number, maxDepth: number): Promise<KbRef[]> {
  const lists = per.filter((p): p is ReadList => p.lexical !== undefined && p.readLexical !== undefined);
  const rank = () =>
    rankLexical(
      lists.map((p) => ({ kb: p.kb, part: p.lexical })),
      depth,
    );
  let ranked = rank();
  // One table ranked under its own statistics: LanceDB's ranking, or one it was asked for as deep as it is used.
  if (!lists.some((p) => p.resorted)) return ranked;
  const cap = Math.max(maxDepth, depth * 2);
  for (;;) {
    const deeper = partsToDeepen(
      lists.map((p) => p.lexical),
      ranked,
      exactHead,
    ).filter((i) => lists[i]!.lexDepth < cap);
    if (deeper.length === 0) return ranked;
    await Promise.all(
      deeper.map(async (i) => {
        const list = lists[i]!;
        list.lexDepth = Math.min(list.lexDepth * 4, cap);
        list.lexical = await list.readLexical(list.lexDepth);
      }),
    );
    ranked = rank();
  }
}
