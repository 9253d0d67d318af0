import { describe, expect, it } from 'vitest';
import { memoryClient, runTool } from '../memory-contract.js';
import { addDocumentChunked } from './add-document-chunked.js';

describe('add_document_chunked', () => {
  it('turns parser_config into the contract chunking override, leaving unset fields to the KB', async () => {
    const { client, state } = memoryClient({ alpha: [] });
    await runTool(
      addDocumentChunked,
      { kb_id: 'alpha', doc_id: 'h', content: 'Long text.', parser_config: { strategy: 'sentence', chunk_size: 128 } },
      client,
    );
    await runTool(addDocumentChunked, { kb_id: 'alpha', doc_id: 'h2', content: 'Long text.' }, client);
    expect(state.calls.map(([, i]) => (i as { chunking?: unknown }).chunking)).toEqual([{ strategy: 'sentence', chunk_size: 128 }, {}]);
  });
});
