/** Retrieval metrics as BEIR/pytrec_eval compute them (graded gains, binary relevance for recall and MRR). */

export type Qrels = Map<string, Map<string, number>>;

export function ndcgAt(ranked: string[], rel: Map<string, number>, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    const g = rel.get(id) ?? 0;
    if (g > 0) dcg += (2 ** g - 1) / Math.log2(i + 2);
  });
  const ideal = [...rel.values()]
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idcg = ideal.reduce((acc, g, i) => acc + (2 ** g - 1) / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

export function recallAt(ranked: string[], rel: Map<string, number>, k: number): number {
  const relevant = [...rel.entries()].filter(([, g]) => g > 0).map(([id]) => id);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

export function mrrAt(ranked: string[], rel: Map<string, number>, k: number): number {
  const i = ranked.slice(0, k).findIndex((id) => (rel.get(id) ?? 0) > 0);
  return i < 0 ? 0 : 1 / (i + 1);
}
