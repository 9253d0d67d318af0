import { z } from 'zod';
import {
  defineTool,
  FilterArg,
  hitOut,
  KbIdArg,
  ModeArg,
  parseFilterExpr,
  QueryArg,
  READ_ONLY,
  TopKArg,
  UseRerankArg,
} from '../tool-kit.js';
import { SearchOutWithSnippets, SnippetArg, SnippetCharsArg, withSnippets } from './snippet.js';

export const searchKb = defineTool({
  name: 'search_kb',
  title: 'Search a knowledge base',
  description:
    'Search one knowledge base and get the best-matching passages (chunks), each with doc_id, title, text, score, metadata, ' +
    'chunk_index and location (page, heading path, lines) to cite. Use the passages to answer; call get_document with the ' +
    'doc_id (and chunk_index) for more context. Phrase the query as the information you need; it works across languages. ' +
    'With snippet: true each hit carries only its best-matching part (about snippet_chars characters): use it to scan many hits cheaply.',
  input: z.strictObject({
    kb_id: KbIdArg,
    query: QueryArg,
    top_k: TopKArg,
    use_rerank: UseRerankArg,
    filter_expr: FilterArg,
    mode: ModeArg,
    snippet: SnippetArg,
    snippet_chars: SnippetCharsArg,
  }),
  output: SearchOutWithSnippets,
  annotations: { title: 'Search a knowledge base', ...READ_ONLY },
  async run({ kb_id, query, top_k, use_rerank, filter_expr, mode, snippet, snippet_chars }, { client }) {
    const filter = parseFilterExpr(filter_expr);
    const res = await client.search({ query, kb_ids: [kb_id], top_k, use_rerank, mode, ...(filter ? { filter } : {}) });
    const hits = res.hits.map(hitOut);
    return {
      hits: snippet ? await withSnippets(client, query, hits, snippet_chars) : hits,
      mode: res.mode,
      reranked: res.reranked,
      ...(res.degraded ? { note: res.degraded } : {}),
    };
  },
  count: (out) => out.hits.length,
});
