import { describe, expect, it } from 'vitest';
import { memoryClient, runTool } from '../memory-contract.js';
import { searchKb } from './search-kb.js';

const docs = {
  alpha: [
    { doc_id: 'heart', content: 'Heart disease and blood pressure.', metadata: { year: 2021 } },
    { doc_id: 'customs', content: 'Customs duties on imports.', metadata: { year: 2019 } },
  ],
};

describe('search_kb', () => {
  it('searches one KB with the agent-facing defaults and returns cite-able hits', async () => {
    const { client, state } = memoryClient(docs);
    const out = await runTool(searchKb, { kb_id: 'alpha', query: 'heart blood' }, client);
    expect(out.hits[0]).toMatchObject({ kb_id: 'alpha', doc_id: 'heart', chunk_index: 0 });
    expect(out).toMatchObject({ mode: 'hybrid', reranked: false });
    expect(state.calls).toEqual([['search', { query: 'heart blood', kb_ids: ['alpha'], top_k: 5, use_rerank: true, mode: 'hybrid' }]]);
  });

  it('reads filter_expr as an object or as text, and turns it into the contract filter', async () => {
    const { client, state } = memoryClient(docs);
    await runTool(searchKb, { kb_id: 'alpha', query: 'x', filter_expr: 'year__gte=2020 AND source=wiki', mode: 'fts' }, client);
    await runTool(searchKb, { kb_id: 'alpha', query: 'x', filter_expr: { year: 2021 } }, client);
    expect(state.calls.map(([, i]) => (i as { filter?: unknown }).filter)).toEqual([{ year__gte: 2020, source: 'wiki' }, { year: 2021 }]);
    await expect(runTool(searchKb, { kb_id: 'alpha', query: 'x', filter_expr: 'nonsense' }, client)).rejects.toMatchObject({
      code: 'invalid_parameter',
    });
  });

  it('refuses what the contract refuses (top_k out of range) with its code', async () => {
    const { client } = memoryClient(docs);
    await expect(runTool(searchKb, { kb_id: 'alpha', query: 'heart', top_k: 500 }, client)).rejects.toMatchObject({
      code: 'invalid_parameter',
    });
  });
});
