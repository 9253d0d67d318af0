import { z } from 'zod';
import { KbIdSchema } from './common.js';
import { ProgressTokenSchema } from './files.js';
import { SearchModeSchema } from './search.js';

/** A judged query: its relevant doc_ids with their gains (1 for plain relevance). */
export const JudgedQuerySchema = z.object({
  query: z.string().min(1).max(4000),
  relevant: z.record(z.string(), z.number()),
});

/** Evaluate a KB on judged queries: the KB as it is, then each other model on a temporary re-embedded copy. */
export const EvalKbInputSchema = z.object({
  kb_id: KbIdSchema,
  queries: z.array(JudgedQuerySchema).min(1).max(100_000),
  models: z.array(z.string().min(1).max(4096)).max(16).default([]),
  modes: z.array(SearchModeSchema).min(1).max(3),
  fusion: z.string().max(32).default('adaptive'),
  progress_token: ProgressTokenSchema.optional(),
});

/** One mode's scores (loose: fields the evaluator adds later pass through). */
export const EvalReportSchema = z.looseObject({
  dataset: z.string(),
  mode: SearchModeSchema,
  queries: z.number().int().nonnegative(),
  ndcg_at_10: z.number(),
  recall_at_100: z.number(),
  mrr_at_10: z.number(),
  fusion: z.string().optional(),
  model: z.string(),
  degraded: z.string().optional(),
});

export const ModelEvalSchema = z.object({
  model: z.string(),
  index: z.enum(['current', 'copy', 'fresh']),
  reports: z.array(EvalReportSchema),
});
export const EvalKbResultSchema = z.array(ModelEvalSchema);
export type EvalKbResult = z.input<typeof EvalKbResultSchema>;
