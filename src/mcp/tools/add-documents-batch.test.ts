import { describe, expect, it } from 'vitest';
import { memoryClient, runTool } from '../memory-contract.js';
import { addDocumentsBatch } from './add-documents-batch.js';

describe('add_documents_batch', () => {
  it('sends every item in one contract call, parser_config only where given, one result each', async () => {
    const { client, state } = memoryClient({ alpha: [] });
    const out = await runTool(
      addDocumentsBatch,
      {
        kb_id: 'alpha',
        documents: [
          { doc_id: 'a', content: 'first' },
          { doc_id: 'b', content: 'second', parser_config: { strategy: 'token' } },
        ],
      },
      client,
    );
    expect(out.results.map((r) => r.doc_id)).toEqual(['a', 'b']);
    expect(addDocumentsBatch.count?.(out)).toBe(2);
    expect(state.calls[0]![1]).toEqual({
      kb_id: 'alpha',
      overwrite: false,
      documents: [
        { doc_id: 'a', content: 'first' },
        { doc_id: 'b', content: 'second', chunking: { strategy: 'token' } },
      ],
    });
  });
});
