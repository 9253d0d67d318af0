import { describe, expect, it } from 'vitest';
import { BUILTIN_FILTER_FIELDS } from '../../shared/contract/index.js';
import { memoryClient, runTool } from '../memory-contract.js';
import { getKbInfo } from './get-kb-info.js';

describe('get_kb_info', () => {
  it('joins the KB, its model state and every filterable field from the contract', async () => {
    const { client, state } = memoryClient({ alpha: [{ doc_id: 'a', content: 'one two', chunks: ['one', 'two'] }] });
    const out = await runTool(getKbInfo, { kb_id: 'alpha' }, client);
    expect(out).toMatchObject({ kb_id: 'alpha', document_count: 1, chunk_count: 2, embedding_state: 'loaded', embedding_dim: 32 });
    expect(Object.keys(out.filterable_fields).sort()).toEqual(Object.keys(BUILTIN_FILTER_FIELDS).sort());
    expect(state.calls.map(([m]) => m).sort()).toEqual(['getKb', 'modelStatus']);
  });

  it('passes the contract error through for a KB the caller cannot see', async () => {
    const { client } = memoryClient({ alpha: [], secret: [] }, { readable: ['alpha'] });
    await expect(runTool(getKbInfo, { kb_id: 'secret' }, client)).rejects.toMatchObject({ code: 'kb_not_found' });
  });
});
