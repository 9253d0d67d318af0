import type { CreateMessageRequest, CreateMessageResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  HitSchema,
  MAX_FILTER_EXPR_CHARS,
  SearchModeSchema,
  SearchResultSchema,
  type Hit,
  type RagClient,
} from '../shared/contract/index.js';

export { parseFilterExpr } from '../shared/filter-expr.js';
export { errorResult, okResult } from './results.js';

/**
 * What a tool handler gets: the contract (limited to the caller's rights by the core's dispatcher) and the MCP
 * client's abilities. Nothing else: a tool is an agent-facing adapter over the contract, never over the engine.
 */
export interface ToolContext {
  /** The contract, limited to what the caller may read and write. */
  client: RagClient;
  /** Ask the MCP client's own model (sampling), when the client declared that capability. */
  sample?: (params: CreateMessageRequest['params']) => Promise<CreateMessageResult>;
  signal: AbortSignal;
}

/** One MCP tool: its schemas, hints and handler. The handler returns plain data; errors are thrown RagErrors. */
export interface ToolDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  run(args: z.output<I>, ctx: ToolContext): Promise<z.input<O>>;
  /** How many hits or items a result holds (for the activity log). */
  count?(out: z.output<O>): number;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(def: ToolDef<I, O>): ToolDef<I, O> {
  return def;
}

export type AnyTool = ToolDef<z.ZodObject, z.ZodObject>;

/** Hints of a tool that only reads (every ragdesk tool is closed-world: it touches this machine's KBs only). */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const ADDITIVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const DESTRUCTIVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

/* ---------- shared argument and result pieces ---------- */

export const KbIdArg = z.string().min(1).max(200).describe('Knowledge base id, as listed by list_accessible_kbs');
export const DocIdArg = z.string().min(1).max(512).describe('Document id within the knowledge base');
export const QueryArg = z.string().max(4000).describe('What to look for, in natural language or keywords (any language)');
export const TopKArg = z.number().int().default(5).describe('How many hits to return, 1 to 50 (default 5)');
export const UseRerankArg = z
  .boolean()
  .default(true)
  .describe('Re-order candidates with the cross-encoder when it is loaded (default true; skipped, with a note, when it is not)');
export const ModeArg = SearchModeSchema.default('hybrid').describe(
  'hybrid (default): meaning + keywords fused; vector: meaning only; fts: exact keywords (BM25) only. A KB whose embedding_model is none is full-text only: hybrid is its keyword ranking, vector is refused',
);
export const FilterArg = z
  .union([z.record(z.string(), z.unknown()), z.string().max(MAX_FILTER_EXPR_CHARS)])
  .nullable()
  .default(null)
  .describe(
    'Metadata filter, ANDed: an object of "field__op": value, e.g. {"year__gte": 2020, "tags__contains": "hr", "source__eq": "wiki"}. ' +
      'Ops: eq ne in nin gt gte lt lte contains exists; a bare field means eq. Filterable fields: source, title, doc_id and the ' +
      'metadata fields shown by get_kb_info. null for none.',
  );

/** A hit as tools return it: the contract's hit. */
export const HitOut = HitSchema;

/** A search answer as tools return it: the contract's, with `degraded` said as a `note` for the model. */
export const SearchOut = SearchResultSchema.omit({ degraded: true }).extend({
  /** Why the answer is less than asked (model loading, reranker missing). */
  note: z.string().optional(),
});

export function hitOut(h: Hit): z.input<typeof HitOut> {
  return {
    kb_id: h.kb_id,
    doc_id: h.doc_id,
    title: h.title,
    text: h.text,
    score: h.score,
    chunk_index: h.chunk_index,
    location: h.location,
    source: h.source,
    metadata: h.metadata,
  };
}
