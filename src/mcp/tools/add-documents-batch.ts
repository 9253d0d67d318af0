import { z } from 'zod';
import { AddBatchResultSchema, MAX_BATCH } from '../../shared/contract/index.js';
import { ADDITIVE, defineTool, KbIdArg } from '../tool-kit.js';
import { chunkingOf, ParserConfigArg } from './add-document-chunked.js';
import { DocumentFields, OverwriteArg } from './add-document.js';

export const addDocumentsBatch = defineTool({
  name: 'add_documents_batch',
  title: 'Add many documents',
  description:
    `Store up to ${MAX_BATCH} documents in one call. Each item is like add_document (one chunk) or, with parser_config, like ` +
    'add_document_chunked. Returns one result per item in order (ok, doc_id, status or error); a failing item does not stop the rest.',
  input: z.strictObject({
    kb_id: KbIdArg,
    documents: z
      .array(z.strictObject({ ...DocumentFields, parser_config: ParserConfigArg.optional() }))
      .describe(`1 to ${MAX_BATCH} documents`),
    overwrite: OverwriteArg,
  }),
  output: AddBatchResultSchema,
  annotations: { title: 'Add many documents', ...ADDITIVE },
  async run({ kb_id, documents, overwrite }, { client }) {
    const items = documents.map(({ parser_config, ...d }) => (parser_config ? { ...d, chunking: chunkingOf(parser_config) } : d));
    return client.addDocumentsBatch({ kb_id, documents: items, overwrite });
  },
  count: (out) => out.results.length,
});
