import { describe, expect, it } from 'vitest';
import { memoryClient, runTool } from '../memory-contract.js';
import { listDocuments } from './list-documents.js';

describe('list_documents', () => {
  it('pages through a KB with limit and offset, with the total', async () => {
    const docs = Array.from({ length: 7 }, (_, i) => ({ doc_id: `d${i}`, content: `text ${i}` }));
    const { client } = memoryClient({ alpha: docs });
    const out = await runTool(listDocuments, { kb_id: 'alpha', limit: 3, offset: 3 }, client);
    expect(out).toMatchObject({ total: 7, offset: 3 });
    expect(out.documents.map((d) => d.doc_id)).toEqual(['d3', 'd4', 'd5']);
    expect(out.documents[0]).not.toHaveProperty('content');
  });
});
