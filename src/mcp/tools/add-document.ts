import { z } from 'zod';
import { AddResultSchema, MetadataInputSchema } from '../../shared/contract/index.js';
import { ADDITIVE, defineTool, KbIdArg } from '../tool-kit.js';

/** Fields shared by the add tools. */
export const DocumentFields = {
  doc_id: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .describe('Your id for the document (default: derived from the content). Reuse it to update.'),
  title: z.string().max(1000).optional().describe('Title shown in hits and citations'),
  content: z.string().describe('The text to store (plain text, or markdown/html with `format`)'),
  source: z.string().max(4096).optional().describe('Where it came from (URL, path, system); filterable as `source`'),
  metadata: MetadataInputSchema.optional().describe(
    'Filterable fields: string, number, boolean or lists of strings/numbers, e.g. {"year": 2024, "tags": ["hr", "policy"]}',
  ),
  format: z
    .enum(['text', 'markdown', 'html'])
    .optional()
    .describe('How to read content (default text); markdown/html keep the heading path'),
};

export const OverwriteArg = z
  .boolean()
  .default(false)
  .describe('Replace a document with the same doc_id (default false: that is an error)');

export const addDocument = defineTool({
  name: 'add_document',
  title: 'Add a document (one chunk)',
  description:
    'Store a short text (a note, an answer, a snippet) in a knowledge base as ONE searchable chunk. For long texts that should be ' +
    'split into passages use add_document_chunked. The same doc_id without overwrite is document_already_exists; identical ' +
    'content is skipped. Needs write access to the KB.',
  input: z.strictObject({ kb_id: KbIdArg, ...DocumentFields, overwrite: OverwriteArg }),
  output: AddResultSchema,
  annotations: { title: 'Add a document', ...ADDITIVE },
  async run(args, { client }) {
    return client.addDocument(args);
  },
});
