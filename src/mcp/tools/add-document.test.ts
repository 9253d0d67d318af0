import { describe, expect, it } from 'vitest';
import { memoryClient, runTool } from '../memory-contract.js';
import { addDocument } from './add-document.js';

describe('add_document', () => {
  it('stores a note as one chunk and refuses the same doc_id without overwrite', async () => {
    const { client, state } = memoryClient({ alpha: [] });
    const out = await runTool(addDocument, { kb_id: 'alpha', doc_id: 'n1', content: 'A short note.', metadata: { year: 2024 } }, client);
    expect(out).toMatchObject({ doc_id: 'n1', status: 'added', chunk_count: 1 });
    expect(state.calls[0]).toEqual([
      'addDocument',
      { kb_id: 'alpha', doc_id: 'n1', content: 'A short note.', metadata: { year: 2024 }, overwrite: false },
    ]);
    await expect(runTool(addDocument, { kb_id: 'alpha', doc_id: 'n1', content: 'again' }, client)).rejects.toMatchObject({
      code: 'document_already_exists',
    });
    expect(await runTool(addDocument, { kb_id: 'alpha', doc_id: 'n1', content: 'again', overwrite: true }, client)).toMatchObject({
      status: 'updated',
    });
  });
});
