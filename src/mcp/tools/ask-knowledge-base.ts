import { z } from 'zod';
import { LocationSchema, type Hit } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { defineTool, type ToolContext } from '../tool-kit.js';
import { extractiveAnswer } from '../extractive.js';

const SourceOut = z.object({
  n: z.number().int(),
  kb_id: z.string(),
  doc_id: z.string(),
  title: z.string(),
  chunk_index: z.number().int(),
  location: LocationSchema,
  score: z.number(),
  excerpt: z.string(),
});

const SYSTEM =
  'You answer questions using only the numbered sources given. Cite every claim with its source number in square brackets, ' +
  'like [1] or [2][3]. If the sources do not contain the answer, say so plainly instead of guessing. Answer in the language of the question.';

function sourcesBlock(hits: Hit[]): string {
  return hits.map((h, i) => `[${i + 1}] ${h.title || h.doc_id} (${h.kb_id}/${h.doc_id}#${h.chunk_index})\n${h.text}`).join('\n\n');
}

async function viaSampling(ctx: ToolContext, question: string, hits: Hit[]): Promise<string | undefined> {
  if (!ctx.sample) return undefined;
  const res = await ctx.sample({
    systemPrompt: SYSTEM,
    maxTokens: 1000,
    includeContext: 'none',
    messages: [{ role: 'user', content: { type: 'text', text: `Question: ${question}\n\nSources:\n${sourcesBlock(hits)}` } }],
  });
  const content = res.content as { type: string; text?: string } | Array<{ type: string; text?: string }>;
  const parts = Array.isArray(content) ? content : [content];
  const text = parts
    .filter((p) => p.type === 'text' && p.text)
    .map((p) => p.text)
    .join('\n')
    .trim();
  return text || undefined;
}

const NOT_FOUND = 'The knowledge bases hold nothing that answers this question.';
/** Cosine similarity a passage needs to count as on-topic when it shares no word with the question. */
const MIN_SIMILARITY = 0.5;

/**
 * Hybrid search always returns the nearest passages, related or not. A question counts as answerable when a
 * passage shares its words (full-text finds it) or, across languages, is close in meaning.
 */
async function relevant(ctx: ToolContext, base: { query: string; top_k: number; kb_ids?: string[] }): Promise<boolean> {
  const lexical = await ctx.client.search({ ...base, top_k: 1, use_rerank: false, mode: 'fts' });
  if (lexical.hits.length > 0) return true;
  try {
    const semantic = await ctx.client.search({ ...base, top_k: 1, use_rerank: false, mode: 'vector' });
    return (semantic.hits[0]?.score ?? 0) >= MIN_SIMILARITY;
  } catch {
    return false;
  }
}

export const askKnowledgeBase = defineTool({
  name: 'ask_knowledge_base',
  title: 'Ask the knowledge base',
  description:
    'Answer a question from the knowledge bases with numbered citations. It searches (one KB with kb_id, or every KB you can use ' +
    'with kb_id "all" or omitted), then writes the answer with your own model through MCP sampling when your client supports it, ' +
    'otherwise returns an extractive answer stitched from the best passages. not_found is true when nothing relevant was found. ' +
    'sources[n-1] is citation [n].',
  input: z.strictObject({
    question: z.string().max(4000).describe('The question, in any language'),
    kb_id: z.string().min(1).max(200).optional().describe('Knowledge base to ask, or "all" (default: all you can use)'),
    top_k: z.number().int().default(5).describe('Passages to base the answer on, 1 to 50 (default 5)'),
  }),
  output: z.object({
    answer: z.string(),
    sources: z.array(SourceOut),
    not_found: z.boolean(),
    method: z.enum(['sampling', 'extractive', 'none']),
    note: z.string().optional(),
  }),
  annotations: { title: 'Ask the knowledge base', readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run({ question, kb_id, top_k }, ctx) {
    if (!question.trim()) throw new RagError('invalid_parameter', 'question must not be empty');
    const all = kb_id === undefined || kb_id === 'all' || kb_id === '*';
    const base = { query: question, top_k, ...(all ? {} : { kb_ids: [kb_id] }) };
    const res = await ctx.client.search({ ...base, use_rerank: true, mode: 'hybrid' });
    const hits = res.hits;
    if (hits.length === 0 || !(await relevant(ctx, base))) {
      return { answer: NOT_FOUND, sources: [], not_found: true, method: 'none' as const, ...(res.degraded ? { note: res.degraded } : {}) };
    }
    const sources = hits.map((h, i) => ({
      n: i + 1,
      kb_id: h.kb_id,
      doc_id: h.doc_id,
      title: h.title,
      chunk_index: h.chunk_index,
      location: h.location,
      score: h.score,
      excerpt: h.text.length > 300 ? `${h.text.slice(0, 300)}…` : h.text,
    }));
    let note: string | undefined;
    try {
      const sampled = await viaSampling(ctx, question, hits);
      if (sampled) return { answer: sampled, sources, not_found: false, method: 'sampling' as const };
    } catch (err) {
      note = `sampling failed (${err instanceof Error ? err.message : String(err)}); extractive answer instead`;
    }
    return {
      answer: extractiveAnswer(question, hits),
      sources,
      not_found: false,
      method: 'extractive' as const,
      ...(note ? { note } : {}),
    };
  },
  count: (out) => out.sources.length,
});
