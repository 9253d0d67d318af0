import type { CallToolResult, CreateMessageRequest, CreateMessageResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { CallerScope, Core } from '../core/core.js';
import type { Principal } from '../core/auth/key-store.js';
import { LocationSchema, MetadataSchema, type Hit, type RagClient } from '../shared/contract/index.js';
import { RagError, toErrorEnvelope, type ErrorEnvelope } from '../shared/errors.js';

/** What a tool handler gets: the engine, a client limited to the caller's rights, and the client's abilities. */
export interface ToolContext {
  core: Core;
  /** The contract, limited to what the caller may read and write. */
  client: RagClient;
  scope: CallerScope;
  principal: Principal;
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

/** A successful result: structured content and the same JSON as text. */
export function okResult(data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

/** A failed call: `isError` and `{code, message}` (plus details when there are any) as JSON text. */
export function errorResult(err: unknown): CallToolResult {
  const env: ErrorEnvelope = toErrorEnvelope(err);
  const body = env.code === 'internal' ? { code: env.code, message: env.message } : env;
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}

/* ---------- shared argument and result pieces ---------- */

export const KbIdArg = z.string().min(1).max(200).describe('Knowledge base id, as listed by list_accessible_kbs');
export const DocIdArg = z.string().min(1).max(512).describe('Document id within the knowledge base');
export const QueryArg = z.string().max(4000).describe('What to look for, in natural language or keywords (any language)');
export const TopKArg = z.number().int().default(5).describe('How many hits to return, 1 to 50 (default 5)');
export const UseRerankArg = z
  .boolean()
  .default(true)
  .describe('Re-order candidates with the cross-encoder when it is loaded (default true; skipped, with a note, when it is not)');
export const ModeArg = z
  .enum(['hybrid', 'vector', 'fts'])
  .default('hybrid')
  .describe('hybrid (default): meaning + keywords fused; vector: meaning only; fts: exact keywords (BM25) only');
export const FilterArg = z
  .union([z.record(z.string(), z.unknown()), z.string()])
  .nullable()
  .default(null)
  .describe(
    'Metadata filter, ANDed: an object of "field__op": value, e.g. {"year__gte": 2020, "tags__contains": "hr", "source__eq": "wiki"}. ' +
      'Ops: eq ne in nin gt gte lt lte contains exists; a bare field means eq. Filterable fields: source, title, doc_id and the ' +
      'metadata fields shown by get_kb_info. null for none.',
  );

export const HitOut = z.object({
  kb_id: z.string(),
  doc_id: z.string(),
  title: z.string(),
  text: z.string(),
  score: z.number(),
  chunk_index: z.number().int(),
  location: LocationSchema,
  source: z.string(),
  metadata: MetadataSchema,
});

export const SearchOut = z.object({
  hits: z.array(HitOut),
  mode: z.enum(['hybrid', 'vector', 'fts']),
  reranked: z.boolean(),
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

/** Split `a=1, b=[1,2] AND c="x,y"` on commas, AND and && outside brackets and quotes. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote && text[i - 1] !== '\\') quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') depth--;
    else if (depth === 0) {
      const and = /^(?:\s+AND\s+|\s*&&\s*)/i.exec(text.slice(i));
      if (ch === ',' || and) {
        parts.push(cur);
        cur = '';
        if (and) i += and[0].length - 1;
        continue;
      }
    }
    cur += ch;
  }
  parts.push(cur);
  return parts.map((p) => p.trim()).filter(Boolean);
}

/**
 * `filter_expr` as an object, or as text a model may send instead: JSON (`{"year__gte": 2020}`) or
 * `field__op=value` pairs separated by commas or "AND" (values read as JSON when they parse).
 */
export function parseFilterExpr(expr: Record<string, unknown> | string | null | undefined): Record<string, unknown> | null {
  if (expr === null || expr === undefined) return null;
  if (typeof expr !== 'string') return Object.keys(expr).length ? expr : null;
  const text = expr.trim();
  if (!text || text === 'null') return null;
  if (text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // fall through to the error below
    }
    throw new RagError('invalid_parameter', 'filter_expr: not a valid JSON object');
  }
  const out: Record<string, unknown> = {};
  for (const part of splitTopLevel(text)) {
    const m = /^([A-Za-z0-9_.:-]+?)\s*(==|=|:)\s*(.+)$/.exec(part);
    if (!m) throw new RagError('invalid_parameter', `filter_expr: cannot read "${part}"; use {"field__op": value}`);
    let value: unknown = m[3]!.trim();
    try {
      value = JSON.parse(value as string);
    } catch {
      value = (value as string).replace(/^['"]|['"]$/g, '');
    }
    out[m[1]!] = value;
  }
  return Object.keys(out).length ? out : null;
}
