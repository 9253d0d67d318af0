import { describe, expect, it } from 'vitest';
import { memoryClient, runTool } from '../memory-contract.js';
import { getDocument } from './get-document.js';

const long = { doc_id: 'manual', content: 'zero one two three four', chunks: ['zero', 'one', 'two', 'three', 'four'] };

describe('get_document', () => {
  it('returns a chunk and its neighbours for a search hit', async () => {
    const { client } = memoryClient({ alpha: [long] });
    const out = await runTool(getDocument, { kb_id: 'alpha', doc_id: 'manual', chunk_index: 2, window: 1 }, client);
    expect(out.chunks?.map((c) => c.text)).toEqual(['one', 'two', 'three']);
    expect(out.chunk_count).toBe(5);
  });

  it('says what is out of range, and passes not-found codes through', async () => {
    const { client } = memoryClient({ alpha: [long] });
    await expect(runTool(getDocument, { kb_id: 'alpha', doc_id: 'manual', chunk_index: 9 }, client)).rejects.toMatchObject({
      code: 'invalid_parameter',
    });
    await expect(runTool(getDocument, { kb_id: 'alpha', doc_id: 'nope' }, client)).rejects.toMatchObject({ code: 'document_not_found' });
  });
});
