import { z } from 'zod';
import { DeleteResultSchema } from '../../shared/contract/index.js';
import { defineTool, DESTRUCTIVE, DocIdArg, KbIdArg } from '../tool-kit.js';

export const deleteDocument = defineTool({
  name: 'delete_document',
  title: 'Delete a document',
  description:
    'Delete a document from a knowledge base: its text, metadata and every chunk and vector go together. Cannot be undone. ' +
    'Needs write access. An unknown doc_id is document_not_found.',
  input: z.strictObject({ kb_id: KbIdArg, doc_id: DocIdArg }),
  output: DeleteResultSchema,
  annotations: { title: 'Delete a document', ...DESTRUCTIVE },
  async run({ kb_id, doc_id }, { client }) {
    return client.deleteDocument({ kb_id, doc_id });
  },
});
