import { z } from 'zod';
import { defineTool, FilterArg, hitOut, ModeArg, parseFilterExpr, QueryArg, READ_ONLY, TopKArg, UseRerankArg } from '../tool-kit.js';
import { SearchOutWithSnippets, SnippetArg, SnippetCharsArg, withSnippets } from './snippet.js';

export const searchAllAccessibleKbs = defineTool({
  name: 'search_all_accessible_kbs',
  title: 'Search every knowledge base',
  description:
    'Search every enabled knowledge base you can use at once and get the best passages merged by score. Each hit says where it ' +
    'came from in metadata._source_kb (also kb_id). Use this when you do not know which KB holds the answer; use search_kb when you do. ' +
    'With snippet: true each hit carries only its best-matching part (about snippet_chars characters).',
  input: z.strictObject({
    query: QueryArg,
    top_k: TopKArg,
    use_rerank: UseRerankArg,
    filter_expr: FilterArg,
    mode: ModeArg,
    snippet: SnippetArg,
    snippet_chars: SnippetCharsArg,
  }),
  output: SearchOutWithSnippets,
  annotations: { title: 'Search every knowledge base', ...READ_ONLY },
  async run({ query, top_k, use_rerank, filter_expr, mode, snippet, snippet_chars }, { client }) {
    const filter = parseFilterExpr(filter_expr);
    const res = await client.search({ query, top_k, use_rerank, mode, ...(filter ? { filter } : {}) });
    const hits = res.hits.map((h) => {
      const out = hitOut(h);
      return { ...out, metadata: { ...out.metadata, _source_kb: h.kb_id } };
    });
    return {
      hits: snippet ? await withSnippets(client, query, hits, snippet_chars) : hits,
      mode: res.mode,
      reranked: res.reranked,
      ...(res.degraded ? { note: res.degraded } : {}),
    };
  },
  count: (out) => out.hits.length,
});
