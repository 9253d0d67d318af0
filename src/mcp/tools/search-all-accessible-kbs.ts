import { z } from 'zod';
import {
  defineTool,
  FilterArg,
  hitOut,
  ModeArg,
  parseFilterExpr,
  QueryArg,
  READ_ONLY,
  SearchOut,
  TopKArg,
  UseRerankArg,
} from '../tool-kit.js';

export const searchAllAccessibleKbs = defineTool({
  name: 'search_all_accessible_kbs',
  title: 'Search every knowledge base',
  description:
    'Search every enabled knowledge base you can use at once and get the best passages merged by score. Each hit says where it ' +
    'came from in metadata._source_kb (also kb_id). Use this when you do not know which KB holds the answer; use search_kb when you do.',
  input: z.strictObject({
    query: QueryArg,
    top_k: TopKArg,
    use_rerank: UseRerankArg,
    filter_expr: FilterArg,
    mode: ModeArg,
  }),
  output: SearchOut,
  annotations: { title: 'Search every knowledge base', ...READ_ONLY },
  async run({ query, top_k, use_rerank, filter_expr, mode }, { client }) {
    const filter = parseFilterExpr(filter_expr);
    const res = await client.search({ query, top_k, use_rerank, mode, ...(filter ? { filter } : {}) });
    const hits = res.hits.map((h) => {
      const out = hitOut(h);
      return { ...out, metadata: { ...out.metadata, _source_kb: h.kb_id } };
    });
    return { hits, mode: res.mode, reranked: res.reranked, ...(res.degraded ? { note: res.degraded } : {}) };
  },
  count: (out) => out.hits.length,
});
