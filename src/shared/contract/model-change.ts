import { z } from 'zod';
import { IsoDateSchema, KbIdSchema } from './common.js';

/**
 * running: re-embedding the KB's chunks into a shadow table (search and writes keep using the old one);
 * indexing: building the full-text (and, when large enough, ANN) index on the shadow; interrupted: the process
 * stopped mid-way (the re-embedded chunks are kept; changeKbModel with the same model resumes it);
 * failed: see `error` (resume or cancel); done: swapped in; cancelled: the shadow was dropped, nothing changed.
 */
export const ModelChangeStateSchema = z.enum(['running', 'indexing', 'interrupted', 'failed', 'done', 'cancelled']);
export type ModelChangeState = z.infer<typeof ModelChangeStateSchema>;

export const ModelChangeSchema = z.object({
  kb_id: KbIdSchema,
  from_model: z.string(),
  from_dim: z.number().int().positive().nullable(),
  to_model: z.string(),
  to_dim: z.number().int().positive(),
  state: ModelChangeStateSchema,
  /** Chunks to re-embed (the KB's chunk count, kept current while writes land). */
  chunks_total: z.number().int().nonnegative(),
  /** Chunks already in the new table. */
  chunks_done: z.number().int().nonnegative(),
  started_at: IsoDateSchema,
  updated_at: IsoDateSchema,
  finished_at: IsoDateSchema.nullable(),
  /** Estimated time left, from the pace of this run; null until there is something to go by. */
  eta_ms: z.number().nonnegative().nullable(),
  /** How many times it was picked up again after an interruption or failure. */
  resumed: z.number().int().nonnegative(),
  error: z.string().nullable(),
});
export type ModelChange = z.infer<typeof ModelChangeSchema>;

export const ChangeKbModelInputSchema = z.object({
  kb_id: KbIdSchema,
  /** Preset name or model folder (or a remote embedder spec), as for createKb's embedding_model. */
  model: z.string().min(1).max(1024),
});
export type ChangeKbModelInput = z.input<typeof ChangeKbModelInputSchema>;

/** The KB's current or latest model change; null when it never had one. */
export const ModelChangeStatusSchema = z.object({ kb_id: KbIdSchema, migration: ModelChangeSchema.nullable() });
export type ModelChangeStatus = z.infer<typeof ModelChangeStatusSchema>;

export const CancelModelChangeResultSchema = z.object({
  kb_id: KbIdSchema,
  /** false when there was nothing to cancel (none running, or it had already been swapped in). */
  cancelled: z.boolean(),
  migration: ModelChangeSchema.nullable(),
});
export type CancelModelChangeResult = z.infer<typeof CancelModelChangeResultSchema>;
