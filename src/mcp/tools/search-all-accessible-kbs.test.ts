import { describe, expect, it } from 'vitest';
import { memoryClient, runTool } from '../memory-contract.js';
import { searchAllAccessibleKbs } from './search-all-accessible-kbs.js';

describe('search_all_accessible_kbs', () => {
  it('searches every KB the caller may read and tags each hit with its KB', async () => {
    const { client, state } = memoryClient(
      {
        alpha: [{ doc_id: 'a', content: 'customs duties' }],
        beta: [{ doc_id: 'b', content: 'customs rules' }],
        secret: [{ doc_id: 's', content: 'customs' }],
      },
      { readable: ['alpha', 'beta'] },
    );
    const out = await runTool(searchAllAccessibleKbs, { query: 'customs', mode: 'fts' }, client);
    expect(out.hits.map((h) => [h.kb_id, h.metadata._source_kb]).sort()).toEqual([
      ['alpha', 'alpha'],
      ['beta', 'beta'],
    ]);
    expect((state.calls[0]![1] as { kb_ids?: unknown }).kb_ids).toBeUndefined();
  });
});
