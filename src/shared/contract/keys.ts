import { z } from 'zod';
import { IsoDateSchema, KbIdSchema } from './common.js';

/** Rights of an API key: a list of KB ids, or `'*'` for every KB (including ones created later). */
export const KbRightsSchema = z.union([z.literal('*'), z.array(KbIdSchema).max(1000)]);
export type KbRights = z.infer<typeof KbRightsSchema>;

export const KeyNameSchema = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(100)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._@:-]*$/u, 'name may hold letters, digits, spaces and . _ @ : -');

/** A key as listed: never the key itself, only a short prefix to recognise it. */
export const ApiKeyInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The first characters of the key, e.g. `rdk_AbC1`, to tell keys apart. */
  prefix: z.string(),
  /** Write implies read: `read` lists every KB the key can read, `write` those it can change. */
  read: KbRightsSchema,
  write: KbRightsSchema,
  created_at: IsoDateSchema,
  last_used_at: IsoDateSchema.nullable(),
});
export type ApiKeyInfo = z.infer<typeof ApiKeyInfoSchema>;

export const CreateKeyInputSchema = z.object({
  name: KeyNameSchema,
  /** KBs it may read (default `'*'` when neither `read` nor `write` is given, else none). */
  read: KbRightsSchema.optional(),
  /** KBs it may add to and delete from (default none). Write implies read. */
  write: KbRightsSchema.optional(),
});
export type CreateKeyInput = z.input<typeof CreateKeyInputSchema>;

/** The created key: `key` is shown this once and never stored (only its hash is). */
export const CreatedKeySchema = ApiKeyInfoSchema.extend({ key: z.string() });
export type CreatedKey = z.infer<typeof CreatedKeySchema>;

export const RevokeKeyInputSchema = z.object({ key: z.string().min(1).max(200).describe('the key id or name') });
export const RevokeKeyResultSchema = z.object({ id: z.string(), name: z.string(), revoked: z.boolean() });

/** One MCP tool call, as kept in the activity log: no secrets and no document content. */
export const ActivityEntrySchema = z.object({
  time: IsoDateSchema,
  /** `owner` for the local owner (stdio without a key, or the lock token), else the key's name. */
  key_name: z.string(),
  /** The client's name (and version) from MCP `initialize`, when it gave one. */
  client: z.string().nullable(),
  transport: z.enum(['stdio', 'http', 'memory']),
  tool: z.string(),
  /** A short summary of the arguments: long strings cut, content replaced by its length. */
  args: z.record(z.string(), z.unknown()),
  /** Hits or items returned, when the tool returns a list. */
  hits: z.number().int().nonnegative().nullable(),
  latency_ms: z.number().nonnegative(),
  /** The error code when the call failed (`invalid_params` for arguments that broke the schema). */
  error_code: z.string().nullable(),
});
export type ActivityEntry = z.infer<typeof ActivityEntrySchema>;

export const ListActivityInputSchema = z.object({
  limit: z.number().int().min(1).max(1000).default(100),
  tool: z.string().max(100).optional(),
  key_name: z.string().max(100).optional(),
});
export type ListActivityInput = z.output<typeof ListActivityInputSchema>;
export const ListActivityResultSchema = z.object({ total: z.number().int().nonnegative(), entries: z.array(ActivityEntrySchema) });
export type ListActivityResult = z.infer<typeof ListActivityResultSchema>;
