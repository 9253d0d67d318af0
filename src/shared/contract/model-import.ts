import { z } from 'zod';

/** Import a model folder into the data dir, for offline use (see core/embed/model-import.ts). */
export const ImportModelInputSchema = z
  .object({
    /** A model folder on this machine: config.json, tokenizer.json, tokenizer_config.json, onnx/model*.onnx. */
    path: z.string().min(1).max(4096),
    kind: z.enum(['embedding', 'rerank']).default('embedding'),
    /** A preset name (its files then serve that preset) or a name for the model (`local/<name>`). */
    as: z.string().min(1).max(96).optional(),
    /** Import over a model imported earlier under the same name. */
    replace: z.boolean().default(false),
  })
  .strict();

export const ImportedModelSchema = z.object({
  /** The model string that names it from now on: a preset name or `local/<name>`. */
  model: z.string(),
  kind: z.enum(['embedding', 'rerank']),
  /** The preset it serves, if any. */
  preset: z.string().nullable(),
  /** Where its files are now (inside the data dir). */
  dir: z.string(),
  dim: z.number().int().positive().nullable(),
  dtype: z.string(),
  files: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  replaced: z.boolean(),
  imported_at: z.string(),
});
export type ImportedModel = z.infer<typeof ImportedModelSchema>;
