import { z } from 'zod';
import { DocIdSchema, KbIdSchema, LocationSchema, MetadataSchema } from './common.js';

export const SEARCH_MODES = ['vector', 'fts', 'hybrid'] as const;
export const SearchModeSchema = z.enum(SEARCH_MODES);
export type SearchMode = z.infer<typeof SearchModeSchema>;

export const FILTER_OPS = ['eq', 'ne', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'contains', 'exists'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

/** Conditions one filter may hold, and its size as JSON (an `in` list of up to 1000 values fits). */
export const MAX_FILTER_CONDITIONS = 32;
export const MAX_FILTER_JSON_CHARS = 64 * 1024;
/** The longest search query, in characters. */
export const MAX_QUERY_CHARS = 4000;

/** `{field__op: value}`, ANDed; a bare field means `eq`. Values are checked against the field's type. */
export const FilterSchema = z.record(z.string().min(1).max(200), z.unknown()).superRefine((f, ctx) => {
  const n = Object.keys(f).length;
  if (n > MAX_FILTER_CONDITIONS)
    ctx.addIssue({ code: 'custom', message: `the filter has ${n} conditions; the limit is ${MAX_FILTER_CONDITIONS}` });
  else if (JSON.stringify(f).length > MAX_FILTER_JSON_CHARS)
    ctx.addIssue({ code: 'custom', message: `the filter is over ${MAX_FILTER_JSON_CHARS} characters as JSON` });
});
export type Filter = z.infer<typeof FilterSchema>;

export const TopKSchema = z.number().int().min(1, 'top_k must be in (0, 50]').max(50, 'top_k must be in (0, 50]');

export const SearchInputSchema = z.object({
  query: z.string().trim().min(1, 'query must not be empty').max(MAX_QUERY_CHARS),
  /** One or more KBs; omitted means every enabled KB the caller may read. */
  kb_ids: z.array(KbIdSchema).min(1).max(100).optional(),
  mode: SearchModeSchema.default('hybrid'),
  top_k: TopKSchema.default(5),
  use_rerank: z.boolean().default(false),
  filter: FilterSchema.nullable().optional(),
});
export type SearchInput = z.input<typeof SearchInputSchema>;

export const HitSchema = z.object({
  kb_id: KbIdSchema,
  doc_id: DocIdSchema,
  title: z.string(),
  text: z.string(),
  score: z.number(),
  chunk_index: z.number().int().nonnegative(),
  location: LocationSchema,
  source: z.string(),
  metadata: MetadataSchema,
});
export type Hit = z.infer<typeof HitSchema>;

export const SearchResultSchema = z.object({
  mode: SearchModeSchema,
  reranked: z.boolean(),
  /** Present when the answer is less than asked: e.g. hybrid answered from full-text while the model loads. */
  degraded: z.string().optional(),
  hits: z.array(HitSchema),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

/**
 * What the UI marks in hits. With `texts` (the hits' texts), `marks[i]` are the [start, end) ranges of `texts[i]` to
 * mark: whole words matched by the index's analyzer (stems), CJK bigrams, never stop words or a letter inside a word.
 * Without, the older hint: words starting with a query word's stem, and exact CJK runs / numbers.
 */
export const HighlightTermsInputSchema = z.object({
  query: z.string().max(4000),
  texts: z.array(z.string().max(1_000_000)).max(100).optional(),
});
export const MarkRangeSchema = z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]);
export const HighlightTermsSchema = z.object({
  prefixes: z.array(z.string()),
  exact: z.array(z.string()),
  marks: z.array(z.array(MarkRangeSchema)).optional(),
});
export type HighlightTerms = z.infer<typeof HighlightTermsSchema>;
