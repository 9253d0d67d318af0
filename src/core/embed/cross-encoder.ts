import { int64Rows } from './int64-rows.js';
import { logitScores } from './pooling.js';
import type { ModelRunner } from './static-table.js';

/** A cross-encoder loaded in the embedding worker: relevance scores of passages for a query, in passage order. */
export interface Reranker {
  rerank(query: string, passages: string[], batchSize: number): Promise<number[]>;
  dispose(): Promise<unknown>;
}

/** A tokenizer called on a batch of pairs (transformers.js' or bare-tokenizer.ts'), rows as arrays. */
export type PairTokenizer = (
  texts: string[],
  options: { text_pair: string[]; padding: true; truncation: true; return_tensor: false },
) => Record<string, number[][]>;

/**
 * A reranker over a model and its tokenizer, either path: the query paired with each passage by the tokenizer's
 * template (padded, truncated), `batchSize` pairs a run, each scored from the logits (pooling.ts logitScores).
 */
export function pairReranker(runner: ModelRunner, tokenizer: PairTokenizer, dispose: () => Promise<unknown>): Reranker {
  return {
    async rerank(query, passages, batchSize) {
      const scores: number[] = [];
      for (let start = 0; start < passages.length; start += batchSize) {
        const batch = passages.slice(start, start + batchSize);
        const rows = int64Rows(
          tokenizer(
            batch.map(() => query),
            { text_pair: batch, padding: true, truncation: true, return_tensor: false },
          ),
        );
        const { logits } = await runner.run(rows);
        if (!logits) throw new Error('the reranker gave no logits');
        for (const s of logitScores(logits)) scores.push(s);
      }
      return scores;
    },
    dispose,
  };
}
