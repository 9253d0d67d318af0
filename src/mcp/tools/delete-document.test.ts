import { describe, expect, it } from 'vitest';
import { memoryClient, runTool } from '../memory-contract.js';
import { deleteDocument } from './delete-document.js';

describe('delete_document', () => {
  it('deletes a document with all its chunks, and says document_not_found the second time', async () => {
    const { client } = memoryClient({ alpha: [{ doc_id: 'd', content: 'a b', chunks: ['a', 'b'] }] });
    expect(await runTool(deleteDocument, { kb_id: 'alpha', doc_id: 'd' }, client)).toEqual({
      kb_id: 'alpha',
      doc_id: 'd',
      deleted: true,
      chunks_deleted: 2,
    });
    await expect(runTool(deleteDocument, { kb_id: 'alpha', doc_id: 'd' }, client)).rejects.toMatchObject({ code: 'document_not_found' });
  });
});
